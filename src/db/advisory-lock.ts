import { AsyncLocalStorage } from 'node:async_hooks';
import type { Connection, EntityManager, Transaction } from '@mikro-orm/postgresql';

/**
 * Takes PostgreSQL's transaction-scoped advisory lock `name` on `em`'s transaction and holds it until that transaction
 * ends: every instance that asks for the same name waits its turn, so a check-then-write inside stays true. Only in
 * this process's turn at `name` (inTurn), begun before the transaction: else a burst's waiters would hold the pool.
 */
export async function lockForTransaction(em: EntityManager, name: string): Promise<void> {
  if (heldTurn(name) === undefined) throw new Error(`advisory lock ${name} asked for outside its turn (inTurn)`);
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [name]);
}

/** The same lock on a transaction of the connection itself (`trx`), for work that runs below the EntityManager. */
export async function lockForConnectionTransaction(connection: Connection, trx: Transaction, name: string): Promise<void> {
  await connection.execute('select pg_advisory_xact_lock(hashtext(?))', [name], 'all', trx);
}

interface Turn {
  readonly name: string;
  over: boolean;
}

/** The turns the running work is in; `over` for work it left behind (a timer) that outlives them. */
const inTurns = new AsyncLocalStorage<readonly Turn[]>();
const heldTurn = (name: string): Turn | undefined => inTurns.getStore()?.find((turn) => turn.name === name && !turn.over);

/** Per lock name, the end of this process's last turn at it. */
const turns = new Map<string, Promise<void>>();
/** Turns not yet begun, every name together (the metrics' gauge). */
let waiting = 0;

export const lockTurnsWaiting = (): number => waiting;

/**
 * Runs `begin` (a transaction taking the advisory locks `names`) after this process's earlier turns at each of them: a
 * transaction waiting at the database holds a pooled connection, so a burst on one name would take the whole pool.
 * Several names are waited for in one order, so two requests cannot each hold the turn the other waits for. Not
 * re-entrant: `begin` asking for a turn it is in throws, as it would wait for itself.
 */
export async function inTurn<T>(names: string | readonly string[], begin: () => Promise<T>): Promise<T> {
  const [name, ...rest] = [...new Set(typeof names === 'string' ? [names] : names)].sort();
  if (name === undefined) return begin();
  if (heldTurn(name) !== undefined) throw new Error(`already in the turn at advisory lock ${name}`);
  const turn: Turn = { name, over: false };
  return inTurns.run([...(inTurns.getStore() ?? []), turn], async () => {
    try {
      return await oneTurn(name, () => inTurn(rest, begin));
    } finally {
      turn.over = true;
    }
  });
}

async function oneTurn<T>(name: string, begin: () => Promise<T>): Promise<T> {
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

/** `work`, preceded by the advisory locks `names` in their order, for a transaction begun in their turns (inTurn). */
export function lockedFirst<T>(names: string | readonly string[], work: (em: EntityManager) => Promise<T>): (em: EntityManager) => Promise<T> {
  return async (em) => {
    for (const name of typeof names === 'string' ? [names] : names) await lockForTransaction(em, name);
    return work(em);
  };
}

/** Runs `work` in a transaction of `em` holding the advisory lock `name`, begun in this process's turn at it. */
export function lockedTransaction<T>(em: EntityManager, name: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return inTurn(name, () => em.transactional(lockedFirst(name, work)));
}
