import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { lockTurnsWaitingAtLeast, lockWaitersAtLeast, usingEmbeddedDatabase } from './database.ts';

/** A row by its key: of an application-owned table, or (no `applicationId`) of `application` itself. */
export interface HeldRow {
  readonly table: string;
  readonly applicationId?: string;
  readonly id: string;
  /** The key's column beside `application_id`: `id` unless told (`user_id` for a row per user). */
  readonly column?: string;
}

/** How the test's own transaction holds the row, and what it writes before it commits. */
export interface RowHolder {
  readonly lock: 'share' | 'update';
  readonly beforeCommit?: (em: EntityManager) => Promise<unknown>;
}

/**
 * Sends `writes` one after the other while `row` is held (FOR SHARE, or FOR UPDATE as a change of it holds it), each
 * once the one before waits on a lock, then lets them all go, the holder first running `beforeCommit` in its
 * transaction: transactions that overlap, in a known order, whatever the machine's speed. Under FOR SHARE, reads of
 * the row and other share locks go through; only a write of it (or a lock for one) waits. Their outcomes, in order.
 * `queued` says when the first `count` writes wait: by default each at the database; writes that take turns at an
 * advisory lock wait in the process behind the first (src/db/advisory-lock.ts). PostgreSQL only: the embedded
 * database has one session for all connections.
 */
export async function queuedBehind<T>(
  orm: MikroORM,
  row: HeldRow,
  holder: RowHolder,
  writes: (() => Promise<T>)[],
  queued: (count: number) => Promise<void> = (count) => lockWaitersAtLeast(orm, count),
): Promise<T[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const held = orm.em.fork().transactional(async (em) => {
    // The table is the test's own constant, never input.
    const [where, params] = row.applicationId === undefined ? ['id = ?', [row.id]] : [`application_id = ? and ${row.column ?? 'id'} = ?`, [row.applicationId, row.id]];
    await em.execute(`select 1 from ${row.table} where ${where} for ${holder.lock}`, params);
    locked();
    await released;
    await holder.beforeCommit?.(em);
  });
  await isLocked;
  const outcomes: Promise<T>[] = [];
  try {
    for (const write of writes) {
      outcomes.push(write());
      await queued(outcomes.length);
    }
  } finally {
    release();
    await held;
  }
  return Promise.all(outcomes);
}

/** Requests sent at once: on PostgreSQL queued behind `row` (their overlap made certain), on the embedded database
 *  (one session, no row lock to wait on) all sent together, overlapping wherever each awaits. */
export function sentAtOnce<T>(orm: MikroORM, row: HeldRow, requests: (() => Promise<T>)[]): Promise<T[]> {
  return usingEmbeddedDatabase() ? Promise.all(requests.map((request) => request())) : queuedBehind(orm, row, { lock: 'update' }, requests);
}

/** Forms of one interaction (one browser) sent at once: answered one at a time (src/oidc/interaction-claims.ts), so on
 *  PostgreSQL the first waits behind `row` and the others for their turn at the interaction, in the order sent. */
export function formsSentAtOnce<T>(orm: MikroORM, row: HeldRow, forms: (() => Promise<T>)[]): Promise<T[]> {
  if (usingEmbeddedDatabase()) return Promise.all(forms.map((form) => form()));
  return queuedBehind(orm, row, { lock: 'update' }, forms, (count) => (count === 1 ? lockWaitersAtLeast(orm, 1) : lockTurnsWaitingAtLeast(count - 1)));
}
