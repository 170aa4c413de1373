import cluster from 'node:cluster';
import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';
import { lockTurnsWaiting } from '../db/advisory-lock.ts';
import { dnsLookupsWaiting } from '../domain/address-guard.ts';
import { GatehouseError } from '../errors.ts';
import { reconnectIfStalled } from '../http/redis-stall.ts';

/**
 * The service's Prometheus metrics (GET /metrics), one set per process in prom-client's registry. Labels are closed
 * sets (route patterns, error codes, grant types), never an id or a raw URL, so series stay bounded (docs/operations.md).
 */

/** Seconds: from a millisecond cache hit to an Argon2 sign-in or a slow list under load. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: MikroORM measures statements in whole milliseconds. */
const QUERY_BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

export const httpRequests = new Histogram({
  name: 'gatehouse_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (not the URL) and status, and how long they took',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: REQUEST_BUCKETS,
});

export const graphqlOperations = new Counter({
  name: 'gatehouse_graphql_operations_total',
  help: 'GraphQL operations on /graphql (subscriptions once, when started or refused) by type, root field and outcome (ok, or the error code of the first error)',
  labelNames: ['type', 'field', 'outcome'] as const,
});

export const signIns = new Counter({
  name: 'gatehouse_sign_ins_total',
  help: 'Sign-ins as the audit log records them, by the method that completed or was refused and outcome (success, failure)',
  labelNames: ['method', 'outcome'] as const,
});

export const tokenGrants = new Counter({
  name: 'gatehouse_token_grants_total',
  help: 'Token endpoint requests by grant type and outcome (success, or the OAuth error code)',
  labelNames: ['grant_type', 'outcome'] as const,
});

/** Each limit that answers 429, and what it bounds. */
const RATE_LIMITS = {
  api: 'the service-wide limit, per credential or address',
  concurrency: 'requests in flight at once, per credential or address',
  streams: 'event streams and GraphQL WebSockets a credential holds open',
  sign_in: 'the hosted forms, per address',
  test_emails: 'TEST_EMAILS_PER_HOUR, per application',
  template_rendering: "a template preview or save while another of its scope renders, or two of its application's tenants",
} as const;

export type RateLimit = keyof typeof RATE_LIMITS;

const rateLimited = new Counter({
  name: 'gatehouse_rate_limited_total',
  help: `Requests refused 429 by limit: ${Object.entries(RATE_LIMITS).map(([limit, bounds]) => `${limit} (${bounds})`).join(', ')}`,
  labelNames: ['limit'] as const,
});

/** For a limit that answers with a page of its own; every other refusal is built by `rateLimitRefusal`. */
export function countRateLimited(limit: RateLimit): void {
  rateLimited.inc({ limit });
}

