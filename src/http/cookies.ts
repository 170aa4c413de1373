/** A cookie of a `Cookie` header by name: the first sent (browsers send the most specific path first). */
export function cookieNamed(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** The `Cookie` header without the cookies `dropped` names. */
export function cookiesWithout(header: string | undefined, dropped: (name: string) => boolean): string {
  return (header ?? '')
    .split(';')
    .filter((pair) => !dropped(pair.slice(0, Math.max(pair.indexOf('='), 0)).trim()))
    .join(';');
}
