/**
 * The cost of observability (issue 25): the users page and the client-credentials grant with tracing exporting every
 * request to a local OTLP/HTTP receiver and /metrics scraped every second, beside the same service with neither (the
 * metrics are still counted: prom-client's counters cannot be turned off, so "off" means unscraped). One process each,
 * one after the other, in the same run; target: under 10% apart. See docs/bench.md, "Observability".
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

async function measure(deps: ObservabilityDeps, env: Record<string, string>, scrape: boolean): Promise<Figures[]> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
  const service = await startServiceProcess(database.databaseUrl, 1, env);
  const scraper = scrape ? setInterval(() => void fetch(`${service.baseUrl}/metrics`).then((answer) => answer.text()), 1000) : undefined;
  try {
    const target = await deps.seed(service);
    return [
      await deps.warmThenLoad(service, target.label, { path: target.path, headers: { 'x-api-key': service.apiKey } }),
      await deps.warmThenLoad(service, 'POST /oauth2/token (client credentials)', await clientCredentialsRequest(service)),
    ];
  } finally {
    clearInterval(scraper);
    await service.stop();
    await database.drop();
  }
}

const describe = (figures: Figures) => `${figures.rps.toFixed(0)}/s, p99 ${figures.p99} ms, ${figures.cpuMsPerRequest.toFixed(2)} CPU ms/request`;
/** How much more CPU a request takes: unlike req/s, barely moved by other load on the machine. */
const costlier = (base: Figures, other: Figures) => `${((100 * (other.cpuMsPerRequest - base.cpuMsPerRequest)) / base.cpuMsPerRequest).toFixed(0)}% CPU`;

/** The report's lines: each route off, traced (every request, then one in ten), and how far apart. */
export async function observabilityCost(deps: ObservabilityDeps): Promise<string[]> {
  const receiver = await startReceiver();
  try {
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gatehouse-bench' };
    const off = await measure(deps, {}, false);
    const on = await measure(deps, traced, true);
    const sampled = await measure(deps, { ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }, true);
    const lines = ['', 'Observability: tracing exporting to a local OTLP receiver and /metrics scraped each second, beside both off (1 process); target < 10% apart'];
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
    await receiver.close();
  }
}
