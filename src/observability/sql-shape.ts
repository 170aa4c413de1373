/**
 * For traces: MikroORM writes values into its SQL (a device code, a password hash), so each string literal becomes `?`.
 * A text that cannot be read to its end (an unterminated quote) is reduced to its first word, never kept.
 */
const LITERALS = /\b[eE]'(?:[^'\\]|\\[\s\S]|'')*'|'(?:[^']|'')*'|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g;

export function sqlShape(text: string): string {
  const shape = text.replace(LITERALS, '?');
  return shape.includes("'") || shape.includes('$$') ? (/^\s*(\w+)/.exec(text)?.[1] ?? '?') : shape;
}
