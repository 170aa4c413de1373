import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isCpuProfileAnswer, type CpuProfileAnswer, type CpuProfileQuestion } from './cpu-profile.ts';
import type { CpuShares } from './cpu-shares.ts';
import { isLoopDelayAnswer, type LoopDelay, type LoopDelayAnswer, type LoopDelayQuestion } from './loop-delay.ts';

/** Resident and peak resident memory of one process, in bytes (`VmRSS` and `VmHWM` of Linux /proc). */
export interface ProcessMemory {
  readonly pid: number;
  readonly rss: number;
  readonly peak: number;
}

/**
 * Gatehouse running as `npm start` does, in its own processes, so the load generator does not share their event loops:
 * one process (WORKERS=1), or a cluster primary and its workers. Figures cover the whole process tree.
 */
export interface ServiceProcess {
  readonly baseUrl: string;
  /** The bootstrap `app_admin` key. */
  readonly apiKey: string;
  /** Memory of each process: the one process, or the primary first and then its workers. */
  memory(): Promise<ProcessMemory[]>;
  /** CPU time the service's processes have used so far, all threads, user and system, in milliseconds. */
  cpuMs(): Promise<number>;
  /**
   * The worst event-loop delay in the service's processes since the last call (or the start), in milliseconds,
   * measured inside them (bench/loop-delay.ts); the next call counts from now.
   */
  loopDelayMs(): Promise<number>;
  /** As `loopDelayMs`, with the part of the delay the service's own work made (bench/loop-delay.ts). */
  loopDelay(): Promise<LoopDelay>;
  /** Starts V8's sampling profiler on the main thread of a service of one process (bench/cpu-profile.ts). */
  startCpuProfile(): Promise<void>;
  /** Stops it: where the main thread's time went since startCpuProfile. */
  stopCpuProfile(): Promise<CpuShares>;
  stop(): Promise<void>;
}

const REPO = fileURLToPath(new URL('..', import.meta.url));

/**
 * What `npm start` passes to node (its V8 memory flags and the entry), read from package.json so the two cannot differ,
 * with the bench's probes (the event-loop delay, the CPU profile) preloaded before the entry.
 */
async function startArguments(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(`${REPO}package.json`, 'utf8')) as { scripts: { start: string } };
  // `exec`: the shell npm runs the script in becomes node, so npm's signals reach the server.
  const [command, ...args] = manifest.scripts.start.replace(/^exec\s+/, '').split(/\s+/);
  if (command !== 'node') throw new Error(`package.json's start script does not run node: "${manifest.scripts.start}"`);
  const probes = ['loop-delay.ts', 'cpu-profile.ts'].flatMap((probe) => ['--import', fileURLToPath(new URL(probe, import.meta.url))]);
  return [...probes, ...args];
}

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

/** The process and its children (a cluster primary's workers), from /proc. */
async function processTree(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return [pid, ...children.split(' ').filter(Boolean).map(Number)];
}

/** `env` adds to, or overrides, the bench's settings of the service. */
export async function startServiceProcess(databaseUrl: string, workers: number, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const apiKey = `ghk_bench_${randomBytes(24).toString('base64url')}`;
  const child = spawn(process.execPath, await startArguments(), {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      WORKERS: String(workers),
      // The OP's redirects and cookies name the address the bench reaches.
      PUBLIC_URL: baseUrl,
      GATEHOUSE_BOOTSTRAP_API_KEY: apiKey,
      // The bench measures the service, not a log pipe, nor the limiter refusing the load it generates.
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '1000000000',
      SIGN_IN_RATE_LIMIT_MAX: '1000000000',
      // Its connections all send the one key: BENCH_CONNECTIONS above the default cap would measure 429s.
      CONCURRENT_REQUESTS_PER_CREDENTIAL: '1000000',
      // Nor the limits on mails: the outbox run queues hundreds of test mails, the sign-in rows links to few addresses.
      TEST_EMAILS_PER_HOUR: '1000000000',
      MAILS_PER_ADDRESS_PER_HOUR: '1000000000',
      ...env,
    },
    // The IPC channel carries the service's "ready": after the bootstrap made the key, once every worker listens.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the service process did not start');
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message) => message === 'ready' && resolve());
    void exit.then(() => reject(new Error('the service process exited during startup')));
    setTimeout(() => reject(new Error('the service did not become ready within 60 s')), 60_000).unref();
  });

  let questions = 0;
  /** Sends a probe the question made for a fresh id, and resolves with the answer carrying that id. */
  const ask = <Answer>(question: (id: number) => object, isAnswer: (message: unknown, id: number) => message is Answer) =>
    new Promise<Answer>((resolve, reject) => {
      const id = (questions += 1);
      const listen = (message: unknown) => {
        if (!isAnswer(message, id)) return;
        child.off('message', listen);
        resolve(message);
      };
      child.on('message', listen);
      if (exited) reject(new Error('the service process has exited'));
      child.send(question(id));
    });
  const profileQuestion = (action: CpuProfileQuestion['action']) =>
    ask(
      (cpuProfile) => ({ cpuProfile, action }) satisfies CpuProfileQuestion,
      (message, id): message is CpuProfileAnswer => isCpuProfileAnswer(message) && message.cpuProfile === id,
    ).then((answer) => {
      if (answer.error !== undefined) throw new Error(`CPU profile: ${answer.error}`);
      return answer;
    });
  // A closure, not a method: the benches pass `loopDelayMs` around unbound.
  const loopDelay = async (): Promise<LoopDelay> => {
    const { maxMs, ownMs } = await ask(
      (id) => ({ loopDelay: id }) satisfies LoopDelayQuestion,
      (message, id): message is LoopDelayAnswer => isLoopDelayAnswer(message) && message.loopDelay === id,
    );
    return { maxMs, ownMs };
  };
  return {
    baseUrl,
    apiKey,
    async memory() {
      const pids = await processTree(pid);
      return Promise.all(pids.map(async (p) => ({ pid: p, rss: await procStatusBytes(p, 'VmRSS'), peak: await procStatusBytes(p, 'VmHWM') })));
    },
    async cpuMs() {
      const each = await Promise.all((await processTree(pid)).map(procCpuMs));
      return each.reduce((sum, ms) => sum + ms, 0);
    },
    async loopDelayMs() {
      return (await loopDelay()).maxMs;
    },
    loopDelay,
    async startCpuProfile() {
      await profileQuestion('start');
    },
    async stopCpuProfile() {
      const { shares } = await profileQuestion('stop');
      if (shares === undefined) throw new Error('CPU profile: no shares in the answer');
      return shares;
    },
    async stop() {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}
