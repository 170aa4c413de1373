/**
 * `node bench/compare.ts <other checkout>`: this build against another (a checkout of an earlier commit, sharing
 * node_modules), both running at once as one service process each on a database of its own, loaded in turn on the
 * bare route, the permission check and the session validation (BENCH_ROUNDS rounds of BENCH_DURATION seconds per route
 * and build, the order of the builds alternating). On a shared machine req/s moves with the other load; the CPU time
 * per request of each build, measured in the same minutes, is what compares. See docs/bench.md.
 */
import autocannon from 'autocannon';
import { createTestDatabase, type TestDatabase } from '../test/support/database.ts';
import { permissionCheckRequest } from './checks.ts';
import type { BenchRequest } from './client-credentials.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';
import { sessionValidateRequest } from './sessions.ts';

process.env['TEST_DATABASE_URL'] ||= 'postgres://postgres@127.0.0.1:5432/test';
process.env['REDIS_URL'] ||= 'redis://127.0.0.1:6379';

const other = process.argv[2];
if (other === undefined) throw new Error('usage: node bench/compare.ts <path of the other checkout>');
const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 4);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = 10;
const ROUTES = ['bare', 'check', 'validate'] as const;

interface Build {
  readonly name: string;
  readonly database: TestDatabase;
  readonly service: ServiceProcess;
  readonly requests: Record<(typeof ROUTES)[number], BenchRequest>;
  /** Per route: summed req/s and CPU ms per request over the rounds. */
  readonly sums: Map<string, { rps: number; cpuMs: number }>;
}

async function load(service: ServiceProcess, request: BenchRequest, duration: number): Promise<{ rps: number; cpuMs: number }> {
  const before = await service.cpuMs();
  const { path, ...rest } = request;
  const result = await autocannon({ url: `${service.baseUrl}${path}`, ...rest, connections: CONNECTIONS, duration });
  if (result.non2xx + result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuMs: ((await service.cpuMs()) - before) / Math.max(1, result.requests.total) };
}

/** The other checkout's own service-process.ts starts it from its own directory. */
const { startServiceProcess: startOther } = (await import(`${other}/bench/service-process.ts`)) as { startServiceProcess: typeof startServiceProcess };

async function start(name: string, starter: typeof startServiceProcess): Promise<Build> {
  const database = await createTestDatabase();
  const service = await starter(database.databaseUrl!, 1);
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const created = await fetch(`${service.baseUrl}/api/v1/users`, { method: 'POST', headers, body: JSON.stringify({ email: 'compare@example.com' }) });
  if (created.status !== 201) throw new Error(`${name}: creating a user: ${created.status}`);
  const requests = { bare: { path: '/healthz' }, check: await permissionCheckRequest(service), validate: await sessionValidateRequest(service) };
  // Unmeasured: compiled code and warm caches before the first measured round.
  for (const route of ROUTES) await load(service, requests[route], 3);
  return { name, database, service, requests, sums: new Map() };
}

const builds = [await start('other', startOther), await start('this', startServiceProcess)];
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const route of ROUTES) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        const figures = await load(build.service, build.requests[route], DURATION_S);
        const sum = build.sums.get(route) ?? { rps: 0, cpuMs: 0 };
        build.sums.set(route, { rps: sum.rps + figures.rps, cpuMs: sum.cpuMs + figures.cpuMs });
      }
    }
  }
  console.log('build  route        req/s  CPU ms/request  req/s of bare  bare CPU / CPU');
  for (const build of builds) {
    const bare = build.sums.get('bare')!;
    for (const route of ROUTES) {
      const { rps, cpuMs } = build.sums.get(route)!;
      const cells = [build.name.padEnd(5), route.padEnd(8), (rps / ROUNDS).toFixed(0).padStart(9), (cpuMs / ROUNDS).toFixed(3).padStart(15)];
      console.log(`${cells.join('  ')}  ${`${((100 * rps) / bare.rps).toFixed(0)}%`.padStart(13)}  ${`${((100 * bare.cpuMs) / cpuMs).toFixed(0)}%`.padStart(14)}`);
    }
  }
} finally {
  for (const build of builds) {
    await build.service.stop();
    await build.database.drop();
  }
}
