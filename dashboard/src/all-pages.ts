import type { Page } from './operations.ts';

/** The largest page the API gives (`pageSize` 1 to 100). */
export const FULL_PAGE = 100;

export async function readAllPages<T>(readPage: (cursor: string | null) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await readPage(cursor);
    items.push(...page.data);
    cursor = page.next;
  } while (cursor !== null);
  return items;
}
