import { expect } from 'vitest';
import type { HttpClient } from './http.ts';

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

/** The ids a list at `path` shows, following its cursors page after page; each page holds at most `pageSize`. */
export async function idsPageByPage(http: HttpClient, path: string, pageSize: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { data: { id: string }[]; next: string | null } } = await http.get(
      `${path}?pageSize=${pageSize}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    expect(page.body.data.length).toBeLessThanOrEqual(pageSize);
    seen.push(...page.body.data.map((row) => row.id));
    cursor = page.body.next;
  } while (cursor !== null);
  return seen;
}
