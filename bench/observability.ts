/**
 * The cost of observability (issue 25): the users page and the client-credentials grant with tracing exporting every
 * request to a local OTLP/HTTP receiver and /metrics scraped every second, beside the same service with neither (the
 * metrics are still counted: prom-client's counters cannot be turned off, so "off" means unscraped), and with one trace
 * in ten sampled. One process each, all loaded at the same time; target: under 10% apart. See docs/bench.md,
 * "Observability".
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase } from '../test/support/database.ts';
import { clientCredentialsRequest, type BenchRequest } from './client-credentials.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

interface Figures {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMsPerRequest: number;
}

export interface ObservabilityDeps {
  seed(service: ServiceProcess): Promise<{ label: string; path: string }>;
  warmThenLoad(service: ServiceProcess, label: string, request: BenchRequest): Promise<Figures>;
}

/** An OTLP/HTTP receiver that takes every export and keeps only their count. */
async function startReceiver(): Promise<{ url: string; exports: () => number; close: () => Promise<void> }> {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Running {
  readonly service: ServiceProcess;
  stop(): Promise<void>;
}

async function start(env: Record<string, string>, scrape: boolean): Promise<Running> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
  const service = await startServiceProcess(database.databaseUrl, 1, env);
  const scraper = scrape ? setInterval(() => void fetch(`${service.baseUrl}/metrics`).then((answer) => answer.text()), 1000) : undefined;
  return {
    service,
    async stop() {
      clearInterval(scraper);
      await service.stop();
      await database.drop();
    },
  };
}

/**
 * Each route on every configuration at once: on a shared machine, load from others changes the CPU a request takes
 * (caches, frequency), and loading them one after the other let that load differ between them.
 */
async function measure(deps: ObservabilityDeps, configurations: readonly Running[]): Promise<Figures[][]> {
  const targets: { service: ServiceProcess; label: string; users: BenchRequest; grant: BenchRequest }[] = [];
  for (const { service } of configurations) {
    const { label, path } = await deps.seed(service);
    targets.push({ service, label, users: { path, headers: { 'x-api-key': service.apiKey } }, grant: await clientCredentialsRequest(service) });
  }
  const users = await Promise.all(targets.map((target) => deps.warmThenLoad(target.service, target.label, target.users)));
  const grants = await Promise.all(targets.map((target) => deps.warmThenLoad(target.service, 'POST /oauth2/token (client credentials)', target.grant)));
  return users.map((figures, i) => [figures, ...grants.slice(i, i + 1)]);
}

const describe = (figures: Figures) => `${figures.rps.toFixed(0)}/s, p99 ${figures.p99} ms, ${figures.cpuMsPerRequest.toFixed(2)} CPU ms/request`;
/** How much more CPU a request takes: unlike req/s, barely moved by other load on the machine. */
const costlier = (base: Figures, other: Figures) => `${((100 * (other.cpuMsPerRequest - base.cpuMsPerRequest)) / base.cpuMsPerRequest).toFixed(0)}% CPU`;

/** The report's lines: each route off, traced (every request, then one in ten), and how far apart. */
export async function observabilityCost(deps: ObservabilityDeps): Promise<string[]> {
  const receiver = await startReceiver();
  const running: Running[] = [];
  try {
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gatehouse-bench' };
    running.push(await start({}, false));
    running.push(await start(traced, true));
    running.push(await start({ ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, true));
    const [off = [], on = [], sampled = []] = await measure(deps, running);
    const lines = [
      '',
      'Observability: tracing (every request, the default sampler; then one in ten) exporting to a local OTLP receiver and /metrics scraped each second, ' +
        'beside both off (1 process each, loaded at the same time); target < 10% apart',
    ];
    off.forEach((quiet, i) => {
      const all = on[i];
      const tenth = sampled[i];
      if (all === undefined || tenth === undefined) return;
      lines.push(
        `${quiet.label}: off ${describe(quiet)}; every request traced ${describe(all)} (+${costlier(quiet, all)}); ` +
          `one in ten ${describe(tenth)} (+${costlier(quiet, tenth)})`,
      );
    });
    lines.push(`OTLP exports received: ${receiver.exports()}`);
    return lines;
  } finally {
    for (const configuration of running) await configuration.stop();
    await receiver.close();
  }
}
