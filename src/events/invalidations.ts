import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { reconnectIfStalled } from '../http/redis-stall.ts';

/** What caches must forget at once: a record by kind and id, or everything (`all`, when this instance may have missed some). */
export type Invalidation = { readonly kind: InvalidationKind; readonly id: string } | { readonly kind: 'all' };

/** An API key, an OAuth client or M2M credential (`oauth_client`), their owners, a grant (revoked with its tokens), an
 *  application's users (`users`) or authorization data (`roles`), both by application id, or an organization's status. */
const KINDS = ['api_key', 'oauth_client', 'application', 'tenant', 'user', 'grant', 'users', 'roles', 'organization'] as const;
export type InvalidationKind = (typeof KINDS)[number];

/** In process always, and through Redis pub/sub when REDIS_URL is set. Without Redis only this instance hears them, and
 *  the caches' short lifetimes bound what another instance may still believe. */
export interface InvalidationBus {
  /** Tells every instance, this one first (synchronously), then the others. Call after the change has committed. */
  publish(invalidation: Invalidation): Promise<void>;
  subscribe(listener: (invalidation: Invalidation) => void): void;
  /** Connects the Redis subscription, not sooner: an attempt's timer must not run while the server is being built.
   *  Resolves once the first attempt subscribed or failed; ioredis keeps trying. */
  connect(): Promise<void>;
  close(): Promise<void>;
  /** Told once when fan-out through Redis starts failing, not at each reconnection attempt; server.ts sets the log. */
  onError: (error: unknown) => void;
  onRecovered: () => void;
  /** Whether this instance both publishes through Redis and hears the others now (a metric); undefined without Redis. */
  readonly fanOutWorks: boolean | undefined;
}

/** Ended grants: every instance forgets the tokens it holds of each. */
export const grantsEnded = (grantIds: readonly string[]): Invalidation[] => grantIds.map((id) => ({ kind: 'grant', id }));

/** grantsEnded, published by a writer outside any scope (the OP's adapter, background jobs) once its write committed. */
export async function forgetGrants(bus: InvalidationBus, grantIds: readonly string[]): Promise<void> {
  await Promise.all(grantsEnded(grantIds).map((invalidation) => bus.publish(invalidation)));
}

/** One channel for every deployment sharing a Redis: ids are UUIDv7, so another deployment's events only cost a miss. */
const CHANNEL = 'gatehouse:invalidations';
const EVENT = 'invalidation';
/** A subscriber only listens, so nothing else shows that its connection stopped answering (a partition, a failover). */
const SUBSCRIPTION_CHECK_MS = 2_000;

function isInvalidation(value: unknown): value is Invalidation {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, id } = value as Record<string, unknown>;
  if (kind === 'all') return true;
  return (KINDS as readonly unknown[]).includes(kind) && typeof id === 'string';
}

export function createInvalidationBus(redis?: Redis): InvalidationBus {
  const local = new EventEmitter();
  // Subscribed at each `ready` (below), not by ioredis: one asked while Redis was away or slow would be dropped for good.
  const subscriber = redis?.duplicate({ autoResubscribe: false, lazyConnect: true });
  let firstAttempt: () => void = () => {};
  const attempted = new Promise<void>((resolve) => (firstAttempt = resolve));
  const failing = { publishing: false, subscribed: false };
  let listening = false;
  // A publish that failed left the other instances' caches holding what it announced: they are told to forget everything.
  let unannounced = false;
  const failed = (side: keyof typeof failing, error: unknown) => {
    if (side === 'subscribed') listening = false;
    const already = failing.publishing || failing.subscribed;
    failing[side] = true;
    if (!already) bus.onError(error);
  };
  const works = (side: keyof typeof failing) => {
    if (side === 'publishing') announceMissed();
    if (!failing[side]) return;
    failing[side] = false;
    if (!failing.publishing && !failing.subscribed) bus.onRecovered();
  };
  const bus: InvalidationBus = {
    async publish(invalidation) {
      local.emit(EVENT, invalidation);
      // Committed already: a Redis failure is logged and other caches expire; waits at most the command timeout.
      if (redis === undefined) return;
      await redis.publish(CHANNEL, JSON.stringify(invalidation)).then(
        () => works('publishing'),
        (error: unknown) => {
          reconnectIfStalled(redis, error);
          unannounced = true;
          failed('publishing', error);
        },
      );
    },
    subscribe(listener) {
      local.on(EVENT, listener);
    },
    async connect() {
      if (subscriber === undefined) return;
      subscriber.connect().catch(firstAttempt);
      await attempted;
    },
    async close() {
      clearInterval(subscriptionCheck);
      local.removeAllListeners();
      subscriber?.disconnect();
    },
    onError: () => {},
    onRecovered: () => {},
    get fanOutWorks() {
      return redis === undefined ? undefined : listening && !failing.publishing && !failing.subscribed;
    },
  };
  const announceMissed = () => {
    if (!unannounced || redis === undefined) return;
    unannounced = false;
    redis.publish(CHANNEL, JSON.stringify({ kind: 'all' } satisfies Invalidation)).catch(() => (unannounced = true));
  };
  // What was published while unsubscribed is lost: forget everything on each subscription, the first too (served before it).
  let subscribing = 0;
  const subscribe = () => {
    if (subscriber === undefined) return;
    subscribing += 1;
    subscriber
      .subscribe(CHANNEL)
      .then(
        () => {
          local.emit(EVENT, { kind: 'all' } satisfies Invalidation);
          listening = true;
          works('subscribed');
        },
        (error: unknown) => {
          failed('subscribed', error);
          reconnectIfStalled(subscriber, error);
        },
      )
      .finally(() => {
        subscribing -= 1;
        firstAttempt();
      });
  };
  // Pinged (allowed while subscribed) within the command timeout, or reconnected: it then subscribes again, forgetting
  // everything. A subscription refused on a connection that answers (an ACL, a busy script) is asked again: ioredis
  // would not, and the instance would hear no other for good.
  const checkSubscription = () => {
    if (subscriber?.status !== 'ready') return;
    if (!listening) {
      if (subscribing === 0) subscribe();
      return;
    }
    subscriber.ping().catch((error: unknown) => {
      failed('subscribed', error);
      if (subscriber.status === 'ready') subscriber.disconnect(true);
    });
  };
  const subscriptionCheck = subscriber === undefined ? undefined : setInterval(checkSubscription, SUBSCRIPTION_CHECK_MS).unref();
  if (redis !== undefined && subscriber !== undefined) {
    // A command client replaced after a stall (reconnectIfStalled) says the subscriber's connection is likely stalled too.
    redis.on('ready', () => {
      works('publishing');
      checkSubscription();
    });
    subscriber.on('message', (_channel: string, message: string) => {
      let invalidation: unknown;
      try {
        invalidation = JSON.parse(message);
      } catch {
        return;
      }
      if (isInvalidation(invalidation)) local.emit(EVENT, invalidation);
    });
    subscriber.on('ready', subscribe);
    subscriber.on('error', (error: unknown) => {
      failed('subscribed', error);
      firstAttempt();
    });
  }
  return bus;
}

/** For a request whose writes commit with its transaction: published once that commits (a cache told earlier could read
 *  and keep the old record), and not at all on rollback. The rest is the bus itself, through the prototype. */
export function publishingAfterCommit(bus: InvalidationBus, transaction: { afterCommit(action: () => Promise<void>): Promise<void> }): InvalidationBus {
  const publish = (invalidation: Invalidation) => transaction.afterCommit(() => bus.publish(invalidation));
  return Object.assign(Object.create(bus) as InvalidationBus, { publish });
}
