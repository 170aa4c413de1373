import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { selectPage, type PageOrder } from '../db/page-query.ts';
import { invalid } from '../errors.ts';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const IDS_MAX = 100;

export interface PageArgs {
  pageSize?: number | null;
  cursor?: string | null;
  /** Only the rows of these ids (the `ids` argument of a list). */
  ids?: readonly string[] | null;
}

export interface Page<T> {
  data: T[];
  next: string | null;
}

/** base64url(JSON) + HMAC-SHA256 over it and its list: a cursor from another list, scope or server secret fails (422
 *  `validation_error` on `cursor`). */
export class CursorCodec {
  // A prepared key object: HMAC with a raw buffer re-imports the key on every call (~6× slower).
  private readonly secret: KeyObject;

  constructor(secret: string) {
    this.secret = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  private sign(payload: string, list: string): Buffer {
    return createHmac('sha256', this.secret).update(list).update('\0').update(payload).digest().subarray(0, 16);
  }

  encode(list: string, after: string): string {
    const payload = Buffer.from(JSON.stringify({ a: after })).toString('base64url');
    return `${payload}.${this.sign(payload, list).toString('base64url')}`;
  }

  decode(list: string, cursor: string): string {
    const [payload, signature, extra] = cursor.split('.');
    const invalidCursor = invalid('cursor', 'The cursor is not valid for this list');
    if (payload === undefined || signature === undefined || extra !== undefined) throw invalidCursor;
    const presented = Buffer.from(signature, 'base64url');
    // Node's decoder skips characters outside the alphabet and a last character's unused bits: only the signature's
    // one spelling is the cursor, any altered copy is refused (tamper-evident, not merely unforgeable).
    if (presented.toString('base64url') !== signature) throw invalidCursor;
    const expected = this.sign(payload, list);
    // constant-time: a forged cursor must not learn its signature byte by byte.
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) throw invalidCursor;
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a?: unknown };
    if (typeof decoded.a !== 'string') throw invalidCursor;
    return decoded.a;
  }
}

/** So that a cursor is refused in any other list or scope. */
export function scopedList(scope: { applicationId: string; tenantId: string | null }, name: string): string {
  return `${name}:${scope.applicationId}:${scope.tenantId ?? ''}`;
}

export function pageSize(args: PageArgs): number {
  const size = args.pageSize ?? PAGE_SIZE_DEFAULT;
  if (!Number.isInteger(size) || size < 1 || size > PAGE_SIZE_MAX) {
    throw invalid('pageSize', `pageSize must be an integer from 1 to ${PAGE_SIZE_MAX}`);
  }
  return size;
}

/** The distinct ids asked for, sorted (so that a cursor names the set, whatever the order or repeats); undefined for all. */
function idsFilter(args: PageArgs): string[] | undefined {
  if (args.ids == null) return undefined;
  if (args.ids.length === 0 || args.ids.length > IDS_MAX) throw invalid('ids', `ids must hold 1 to ${IDS_MAX} ids`);
  return [...new Set(args.ids)].sort();
}

/** The ids `args` narrows a list to (undefined for all), and the list its cursors belong to: the set's own. */
export function narrowedList(args: PageArgs, list: string): { ids: string[] | undefined; list: string } {
  const ids = idsFilter(args);
  return { ids, list: ids === undefined ? list : `${list}:ids=${ids.join(',')}` };
}

/** Plain values, not managed entities: lists write nothing, and hydrating costs several SQL round trips (docs/bench.md). */
export type Row<T> = Readonly<Omit<T, symbol>>;

/** Keyset by id (UUIDv7 sorts by creation), oldest first unless `order` is `newest` (another list: cursors do not cross);
 *  `args.ids` narrows the rows, and its cursors are the set's. */
export async function paginate<T extends { id: string }>(
  em: EntityManager,
  entity: EntityClass<T>,
  where: object,
  args: PageArgs,
  cursors: CursorCodec,
  list: string,
  order: PageOrder = 'oldest',
): Promise<Page<Row<T>>> {
  const size = pageSize(args);
  const { ids, list: listOfIds } = narrowedList(args, order === 'newest' ? `${list}:newest` : list);
  const after = args.cursor == null ? undefined : cursors.decode(listOfIds, args.cursor);
  const rows = (await selectPage(em, entity, where, { after, ids, limit: size + 1, order })) as unknown as Row<T>[];
  const data = rows.slice(0, size);
  const last = data.at(-1);
  return { data, next: rows.length > size && last !== undefined ? cursors.encode(listOfIds, last.id) : null };
}
