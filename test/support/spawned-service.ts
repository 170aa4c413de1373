import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The repository's root, where `node src/process/main.ts` runs as `npm start` runs it. */
export const root = new URL('../../', import.meta.url).pathname;

/**
 * A free local port, for a service whose port must be known before it listens: picked below the kernel's ephemeral
 * range, which outgoing connections and `listen(0)` draw from, so none of the run's thousands takes it before then.
 */
export async function freePort(): Promise<number> {
  const [ephemeralFrom = 32_768] = (await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '')).split(/\s+/).map(Number);
  for (;;) {
    const port = randomInt(10_000, Math.max(ephemeralFrom, 10_001));
    // fetch and Chromium refuse the Fetch standard's "bad ports", of which 10080 is the one in this range.
    if (port !== 10_080 && (await bindable(port))) return port;
  }
}

async function bindable(port: number): Promise<boolean> {
  const probe = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise((resolve) => probe.close(resolve));
  return bound;
}

/** A local port something already listens on, until `release`. */
export async function takenPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as AddressInfo;
  return { port, release: () => new Promise((resolve) => taken.close(() => resolve())) };
}

export interface SpawnedService {
  readonly child: ChildProcess;
  /** Everything written so far: the JSON log lines and the bootstrap key go to stdout. */
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Resolves on the service's "ready", rejects if it exits first. */
  readonly ready: Promise<void>;
}

/** Kills (SIGKILL) every service still running and waits for each to exit: what a test leaves, it ends. */
export async function killRunning(services: readonly SpawnedService[]): Promise<void> {
  for (const service of services) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) continue;
    service.child.kill('SIGKILL');
    await service.exited;
  }
}

/**
 * `node src/process/main.ts` in a child process, as an operator starts it, with `env` over this process's environment; the
 * service says "ready" over the IPC channel once it (every worker) listens.
 */
export function spawnService(env: Record<string, string>): SpawnedService {
  const child = spawn(process.execPath, [join(root, 'src/process/main.ts')], {
    cwd: root,
    // The suites send bursts of concurrent requests with one key, as startTestApp lets them (test/support/app.ts).
    env: { ...process.env, GATEHOUSE_BOOTSTRAP_API_KEY: '', CONCURRENT_REQUESTS_PER_CREDENTIAL: '100000', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The exit code, or the signal that ended the process.
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message) => message === 'ready' && resolve());
    void exited.then((code) => reject(new Error(`exited with ${code} before ready: ${stderr}${stdout.trim().split('\n').at(-1) ?? ''}`)));
  });
  ready.catch(() => undefined);
  return { child, stdout: () => stdout, stderr: () => stderr, exited, ready };
}
