/**
 * A statement's text without its values, for traces: MikroORM writes the values into the SQL it sends (a device code,
 * a password hash, an address), so each literal becomes `?`. String constants (standard, E'…' with backslash escapes,
 * dollar-quoted) are the values; numbers are left. A text this cannot read to its end (an unterminated quote) is
 * reduced to its first word, never kept.
 */
const LITERALS = /\b[eE]'(?:[^'\\]|\\[\s\S]|'')*'|'(?:[^']|'')*'|\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g;

export function sqlShape(text: string): string {
  const shape = text.replace(LITERALS, '?');
  return shape.includes("'") || shape.includes('$$') ? (/^\s*(\w+)/.exec(text)?.[1] ?? '?') : shape;
}
