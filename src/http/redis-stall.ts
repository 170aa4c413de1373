import type { Redis } from 'ioredis';

const TIMED_OUT = 'Command timed out';

/** ioredis keeps a connection that stopped answering without closing as ready: every command would wait out the timeout. */
export function reconnectIfStalled(redis: Redis, error: unknown): void {
  if (error instanceof Error && error.message === TIMED_OUT && redis.status === 'ready') redis.disconnect(true);
}
