/** Where an OAuth provider's client secret is posted: a stored secret is kept only while this stays (mergeSecrets). A
 *  generic provider's issuer (whose metadata names the endpoint) or token endpoint, as the service stores a URL
 *  (`new URL`'s form), so a draft typed without the trailing slash the service adds names the same place. */
export function secretDestination(config: Readonly<Record<string, unknown>>): string {
  const provider = String(config['provider']);
  if (provider !== 'generic') return provider;
  const { issuer, tokenUrl } = config;
  return issuer == null ? `generic token endpoint ${storedUrl(tokenUrl)}` : `generic issuer ${storedUrl(issuer)}`;
}

function storedUrl(value: unknown): string {
  const typed = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    return new URL(typed).href;
  } catch {
    return typed;
  }
}
