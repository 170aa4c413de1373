/**
 * A cursor with its signature changed for certain: the signature's first character (six significant bits) swapped
 * for another. Rewriting its last characters instead may leave the decoded bytes as they were (the last base64url
 * character carries padding bits), and then the "forged" cursor is the real one.
 */
export function forgeCursor(cursor: string): string {
  const dot = cursor.indexOf('.');
  if (dot < 0) throw new Error(`not a signed cursor: ${cursor}`);
  const first = cursor[dot + 1] === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, dot + 1)}${first}${cursor.slice(dot + 2)}`;
}
