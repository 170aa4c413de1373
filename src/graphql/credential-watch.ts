import type { Principal } from '../auth/principal.ts';
import { boundedConcurrency } from '../bounded-concurrency.ts';
import type { InvalidationBus } from '../events/invalidations.ts';

/**
 * Open connections whose credentials are asked again when a record they stand on changes
 * (Principal.credentialRecords), when everything may have (`all`), and when their key or token runs out: an open
 * connection, idle or not, must not outlive its credentials.
 */
export interface CredentialWatch<C> {
  /** From now until `unwatch`; `expiresAt` is when its key or token runs out (ms since the epoch, or Infinity). */
  watch(connection: C, principal: Principal, expiresAt: number): void;
  unwatch(connection: C): void;
  askAgain(connection: C): void;
  /** Changes heard so far: one heard while a connection authenticated may have come after its read. */
  readonly heard: number;
}

/** Re-checks at once, per process: an `all` (a Redis reconnection) concerns every connection, and requests need the pool too. */
export const RECHECKS_AT_ONCE = 4;
/** setTimeout's longest wait; a later expiry is waited for in steps. */
const TIMER_MAX_MS = 2_147_483_647;
/** Asked again this often past its expiry while it still authenticates: a timer may fire early, the database's clock lag. */
const EXPIRY_RETRY_MS = 1_000;

const recordKey = (kind: string, id: string) => `${kind}\0${id}`;

interface Watching {
  readonly keys: readonly string[];
  expiry?: NodeJS.Timeout;
}

/** `recheck` asks a connection's credentials again (and closes it once refused); it runs `atOnce` at a time. */
export function credentialWatch<C extends { readonly closed: boolean }>(
  invalidations: Pick<InvalidationBus, 'subscribe'>,
  recheck: (connection: C) => Promise<void>,
  atOnce = RECHECKS_AT_ONCE,
): CredentialWatch<C> {
  const byRecord = new Map<string, Set<C>>();
  const watching = new Map<C, Watching>();
  const rechecks = boundedConcurrency(() => atOnce);
  // Asked again and not yet begun: a second change meanwhile needs no second read.
  const queued = new Set<C>();
  let heard = 0;

  invalidations.subscribe((invalidation) => {
    heard += 1;
    const concerned = invalidation.kind === 'all' ? watching.keys() : byRecord.get(recordKey(invalidation.kind, invalidation.id));
    for (const connection of [...(concerned ?? [])]) askAgain(connection);
  });

  function askAgain(connection: C): void {
    if (queued.has(connection)) return;
    queued.add(connection);
    void rechecks(async () => {
      if (!queued.delete(connection) || connection.closed) return;
      await recheck(connection);
    });
  }

  function armExpiry(connection: C, entry: Watching, expiresAt: number): void {
    const wait = Math.max(0, expiresAt - Date.now());
    entry.expiry = setTimeout(() => {
      if (wait > TIMER_MAX_MS) return armExpiry(connection, entry, expiresAt);
      askAgain(connection);
      armExpiry(connection, entry, Date.now() + EXPIRY_RETRY_MS);
    }, Math.min(wait, TIMER_MAX_MS));
    entry.expiry.unref();
  }

  return {
    watch(connection, principal, expiresAt) {
      const keys = principal.credentialRecords.flatMap((records) => Object.entries(records).flatMap(([kind, id]) => (id == null ? [] : [recordKey(kind, id)])));
      const entry: Watching = { keys };
      watching.set(connection, entry);
      for (const key of keys) {
        let connections = byRecord.get(key);
        if (connections === undefined) byRecord.set(key, (connections = new Set()));
        connections.add(connection);
      }
      if (Number.isFinite(expiresAt)) armExpiry(connection, entry, expiresAt);
    },
    unwatch(connection) {
      queued.delete(connection);
      const entry = watching.get(connection);
      if (entry === undefined) return;
      watching.delete(connection);
      clearTimeout(entry.expiry);
      for (const key of entry.keys) {
        const connections = byRecord.get(key);
        connections?.delete(connection);
        if (connections?.size === 0) byRecord.delete(key);
      }
    },
    askAgain,
    get heard() {
      return heard;
    },
  };
}
