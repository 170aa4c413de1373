import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startGatehouse, type Gatehouse } from '../../src/app.ts';
import type { TestApp } from './app.ts';

/** A second instance needs the same PostgreSQL (the embedded database has one owner) and Redis to hear the first. */
export const TWO_INSTANCES = Boolean(process.env['TEST_DATABASE_URL'] && process.env['REDIS_URL']);

/** The second instance's Redis (a RedisLink in front of the first's, read when it starts) and where its log goes. */
export interface InstanceOptions {
  redisUrl?: () => string;
  logStream?: { write(line: string): void };
}

/**
 * Another instance of the service on the test app's configuration (its database and Redis), started before the
 * enclosing describe's tests and closed after them: for the caches each instance keeps and Redis invalidates.
 * `app` is read when the instance starts, after the file's own beforeAll has made it.
 */
export function secondInstance(app: () => TestApp, options: InstanceOptions = {}): { url: () => string } {
  let second: Gatehouse | undefined;
  let url: string | undefined;
  beforeAll(async () => {
    const config = { ...app().gatehouse.services.config, ...(options.redisUrl === undefined ? {} : { redisUrl: options.redisUrl() }) };
    second = await startGatehouse(options.logStream === undefined ? config : { ...config, logLevel: 'info' }, { logger: options.logStream ?? false });
    await second.server.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(second.server.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => second?.close());
  return {
    url: () => {
      if (url === undefined) throw new Error('the second instance has not started');
      return url;
    },
  };
}

/**
 * `read`'s answer once `done` holds, asked again every 100 ms for up to 5 s (another instance hears of a change
 * through Redis pub/sub a moment later); else its last answer, for the assertion to show.
 */
export async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let attempt = 1; attempt < 50 && !done(value); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
