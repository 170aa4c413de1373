import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort, root, spawnService, takenPort, type SpawnedService } from '../support/spawned-service.ts';

/**
 * One serving process (`node src/process/main.ts`) under the signals and failures an operator meets: a request that never
 * finishes does not hold a shutdown past SHUTDOWN_TIMEOUT_MS, a second signal exits at once, and a port it cannot
 * listen on, or a database it cannot reach, is one log line and exit 1, with the database closed.
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

const logLines = (service: SpawnedService) =>
  service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; req?: { url?: string } });

/**
 * A request whose body never arrives in full: in flight until the server gives up on it. Resolves once the service
 * has logged it, so that a signal sent next finds it in flight however slowly a loaded machine delivers it.
 */
async function stalledRequest(service: SpawnedService, port: number): Promise<void> {
  const stalled = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/users', headers: { 'content-type': 'application/json', 'content-length': '100' } });
  stalled.on('error', () => undefined);
  stalled.write('{"email":');
  const received = () => logLines(service).some((line) => line.msg === 'incoming request' && line.req?.url === '/api/v1/users');
  while (!received()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * A request whose body is finished only once the service has begun shutting down (SIGTERM sent here): what it was
 * answered, status and body.
 */
async function answeredAcrossShutdown(service: SpawnedService, port: number, path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const inFlight = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    inFlight.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    inFlight.on('error', reject);
  });
  inFlight.write(body.slice(0, 9));
  while (!logLines(service).some((line) => line.msg === 'incoming request' && line.req?.url === path)) await new Promise((resolve) => setTimeout(resolve, 20));
  service.child.kill('SIGTERM');
  while (!logLines(service).some((line) => line.msg === 'shutting down: finishing in-flight requests')) await new Promise((resolve) => setTimeout(resolve, 20));
  inFlight.end(body.slice(9));
  return answered;
}

const settledWithin = (exited: SpawnedService['exited'], ms: number) =>
  Promise.race([exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), ms))]);

describe('a started process', () => {
  it('announces the PUBLIC_URL addresses, not the interfaces it binds (where the sign-in pages answer 421)', async () => {
    const { service, port } = await started();
    // stdout may arrive after the IPC "ready"; the lines of the start all precede the announcement.
    const messages = () => logLines(service).map((line) => line.msg);
    await expect.poll(messages).toContain(`Gatehouse is listening; GraphQL playground at http://localhost:${port}/graphql`);
    expect(messages().filter((message) => message.includes('127.0.0.1'))).toEqual([]);
    service.child.kill('SIGKILL');
    await service.exited;
  });
});

describe('a signalled process', () => {
  it('waits for a request in flight, but no longer than SHUTDOWN_TIMEOUT_MS: then it exits 1', async () => {
    const { service, port } = await started({ SHUTDOWN_TIMEOUT_MS: '1500' });
    await stalledRequest(service, port);
    service.child.kill('SIGTERM');
    expect(await settledWithin(service.exited, 500)).toBe('running');
    expect(await service.exited).toBe(1);
    expect(logLines(service).map((line) => line.msg)).toContain('shutdown did not finish in time: exiting with requests in flight');
  });

  it('takes the same signal twice at once as one (a relay: npm start, the process group), not as an insistence', async () => {
    const { service, port } = await started({ SHUTDOWN_TIMEOUT_MS: '1500' });
    await stalledRequest(service, port);
    service.child.kill('SIGINT');
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(1);
    const messages = logLines(service).map((line) => line.msg);
    expect(messages).toContain('shutdown did not finish in time: exiting with requests in flight');
    expect(messages).not.toContain('second signal: exiting without waiting for in-flight requests');
  });

  it('exits 1 at once on a second signal a moment later', async () => {
    const { service, port } = await started();
    await stalledRequest(service, port);
    service.child.kill('SIGTERM');
    // Well past the second in which a repeat counts as the same signal relayed: a loaded machine may handle the first
    // signal late (the process measures from when it handles it).
    expect(await settledWithin(service.exited, 2500)).toBe('running');
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(1);
    expect(logLines(service).map((line) => line.msg)).toContain('second signal: exiting without waiting for in-flight requests');
  });
});

