import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { GatehouseError } from '../errors.ts';

/** PostgreSQL's transaction-scoped advisory lock on `em`'s transaction: every instance asking for `name` waits its turn,
 *  so a check-then-write inside stays true. Only in this process's turn at `name` (inTurn), begun before the transaction,
 *  else a burst's waiters would hold the pool. */
export async function lockForTransaction(em: EntityManager, name: string): Promise<void> {
  const turn = heldTurn(name);
  if (turn === undefined) throw new Error(`advisory lock ${name} asked for outside its turn (inTurn)`);
  if (turn.waits) {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [name]);
    return;
  }
  const [row] = await em.execute<{ held: boolean }[]>('select pg_try_advisory_xact_lock(hashtext(?)) as held', [name]);
  if (row?.held !== true) throw outOfOrderRefusal();
}

/** A session's advisory lock on a connection of its own while `work` runs, outliving the transactions `work` commits. A
 *  lock lost meanwhile (the connection broken) fails `work`'s end: another instance may have begun. */
export async function holdingSessionLock<T>(url: string, name: string, connectMs: number, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectMs });
  let lost: unknown;
  client.on('error', (error) => (lost ??= error));
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    const done = await work();
    if (lost !== undefined) throw new Error(`the connection holding advisory lock ${name} was lost`, { cause: lost });
    return done;
  } finally {
    await client.end().catch(() => undefined);
  }
}

interface Turn {
  readonly name: string;
  /** False for a lock taken out of order (KeptTurns.take): its transaction may not wait for it. */
  readonly waits: boolean;
  over: boolean;
}

/** The turns the running work is in; `over` for work it left behind (a timer) that outlives them. */
const inTurns = new AsyncLocalStorage<readonly Turn[]>();
const heldTurn = (name: string): Turn | undefined => inTurns.getStore()?.find((turn) => turn.name === name && !turn.over);

const turns = new Map<string, Promise<void>>();
/** Turns not yet begun, every name together (the metrics' gauge). */
let waiting = 0;

export const lockTurnsWaiting = (): number => waiting;

/** Runs `begin` (a transaction taking the advisory locks `names`) after this process's earlier turns at each: a transaction
 *  waiting at the database holds a pooled connection, so a burst on one name would take the whole pool. Names are waited
 *  for in one order, so two requests cannot each hold the other's turn; asking for a turn it is in throws (it would wait
 *  for itself). With `kept`, the turns are those of the transaction `begin` joins, kept as long as its locks. */
export async function inTurn<T>(names: string | readonly string[], begin: () => Promise<T>, kept?: KeptTurns): Promise<T> {
  const keeping = kept?.ended === false ? kept : undefined;
  const taken: Turn[] = [];
  const leaving: (() => void)[] = [];
  try {
    for (const name of [...new Set(typeof names === 'string' ? [names] : names)].sort()) {
      if (heldTurn(name) !== undefined && keeping?.keeps(name) !== true) throw new Error(`already in the turn at advisory lock ${name}`);
      if (keeping !== undefined) {
        taken.push(await keeping.take(name));
        continue;
      }
      const { turn, leave } = await takeTurn(name);
      taken.push(turn);
      leaving.push(leave);
    }
    return await inTurns.run([...(inTurns.getStore() ?? []), ...taken], begin);
  } finally {
    for (const leave of leaving) leave();
  }
}

/** The turns of a transaction keeping its advisory locks past the work that asked (a request's), each until `end`; asked
 *  again, a kept turn is given at once, as PostgreSQL's lock is re-entrant. */
export class KeptTurns {
  readonly #taken = new Map<string, Promise<Turn>>();
  readonly #leaving: (() => void)[] = [];
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  keeps(name: string): boolean {
    return this.#taken.has(name);
  }

  /** Waited for once. A name sorting before one it keeps is taken only if free (else 503): waiting could close a cycle
   *  through the process, which PostgreSQL's deadlock detection does not see. */
  take(name: string): Promise<Turn> {
    const taken = this.#taken.get(name);
    if (taken !== undefined) return taken;
    const last = [...this.#taken.keys()].sort().at(-1);
    const inOrder = last === undefined || name > last;
    if (!inOrder && turns.has(name)) throw outOfOrderRefusal();
    const taking = takeTurn(name, inOrder).then(({ turn, leave }) => {
      this.#leaving.push(leave);
      if (this.#ended) leave();
      return turn;
    });
    this.#taken.set(name, taking);
    return taking;
  }

  /** When the transaction has ended (committed or rolled back): its turns pass to the next waiters. */
  end(): void {
    this.#ended = true;
    for (const leave of this.#leaving.splice(0)) leave();
  }
}

/** This process's turn at `name` for work whose exclusion is kept elsewhere than in one transaction (a claim row:
 *  src/oidc/interaction-claims.ts), waited for holding no connection; calling the answer leaves it. */
export async function awaitTurn(name: string): Promise<() => void> {
  return (await takeTurn(name)).leave;
}

async function takeTurn(name: string, waits = true): Promise<{ turn: Turn; leave: () => void }> {
  const before = turns.get(name);
  let end!: () => void;
  const mine = new Promise<void>((resolve) => (end = resolve));
  turns.set(name, mine);
  if (before !== undefined) {
    waiting += 1;
    await before.finally(() => (waiting -= 1));
  }
  const turn: Turn = { name, waits, over: false };
  const leave = () => {
    turn.over = true;
    end();
    if (turns.get(name) === mine) turns.delete(name);
  };
  return { turn, leave };
}

/** The lock's name stays unsaid: it may hold an address. */
const outOfOrderRefusal = () =>
  new GatehouseError('service_unavailable', 'A lock this request needs is taken, and it may not wait for it after those it holds: try again', {
    retryAfterSeconds: 1,
  });

export function lockedFirst<T>(names: string | readonly string[], work: (em: EntityManager) => Promise<T>): (em: EntityManager) => Promise<T> {
  return async (em) => {
    for (const name of typeof names === 'string' ? [names] : names) await lockForTransaction(em, name);
    return work(em);
  };
}

export function lockedTransaction<T>(em: EntityManager, name: string, work: (em: EntityManager) => Promise<T>): Promise<T> {
  return inTurn(name, () => em.transactional(lockedFirst(name, work)));
}
