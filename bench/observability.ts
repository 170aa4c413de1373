/**
 * The cost of observability (issue 25): the users page and the client-credentials grant with tracing exporting to a
 * local OTLP/HTTP receiver and /metrics scraped every second, beside the same service with neither (the metrics are
 * still counted: prom-client's counters cannot be turned off, so "off" means unscraped). Tracing every request (the
 * default sampler) and one trace in ten. Target: under 10% apart. See docs/bench.md, "Observability".
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '../test/support/database.ts';
import { clientCredentialsRequest, type BenchRequest } from './client-credentials.ts';
import type { CpuShares } from './cpu-shares.ts';
import type { ReceiverCounts } from './otlp-receiver.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

interface Figures {
  readonly p99: number;
  readonly requests: number;
  readonly cpuMsPerRequest: number;
}

export interface ObservabilityDeps {
  seed(service: ServiceProcess): Promise<{ label: string; path: string }>;
  load(service: ServiceProcess, label: string, request: BenchRequest, durationS: number, overallRate?: number): Promise<Figures>;
  readonly warmupS: number;
  /** Processes per configuration (BENCH_OBS_PROCESSES): their sums are its figures. */
  readonly processes: number;
}

/**
 * Rounds of windows, the services loaded one at a time in an order reversed each round: loaded at once they would
 * compete for the cores, and one long window each would see each in another phase of the machine.
 */
const ROUNDS = 5;
const WINDOW_S = 3;

interface Receiver {
  readonly url: string;
  counts(): Promise<ReceiverCounts>;
  stop(): void;
}

async function startReceiver(): Promise<Receiver> {
  const child = fork(fileURLToPath(new URL('otlp-receiver.ts', import.meta.url)), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send({ count: true });
      }),
    stop: () => child.disconnect(),
  };
}

interface Configuration {
  readonly label: string;
  readonly env: Record<string, string>;
  readonly scrape: boolean;
}

interface Running {
  readonly configuration: Configuration;
  readonly service: ServiceProcess;
  stop(): Promise<void>;
}

async function start(configuration: Configuration): Promise<Running> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
  const service = await startServiceProcess(database.databaseUrl, 1, configuration.env);
  const scrape = () => void fetch(`${service.baseUrl}/metrics`).then((answer) => answer.text());
  const scraper = configuration.scrape ? setInterval(scrape, 1000) : undefined;
  return {
    configuration,
    service,
    async stop() {
      clearInterval(scraper);
      await service.stop();
      await database.drop();
    },
  };
}

/**
 * Each service warmed flat out, then its sums over the rounds at one rate for all, half the median of what they served
 * warming up: flat out, a process's CPU per request moves with how many requests each wake-up finds, that is with the
 * load generator on the same cores (windows of one process, one build, 14% apart); paced, within 2%. The median, not the slowest: one
 * process slow to warm would set a rate at which idle work weighs on every request.
 */
async function measure(
  deps: ObservabilityDeps,
  label: string,
  targets: readonly { service: ServiceProcess; request: BenchRequest }[],
): Promise<{ rate: number; each: Figures[]; profiled: Profiled[] }> {
  const served: number[] = [];
  for (const { service, request } of targets) served.push((await deps.load(service, 'warm-up', request, deps.warmupS)).requests / deps.warmupS);
  const sorted = served.toSorted((a, b) => a - b);
  const rate = Math.round(sorted[Math.floor(sorted.length / 2)]! / 2);
  const sums = targets.map(() => ({ p99: 0, requests: 0, cpuMs: 0 }));
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = targets.map((_, i) => i);
    for (const i of round % 2 === 0 ? order : order.reverse()) {
      const target = targets[i]!;
      const figures = await deps.load(target.service, label, target.request, WINDOW_S, rate);
      const sum = sums[i]!;
      sum.p99 = Math.max(sum.p99, figures.p99);
      sum.requests += figures.requests;
      sum.cpuMs += figures.cpuMsPerRequest * figures.requests;
    }
  }
  const each = sums.map(({ p99, requests, cpuMs }) => ({ p99, requests, cpuMsPerRequest: cpuMs / requests }));
  const profiled: Profiled[] = [];
  for (const [i, { service, request }] of targets.entries()) {
    await service.startCpuProfile();
    await deps.load(service, `${label}, profiled`, request, WINDOW_S, rate);
    profiled.push({ shares: await service.stopCpuProfile(), cpuMsPerRequest: each[i]!.cpuMsPerRequest });
  }
  return { rate, each, profiled };
}

