import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { currentBackgroundWork } from '../background-work.ts';

/** Pooled connections one request's statements hold at once: GraphQL runs root fields concurrently, and unbounded, one
 *  request of aliased lists takes the whole pool from every other tenant (docs/decisions.md, "Conventions"). */
export const STATEMENTS_PER_REQUEST = 2;

/** The request's turn at the pool: at most `size` of its statements hold a connection, the others queue in order. */
class StatementGate {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  async run<T>(statement: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free -= 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await statement();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#free += 1;
      else next();
    }
  }
}

const gates = new AsyncLocalStorage<StatementGate>();

export function withStatementGate(work: () => void): void {
  gates.run(new StatementGate(STATEMENTS_PER_REQUEST), work);
}

/** The gate of the request running, if any: a job the request started (the outbox woken) belongs to no request. */
function currentGate(): StatementGate | undefined {
  const gate = gates.getStore();
  return gate === undefined || currentBackgroundWork() !== undefined ? undefined : gate;
}

/** pg-pool's refusal when no connection came free within `connectionTimeoutMillis` (a connect that timed out says otherwise). */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

export const POOL_EXHAUSTED = 'database_pool_exhausted';

/** The pool's wait timeout, said as what it is, with the pool's counts (the service overloaded: gatehouse-error-of.ts). */
function sayingPoolExhausted(error: unknown, pool: Pool, startedAt: number): unknown {
  if (!(error instanceof Error) || error.message !== POOL_WAIT_TIMEOUT) return error;
  const waited = Math.round(performance.now() - startedAt);
  const message = `database pool exhausted: no connection came free in ${waited} ms (${pool.totalCount} of ${pool.options.max} open, ${pool.idleCount} idle, ${pool.waitingCount} more statements waiting)`;
  return Object.assign(new Error(message, { cause: error }), { code: POOL_EXHAUSTED });
}

type Execute = PostgreSqlConnection['execute'];
type Begin = PostgreSqlConnection['begin'];

/** Sends what takes a connection from the pool (a statement outside a transaction, a transaction's begin) through the
 *  request's gate. A permit is held across one statement only, never an open transaction, so the gate cannot deadlock. */
export function gateStatements(connection: PostgreSqlConnection, pool: Pool): void {
  const execute: Execute = connection.execute.bind(connection);
  const begin: Begin = connection.begin.bind(connection);
  const pooled = async <T>(send: () => Promise<T>): Promise<T> => {
    const gate = currentGate();
    const run = async () => {
      const startedAt = performance.now();
      try {
        return await send();
      } catch (error) {
        throw sayingPoolExhausted(error, pool, startedAt);
      }
    };
    return gate === undefined ? run() : gate.run(run);
  };
  connection.execute = ((query, params, method, ctx, loggerContext) =>
    ctx === undefined ? pooled(() => execute(query, params, method, ctx, loggerContext)) : execute(query, params, method, ctx, loggerContext)) as Execute;
  connection.begin = ((options) => (options?.ctx === undefined ? pooled(() => begin(options)) : begin(options))) as Begin;
}
