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

/** A message beginning with the API's field name (`secrets.clientSecret is required`) begins with the form's words
 *  instead; a name within a sentence ("this slug") stays. */
export function inFormWords(message: string, field: string, label: string): string {
  return message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message;
}
