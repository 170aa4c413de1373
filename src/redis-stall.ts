import type { Redis } from 'ioredis';

/** ioredis's rejection of a command that had no answer within `commandTimeout`. */
const TIMED_OUT = 'Command timed out';

/**
 * After a command had no answer within `commandTimeout` on a connection ioredis still takes for ready, replaces that
 * connection: one that stopped answering without closing (a partition, a frozen server) would otherwise make every
 * command wait out the timeout, and never end in the `ready` that says Redis is back. Until a new connection is ready
 * the client's commands fail at once (no offline queue); while Redis still does not answer, its ready check times out
 * and ioredis tries again.
 */
export function reconnectIfStalled(redis: Redis, error: unknown): void {
  if (error instanceof Error && error.message === TIMED_OUT && redis.status === 'ready') redis.disconnect(true);
}
