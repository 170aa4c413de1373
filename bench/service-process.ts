import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Gatehouse running as `npm start` does, in its own process, so the load generator does not share its event loop. */
export interface ServiceProcess {
  readonly baseUrl: string;
  /** The bootstrap `app_admin` key. */
  readonly apiKey: string;
  /** Resident and peak resident memory of the service process, in bytes (Linux /proc). */
  memory(): Promise<{ rss: number; peak: number }>;
  /** CPU time the service process has used so far, all threads, user and system, in milliseconds. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('..', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

async function procCpuMs(pid: number): Promise<number> {
  // The fields after the parenthesized command name; utime and stime are fields 14 and 15 of the whole line.
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

async function procStatusBytes(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (kilobytes === undefined) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(kilobytes) * 1024;
}

export async function startServiceProcess(databaseUrl: string): Promise<ServiceProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const apiKey = `ghk_bench_${randomBytes(24).toString('base64url')}`;
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      // The OP's redirects and cookies name the address the bench reaches.
      PUBLIC_URL: baseUrl,
      GATEHOUSE_BOOTSTRAP_API_KEY: apiKey,
      // The bench measures the service, not a log pipe, nor the limiter refusing the load it generates.
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      SIGN_IN_RATE_LIMIT_MAX: '1000000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the service process did not start');
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  // Ready once the bootstrap (after listen, on the empty database) has made the key.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error('the service process exited during startup');
    if (Date.now() > deadline) throw new Error('the service did not become ready within 60 s');
    const status = await fetch(`${baseUrl}/api/v1/applications`, { headers: { 'x-api-key': apiKey } }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    baseUrl,
    apiKey,
    async memory() {
      return { rss: await procStatusBytes(pid, 'VmRSS'), peak: await procStatusBytes(pid, 'VmHWM') };
    },
    cpuMs: () => procCpuMs(pid),
    async stop() {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}