/**
 * A last window of each process with its main thread profiled (where that thread's time went), beside the CPU a
 * request took that process in the rounds, all threads counted.
 */
interface Profiled {
  readonly shares: CpuShares;
  readonly cpuMsPerRequest: number;
}

const mean = (values: readonly number[]) => values.reduce((total, one) => total + one, 0) / values.length;

/**
 * One configuration's profiled windows: tracing's code beside the rest of the main thread's busy time (± over the
 * processes), what the processes compared above would differ by if tracing cost nothing else; tracing's and metrics'
 * code in µs a request, their shares of the rounds' CPU a request (at most: that counts every thread); GC's share of
 * the main thread (allocations tracing adds show there, not in its code). Shares of the profile's samples, not of the
 * window's CPU: profiling slows the window's main thread throughout (1.3 to 1.6 times the rounds' CPU a request).
 */
function inProcess(windows: readonly Profiled[]): string {
  const shareOf = (of: (shares: CpuShares) => number) => windows.map(({ shares }) => of(shares) / shares.busyMs);
  const tracing = shareOf((shares) => shares.tracingMs);
  const beside = tracing.map((share) => (100 * share) / (1 - share));
  const us = (shares: readonly number[]) => (1000 * mean(shares.map((share, i) => share * windows[i]!.cpuMsPerRequest))).toFixed(1);
  const gc = 100 * mean(shareOf((shares) => shares.gcMs));
  return (
    `tracing +${mean(beside).toFixed(1)}% ±${standardError(beside).toFixed(1)} (at most ${us(tracing)} µs), ` +
    `metrics at most ${us(shareOf((shares) => shares.metricsMs))} µs, GC ${gc.toFixed(1)}% of the main thread`
  );
}

/**
 * How far a configuration's CPU per request may be off, in percent of it: the standard error of its processes' mean.
 * Identical processes differ persistently (the slower one slower in every window), so the processes, not the windows,
 * are the samples.
 */
const standardErrorPercent = (processes: readonly Figures[]): number => {
  const each = processes.map((one) => one.cpuMsPerRequest);
  return (100 * standardError(each)) / mean(each);
};

/** The standard error of the mean of `samples`. */
function standardError(samples: readonly number[]): number {
  const average = mean(samples);
  const variance = samples.reduce((total, one) => total + (one - average) ** 2, 0) / Math.max(1, samples.length - 1);
  return Math.sqrt(variance / samples.length);
}

/** One configuration's processes as one: their requests and CPU summed, the worst p99. */
const combined = (processes: readonly Figures[]): Figures => {
  const requests = processes.reduce((total, one) => total + one.requests, 0);
  const cpuMs = processes.reduce((total, one) => total + one.cpuMsPerRequest * one.requests, 0);
  return { p99: Math.max(...processes.map((one) => one.p99)), requests, cpuMsPerRequest: cpuMs / requests };
};

const apart = (off: Figures, other: Figures) => {
  const percent = (100 * (other.cpuMsPerRequest - off.cpuMsPerRequest)) / off.cpuMsPerRequest;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
};

const pad = (text: string, width: number) => (width < 0 ? text.padStart(-width) : text.padEnd(width));
const WIDTHS = [42, 38, -8, -13, -15, -14];

