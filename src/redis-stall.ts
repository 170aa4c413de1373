import type { Redis } from 'ioredis';

/** ioredis's rejection of a command that had no answer within `commandTimeout`. */
const TIMED_OUT = 'Command timed out';

/**
 * Replaces a connection ioredis still takes for ready once a command timed out on it: one that stopped answering
 * without closing (a partition, a frozen server) would make every command wait out the timeout, and never end in `ready`.
 */
export function reconnectIfStalled(redis: Redis, error: unknown): void {
  if (error instanceof Error && error.message === TIMED_OUT && redis.status === 'ready') redis.disconnect(true);
}
