import type { Connection, EntityManager, Transaction } from '@mikro-orm/postgresql';

/**
 * Takes PostgreSQL's transaction-scoped advisory lock `name` on `em`'s transaction and holds it until that transaction
 * ends: every instance that asks for the same name waits its turn, so a check-then-write inside stays true.
 */
export async function lockForTransaction(em: EntityManager, name: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [name]);
}

/** The same lock on a transaction of the connection itself (`trx`), for work that runs below the EntityManager. */
export async function lockForConnectionTransaction(connection: Connection, trx: Transaction, name: string): Promise<void> {
  await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [name], 'all', trx);
}

/** Per lock name, the end of this process's last turn at it. */
const turns = new Map<string, Promise<void>>();
/** Turns not yet begun, every name together (the metrics' gauge). */
let waiting = 0;

export const lockTurnsWaiting = (): number => waiting;

/**
 * Runs `begin` (a transaction taking the advisory lock `name` first) after this process's earlier turns at `name`: a
 * transaction waiting at the database holds a pooled connection, so a burst on one name would take the whole pool.
 * Not re-entrant: `begin` must not take a turn at `name` again.
 */
export async function inTurn<T>(name: string, begin: () => Promise<T>): Promise<T> {
  const before = turns.get(name);
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  turns.set(name, mine);
  try {
    if (before !== undefined) {
      waiting += 1;
      await before.finally(() => (waiting -= 1));
    }
    return await begin();
  } finally {
    end();
    if (turns.get(name) === mine) turns.delete(name);
  }
}

/** `work`, preceded by the advisory lock `name`, for a transaction begun in its turn (inTurn). */
export function lockedFirst<T>(name: string, work: (em: EntityManager) => Promise<T>): (em: EntityManager) => Promise<T> {
  return async (em) => {
    await lockForTransaction(em, name);
    return work(em);
  };
}

/** Runs `work` in a transaction of `em` holding the advisory lock `name`, begun in this process's turn at it. */
export function lockedTransaction<T>(em: EntityManager, name: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return inTurn(name, () => em.transactional(lockedFirst(name, work)));
}