/** The report's lines: each route on each configuration, and how much more CPU a request takes than with both off. */
export async function observabilityCost(deps: ObservabilityDeps): Promise<string[]> {
  const receiver = await startReceiver();
  const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gatehouse-bench' };
  const configurations: Configuration[] = [
    { label: 'off', env: {}, scrape: false },
    { label: 'every request traced, metrics scraped', env: traced, scrape: true },
    {
      label: 'one in ten traced, metrics scraped',
      env: { ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
      scrape: true,
    },
  ];
  const running: Running[] = [];
  try {
    // Interleaved, so that each window's neighbours are of other configurations.
    for (let i = 0; i < deps.processes; i += 1) for (const configuration of configurations) running.push(await start(configuration));
    const users: { service: ServiceProcess; request: BenchRequest }[] = [];
    const grants: { service: ServiceProcess; request: BenchRequest }[] = [];
    let usersLabel = '';
    for (const { service } of running) {
      const { label, path } = await deps.seed(service);
      usersLabel = label;
      users.push({ service, request: { path, headers: { 'x-api-key': service.apiKey } } });
      grants.push({ service, request: await clientCredentialsRequest(service) });
    }
    const lines = [
      '',
      `Observability: tracing exporting to a local OTLP/HTTP receiver (its own process), /metrics scraped each second, beside both off; ` +
        `${deps.processes} processes each, loaded in turn, ${ROUNDS} rounds of ${WINDOW_S}-s windows at half the median warm-up rate after ${deps.warmupS} s of ` +
        `warm-up each; target < 10% apart`,
      [pad('route', WIDTHS[0]!), pad('configuration', WIDTHS[1]!), pad('req/s', WIDTHS[2]!), pad('worst p99 ms', WIDTHS[3]!), pad('CPU ms/request', WIDTHS[4]!), pad('vs off', WIDTHS[5]!)].join('  '),
    ];
    for (const [label, targets] of [[usersLabel, users], ['POST /oauth2/token (client credentials)', grants]] as const) {
      const { rate, each, profiled } = await measure(deps, label, targets);
      const processes = configurations.map((configuration) => each.filter((_, i) => running[i]!.configuration === configuration));
      const figures = processes.map(combined);
      const errors = processes.map(standardErrorPercent);
      const off = figures[0]!;
      figures.forEach((those, i) => {
        const uncertainty = `±${Math.hypot(errors[0]!, errors[i]!).toFixed(1)}`;
        const cells = [
          i === 0 ? label : '',
          configurations[i]!.label,
          (those.requests / (deps.processes * ROUNDS * WINDOW_S)).toFixed(0),
          String(those.p99),
          those.cpuMsPerRequest.toFixed(3),
          i === 0 ? '' : `${apart(off, those)} ${uncertainty}`,
        ];
        lines.push(cells.map((cell, column) => pad(cell, WIDTHS[column]!)).join('  '));
      });
      lines.push(`${pad('', WIDTHS[0]!)}  at ${rate} req/s; each process's CPU ms/request:`);
      processes.forEach((those, i) => lines.push(`${pad('', WIDTHS[0]!)}    ${configurations[i]!.label}: ${those.map((one) => one.cpuMsPerRequest.toFixed(3)).join(', ')}`));
      lines.push(`${pad('', WIDTHS[0]!)}  a last window each, the main thread profiled: tracing's code beside the rest of its busy time, code's CPU a request:`);
      for (const configuration of configurations) {
        const windows = profiled.filter((_, i) => running[i]!.configuration === configuration);
        lines.push(`${pad('', WIDTHS[0]!)}    ${configuration.label}: ${inProcess(windows)}`);
      }
    }
    const { exports, bytes } = await receiver.counts();
    lines.push(`OTLP exports received: ${exports} (${(bytes / 1024 / 1024).toFixed(1)} MiB)`);
    return lines;
  } finally {
    for (const each of running) await each.stop();
    receiver.stop();
  }
}
