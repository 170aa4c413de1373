import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort, spawnService, takenPort, type SpawnedService } from '../support/spawned-service.ts';

/**
 * One serving process (`node src/main.ts`) under the signals and failures an operator meets: a request that never
 * finishes does not hold a shutdown past SHUTDOWN_TIMEOUT_MS, a second signal exits at once, and a port it cannot
 * listen on is one log line and exit 1, with the database closed.
 */
let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => database?.drop());

const databaseEnv = (): Record<string, string> => (database.databaseUrl === undefined ? { GATEHOUSE_DATA_DIR: database.dataDir } : { DATABASE_URL: database.databaseUrl });

async function started(env: Record<string, string> = {}): Promise<{ service: SpawnedService; port: number }> {
  const port = await freePort();
  const service = spawnService({ ...databaseEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', REDIS_URL: '', ...env });
  await service.ready;
  return { service, port };
}

/** A request whose body never arrives in full: in flight until the server gives up on it. */
function stalledRequest(port: number): void {
  const stalled = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/users', headers: { 'content-type': 'application/json', 'content-length': '100' } });
  stalled.on('error', () => undefined);
  stalled.write('{"email":');
}

const logLines = (service: SpawnedService) =>
  service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });

const settledWithin = (exited: SpawnedService['exited'], ms: number) =>
  Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms))]);

describe('a signalled process', () => {
  it('waits for a request in flight, but no longer than SHUTDOWN_TIMEOUT_MS: then it exits 1', async () => {
    const { service, port } = await started({ SHUTDOWN_TIMEOUT_MS: '1500' });
    stalledRequest(port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    service.child.kill('SIGTERM');
    expect(await settledWithin(service.exited, 500)).toBe('running');
    expect(await service.exited).toBe(1);
    expect(logLines(service).map((line) => line.msg)).toContain('shutdown did not finish in time: exiting with requests in flight');
  });

  it('takes the same signal twice at once as one (a relay: npm start, the process group), not as an insistence', async () => {
    const { service, port } = await started({ SHUTDOWN_TIMEOUT_MS: '1500' });
    stalledRequest(port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    service.child.kill('SIGINT');
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(1);
    const messages = logLines(service).map((line) => line.msg);
    expect(messages).toContain('shutdown did not finish in time: exiting with requests in flight');
    expect(messages).not.toContain('second signal: exiting without waiting for in-flight requests');
  });

  it('exits 1 at once on a second signal a moment later', async () => {
    const { service, port } = await started();
    stalledRequest(port);
    await new Promise((resolve) => setTimeout(resolve, 200));
    service.child.kill('SIGTERM');
    expect(await settledWithin(service.exited, 1200)).toBe('running');
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(1);
    expect(logLines(service).map((line) => line.msg)).toContain('second signal: exiting without waiting for in-flight requests');
  });
});

describe('a port it cannot listen on', () => {
  it('is one fatal log line and exit 1, with no stack trace on stderr', async () => {
    const { port, release } = await takenPort();
    try {
      const service = spawnService({ ...databaseEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', REDIS_URL: '' });
      expect(await service.exited).toBe(1);
      expect(logLines(service)).toContainEqual(expect.objectContaining({ level: 60, msg: 'cannot listen', port }));
      expect(service.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await release();
    }
  });
});
