/** The sentence to show for anything thrown: errors carry their own, built for the page. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Its label or a fieldset's legend; a box of a group has its choice's label, not the group's: none then. */
export function labelOf(element: HTMLElement): string | null {
  let label: string | null | undefined;
  if (element instanceof HTMLFieldSetElement) label = element.querySelector('legend')?.textContent;
  else if (element instanceof HTMLInputElement && element.type === 'checkbox' && element.closest('fieldset') !== null) label = null;
  else if ('labels' in element) label = (element as HTMLInputElement).labels?.[0]?.textContent;
  const text = label?.trim() ?? '';
  return text === '' ? null : text;
}

/** A label's note that an input may be left empty, which names nothing in a sentence about what it holds. */
const OPTIONAL_NOTE = / \(optional\)$/;

/** A message beginning with the API's field name (`secrets.clientSecret is required`), or with its last part (`key must
 *  be resource:action` for `newPermissions[1].key`), begins with the form's words instead, without "(optional)"; a name
 *  within a sentence ("this slug") stays. */
export function inFormWords(message: string, field: string, label: string): string {
  const named = [field, field.slice(field.lastIndexOf('.') + 1)].find((name) => message.startsWith(`${name} `));
  return named === undefined ? message : `${label.replace(OPTIONAL_NOTE, '')}${message.slice(named.length)}`;
}