describe('a database that cannot be reached at start', () => {
  /** DATABASE_URL at a port nothing listens on: the service says why in one JSON line and exits 1, no stack on stderr. */
  async function unreachable(env: Record<string, string>) {
    const service = spawnService({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/gatehouse`, PORT: '0', PUBLIC_URL: 'http://gatehouse.test', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
    expect(await service.exited).toBe(1);
    expect(service.stderr()).toBe('');
    const lines = service.stdout().trim().split('\n');
    for (const line of lines) expect(line).toMatch(/^\{.*\}$/);
    return lines.map((line) => JSON.parse(line) as { level: number; msg: string; reason?: string });
  }

  it('is one log line with the reason, and exit 1', async () => {
    const lines = await unreachable({ REDIS_URL: '' });
    expect(lines).toEqual([expect.objectContaining({ level: 60, reason: expect.stringContaining('ECONNREFUSED'), msg: expect.stringMatching(/^cannot start: /) })]);
  });

  it('with WORKERS, is the same line from the preparing process, the primary saying no worker started, and exit 1', async () => {
    const lines = await unreachable({ WORKERS: '2', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(lines).toEqual([
      expect.objectContaining({ level: 60, reason: expect.stringContaining('ECONNREFUSED'), msg: expect.stringMatching(/^cannot start: /) }),
      expect.objectContaining({ level: 50, msg: 'preparing the database failed: no worker started' }),
    ]);
  });
});

describe('npm start', () => {
  it('is the server itself: a SIGTERM to npm (as a process manager sends it) stops the server, which does not outlive it', async () => {
    const port = await freePort();
    const env = { ...process.env, ...databaseEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', GATEHOUSE_BOOTSTRAP_API_KEY: '' };
    const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: 'ignore' });
    const npmExited = once(npm, 'exit');
    const answers = async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
      } catch {
        return false;
      }
    };
    while (!(await answers())) await new Promise((resolve) => setTimeout(resolve, 100));
    npm.kill('SIGTERM');
    await npmExited;
    // npm waits for its script: with the server still running under a shell that died, it would answer here.
    expect(await answers()).toBe(false);
  }, 120_000);
});

describe('a signalled process with connections that carry no request', () => {
  it('closes them at once (pre-opened and never used, or kept alive after a request) while one in flight finishes: exit 0', async () => {
    // Well above what the shutdown takes here: a connection left open would make it wait this long and exit 1.
    const { service, port } = await started({ SHUTDOWN_TIMEOUT_MS: '20000' });
    // Pre-opened, as load balancers and browsers do: connected, nothing sent.
    const unused = connect({ host: '127.0.0.1', port });
    unused.on('error', () => undefined);
    await once(unused, 'connect');
    const unusedClosed = once(unused, 'close');
    // Kept alive after serving one request.
    const agent = new Agent({ keepAlive: true });
    const served = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/healthz', agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
    expect(served).toBe(200);
    // In flight: its body arrives only once the shutdown has begun. Answered (no credentials: 401), not cut.
    expect((await answeredAcrossShutdown(service, port, '/api/v1/users', '{"email":"in-flight@example.com"}')).status).toBe(401);
    expect(await service.exited).toBe(0);
    await unusedClosed;
    agent.destroy();
    expect(logLines(service).map((line) => line.msg)).not.toContain('shutdown did not finish in time: exiting with requests in flight');
  });
});

describe('a signalled process outside tests', () => {
  it('answers a GraphQL operation in flight (Apollo does not stop itself on the signal first): exit 0', async () => {
    // Apollo listens for signals unless NODE_ENV is test, which vitest sets.
    const apiKey = `ghk_${'k'.repeat(40)}`;
    const { service, port } = await started({ NODE_ENV: 'production', SHUTDOWN_TIMEOUT_MS: '20000', GATEHOUSE_BOOTSTRAP_API_KEY: apiKey });
    const answer = await answeredAcrossShutdown(service, port, '/graphql', '{"query":"{ version }"}', { 'x-api-key': apiKey });
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ data: { version: expect.any(String) } });
    expect(await service.exited).toBe(0);
  });
});

describe('a port it cannot listen on', () => {
  it('is one fatal log line saying what to set, no stack, and exit 1', async () => {
    const { port, release } = await takenPort();
    try {
      const service = spawnService({ ...databaseEnv(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', REDIS_URL: '' });
      expect(await service.exited).toBe(1);
      const reason = `port ${port} is in use: set PORT to a free one`;
      expect(logLines(service)).toEqual([expect.objectContaining({ level: 60, msg: `cannot start: ${reason}`, reason })]);
      expect(logLines(service)[0]).not.toHaveProperty('err');
      expect(service.stderr()).toBe('');
    } finally {
      await release();
    }
  });
});

describe('a first operator the console refuses', () => {
  it('is one fatal log line naming the setting, no stack, and exit 1', async () => {
    const port = await freePort();
    const service = spawnService({
      ...databaseEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      REDIS_URL: '',
      GATEHOUSE_BOOTSTRAP_ADMIN_EMAIL: 'ops@example.com',
      GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: 'short',
    });
    expect(await service.exited).toBe(1);
    const reason = 'GATEHOUSE_BOOTSTRAP_ADMIN_PASSWORD: must be at least 8 characters long';
    expect(logLines(service).filter((line) => line.level >= 50)).toEqual([expect.objectContaining({ level: 60, msg: `cannot start: ${reason}`, reason })]);
    expect(logLines(service).find((line) => line.level === 60)).not.toHaveProperty('err');
    expect(service.stderr()).toBe('');
  });
});
