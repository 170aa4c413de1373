import { CookieJar } from './cookie-jar.ts';
import type { FetchLike } from './host-fetch.ts';

/** A cookie jar that also keeps every Set-Cookie line it was answered, in order, for pinning cookies' attributes. */
export function recordingJar(fetchImpl: FetchLike = (input, init) => fetch(input, init as RequestInit)): { jar: CookieJar; lines: string[] } {
  const lines: string[] = [];
  const jar = new CookieJar(async (input, init) => {
    const response = await fetchImpl(input, init);
    lines.push(...response.headers.getSetCookie());
    return response;
  });
  return { jar, lines };
}

/** The lines setting a cookie whose name starts with `prefix`, a value shown as `<value>` (sealed, random) unless empty. */
export const cookieLinesOf = (lines: readonly string[], prefix: string): string[] =>
  lines.filter((line) => line.startsWith(prefix)).map((line) => line.replace(/^([^=;]+)=[^;]+;/, '$1=<value>;'));