/** The only way a `rate_limited` error is made, so no limit's 429s go uncounted. */
export function rateLimitRefusal(limit: RateLimit, message: string, retryAfterSeconds?: number): GatehouseError {
  countRateLimited(limit);
  return new GatehouseError('rate_limited', message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
}

export const queryDurations = new Histogram({
  name: 'gatehouse_db_query_duration_seconds',
  help: 'SQL statements sent by the ORM, by outcome (ok, error), and how long they took',
  labelNames: ['outcome'] as const,
  buckets: QUERY_BUCKETS,
});

/** The pools and Redis clients of this process's servers, read at each scrape. */
const pools = new Set<Pool>();
/** Each Redis client with whether it answered its last PING. */
const redisClients = new Map<Redis, { answers: boolean }>();
const invalidationBuses = new Set<{ readonly fanOutWorks: boolean | undefined }>();

new Gauge({
  name: 'gatehouse_lock_turns_waiting',
  help: 'Requests waiting in this process for their turn at an advisory lock, before taking a database connection',
  collect() {
    this.set(lockTurnsWaiting());
  },
});

new Gauge({
  name: 'gatehouse_dns_lookups_waiting',
  help: 'Lookups of upstream and SMTP hosts waiting in this process for one of the 2 the system resolver is asked at once',
  collect() {
    this.set(dnsLookupsWaiting());
  },
});

new Gauge({
  name: 'gatehouse_db_pool_connections',
  help: 'Database pool connections by state: total (open), idle, waiting (requests queued for one)',
  labelNames: ['state'] as const,
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

new Gauge({
  name: 'gatehouse_redis_up',
  help: 'Whether Redis answers (1) or not (0); absent without REDIS_URL',
  aggregator: 'min',
  collect() {
    if (redisClients.size > 0) this.set([...redisClients].every(([client, { answers }]) => answers && client.status === 'ready') ? 1 : 0);
    // prom-client keeps an unlabelled gauge at 0 otherwise, which says Redis is down where none is configured.
    else this.remove();
  },
});

new Gauge({
  name: 'gatehouse_invalidation_fanout_up',
  help: 'Whether this instance publishes cache invalidations through Redis and hears the other instances\' (1) or not (0); absent without REDIS_URL',
  aggregator: 'min',
  collect() {
    const states = [...invalidationBuses].map((bus) => bus.fanOutWorks).filter((works) => works !== undefined);
    if (states.length > 0) this.set(states.every(Boolean) ? 1 : 0);
    else this.remove();
  },
});

// The process's CPU, memory, handles, GC and the event-loop delay (nodejs_eventloop_lag_*), as prom-client names them.
collectDefaultMetrics({ register });

/** Counts a pool, a Redis client and an invalidation bus in the gauges until the returned function is called (the server closes). */
export function watchResources(pool: Pool, redis: Redis | undefined, invalidations: { readonly fanOutWorks: boolean | undefined }): () => void {
  pools.add(pool);
  const redisCheck = redis === undefined ? undefined : watchRedis(redis);
  invalidationBuses.add(invalidations);
  return () => {
    pools.delete(pool);
    if (redis !== undefined) redisClients.delete(redis);
    clearInterval(redisCheck);
    invalidationBuses.delete(invalidations);
  };
}

/** How often the command client is asked whether Redis answers, bounded by its command timeout (500 ms). */
const REDIS_CHECK_MS = 2_000;

/**
 * A connection Redis stopped answering on (a partition, a frozen server) stays `ready` in ioredis until a command
 * times out, and an idle instance sends none: a PING every REDIS_CHECK_MS says it, and replaces the stalled connection
 * as a request's command would.
 */
function watchRedis(redis: Redis): NodeJS.Timeout {
  const state = { answers: redis.status === 'ready' };
  redisClients.set(redis, state);
  const check = () => {
    if (redis.status !== 'ready') return;
    redis.ping().then(
      () => (state.answers = true),
      (error: unknown) => {
        state.answers = false;
        reconnectIfStalled(redis, error);
      },
    );
  };
  return setInterval(check, REDIS_CHECK_MS).unref();
}

export const METRICS_CONTENT_TYPE = register.contentType;

const ASK = 'gatehouse:metrics?';
const ANSWER = 'gatehouse:metrics=';

interface MetricsAnswer {
  readonly type: typeof ANSWER;
  readonly id: number;
  readonly text?: string;
  readonly error?: string;
}

const asked = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
let lastAsked = 0;

/**
 * The metrics text: this process's, or with WORKERS above 1 the cluster's, summed over every worker by the primary
 * (prom-client's AggregatorRegistry; gauges of a state such as redis_up take the minimum): a scrape reaches any one
 * worker, and must see the whole instance.
 */
export async function readMetrics(): Promise<string> {
  const worker = cluster.worker;
  if (worker === undefined) return register.metrics();
  const id = (lastAsked += 1);
  return new Promise<string>((resolve, reject) => {
    asked.set(id, { resolve, reject });
    worker.send({ type: ASK, id });
  });
}

if (cluster.isWorker) {
  // Made for its side effect: the worker then answers the primary's AggregatorRegistry with its registry.
  new AggregatorRegistry();
  process.on('message', (message: Partial<MetricsAnswer>) => {
    if (message.type !== ANSWER || typeof message.id !== 'number') return;
    const waiting = asked.get(message.id);
    asked.delete(message.id);
    if (message.text !== undefined) waiting?.resolve(message.text);
    else waiting?.reject(new Error(`the cluster primary could not gather the metrics: ${message.error ?? 'no answer'}`));
  });
}

/** In the cluster primary: answers the workers' requests for the cluster's metrics (readMetrics). */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message.type !== ASK || typeof message.id !== 'number') return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id, text }),
      (error: unknown) => worker.send({ type: ANSWER, id, error: String(error) }),
    );
  });
}
