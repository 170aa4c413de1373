import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort, killRunning, root, spawnService, type SpawnedService } from '../support/spawned-service.ts';

/**
 * A server still starting on the embedded database (PGlite takes seconds to open) owns its data directory already:
 * a second server and a `gatehouse` command started meanwhile never open the directory too (one of each did, and
 * corrupted it, while the lock file was still empty).
 */
let dataDir: string;
/** Every server a test started, stopped after it whatever it came to (one left running would hold the next's directory). */
const spawned: SpawnedService[] = [];
const start = (env: Record<string, string>): SpawnedService => {
  const service = spawnService(env);
  spawned.push(service);
  return service;
};
// Each test's own directory: one that failed midway leaves nothing the next must take over.
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-start-race-'));
});
afterEach(async () => {
  await killRunning(spawned.splice(0));
  await rm(dataDir, { recursive: true, force: true });
});

// Three processes each opening the embedded database, one after the other: seconds apiece on a loaded machine.
const SPAWNING_TEST_MS = 180_000;

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'src/process/cli.ts'), ...args], { env: { ...process.env, DATABASE_URL: '', GATEHOUSE_DATA_DIR: dataDir }, cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const serviceEnv = (port: number) => ({ DATABASE_URL: '', REDIS_URL: '', GATEHOUSE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' });

describe('a data directory whose server is still starting', () => {
  it('is refused to a second server in one line, and a command waits for the first and goes through it', async () => {
    const port = await freePort();
    const starting = start(serviceEnv(port));
    const lockPath = join(dataDir, 'gatehouse.lock');
    for (;;) {
      if (starting.child.exitCode !== null) throw new Error(`the first server exited: ${starting.stderr()}`);
      if (await access(lockPath).then(() => true, () => false)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Named from its first byte: never an empty file another process could take for nobody's.
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: starting.child.pid });

    const second = start(serviceEnv(await freePort()));
    const command = runCli(['bootstrap', '--json']);
    expect(await Promise.race([second.exited, second.ready.then(() => 'listening on the same directory')])).toBe(1);
    expect(second.stderr()).toMatch(new RegExp(`^gatehouse: the embedded database in ${dataDir} is in use by process ${starting.child.pid} \\([^\\n]+\\)\\n$`));

    const bootstrapped = await command;
    expect(bootstrapped.code, bootstrapped.stderr).toBe(0);
    expect(bootstrapped.stderr).toMatch(new RegExp(`^(gatehouse: waiting for process ${starting.child.pid}, which holds the embedded database in ${dataDir}\\n)?$`));
    const created = JSON.parse(bootstrapped.stdout) as { applicationId: string; apiKey: string };

    await starting.ready;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/applications`, { headers: { 'x-api-key': created.apiKey } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { id: string }[] }).data.map((application) => application.id)).toEqual([created.applicationId]);
    expect(starting.child.exitCode).toBeNull();

    starting.child.kill('SIGTERM');
    expect(await starting.exited).toBe(0);
    await expect(access(lockPath)).rejects.toThrow();
  }, SPAWNING_TEST_MS);

  it('is taken over once its server is gone without releasing it (kill -9)', async () => {
    const port = await freePort();
    const crashed = start(serviceEnv(port));
    await crashed.ready;
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    expect(JSON.parse(await readFile(join(dataDir, 'gatehouse.lock'), 'utf8'))).toMatchObject({ pid: crashed.child.pid, url: expect.any(String) });
    const after = await runCli(['rotate-signing-key', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toBe('');
  }, SPAWNING_TEST_MS);
});
