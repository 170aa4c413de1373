/**
 * `npm run bench`: throughput and latency of the service under autocannon, as one process and as a cluster of
 * BENCH_WORKERS workers (child processes either way), password sign-ins, SQL statements per request for tenant pages
 * and their configuration, and the service's memory. Real PostgreSQL and Redis only: TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test) is the server on which it creates, and then drops, its databases; REDIS_URL
 * (default redis://127.0.0.1:6379) is shared by the workers. See docs/bench.md.
 */
import { availableParallelism, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { createTestDatabase } from '../test/support/database.ts';
import { auditBench } from './audit.ts';
import { countCheckStatements, permissionCheckRequest, type CheckStatementCounts } from './checks.ts';
import { clientCredentialsRequest, type BenchRequest } from './client-credentials.ts';
import { countOAuthStatements, type OAuthStatementCounts } from './oauth-statements.ts';
import { outboxBench, outboxReport } from './outbox.ts';
import { countSuspendStatements, sessionValidateRequest, type SuspendStatementCounts } from './sessions.ts';
import { observabilityCost } from './observability.ts';
import { startServiceProcess, type ProcessMemory, type ServiceProcess } from './service-process.ts';
import { magicLinkSignIns } from './magic-links.ts';
import { passkeySignIns } from './passkeys.ts';
import { totpSignIns } from './totp-sign-ins.ts';
import { pairedSignIns, refusalTimings, type BatchFigures, type PairedSignIns, type RefusalFigures } from './sign-ins.ts';
import { countStatements, type StatementCounts } from './statements.ts';

process.env['TEST_DATABASE_URL'] ||= 'postgres://postgres@127.0.0.1:5432/test';
process.env['REDIS_URL'] ||= 'redis://127.0.0.1:6379';

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const DURATION_S = positiveInteger('BENCH_DURATION', 10);
/**
 * Load on each route just before it is measured: V8 takes about 20 s of the grant's load on 2 cores before its
 * rate settles (1,700/s in the first 3 s, about 3,300/s from 20 s on), and a service in use has long been warm.
 */
const WARMUP_S = positiveInteger('BENCH_WARMUP', 20);
const CONNECTIONS = positiveInteger('BENCH_CONNECTIONS', 10);
/** Service processes per configuration of the observability part: identical processes differ by up to a tenth. */
const OBS_PROCESSES = positiveInteger('BENCH_OBS_PROCESSES', 6);
const SIGN_INS = positiveInteger('BENCH_SIGN_INS', 200);
const REFUSALS = positiveInteger('BENCH_REFUSALS', 50);
const WORKERS = positiveInteger('BENCH_WORKERS', 2);
/** The service as one process, then as a cluster of WORKERS workers (WORKERS above 1). */
const SERVICES = [...new Set([1, WORKERS])];
const SEED = 100;
const STATEMENT_SIZES = [1, 10, 100];

interface LoadFigures {
  readonly label: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  readonly failures: number;
  /** The service's own CPU time per request: unlike req/s, barely moved by other load on the machine. */
  readonly cpuMsPerRequest: number;
  /** The worst event-loop delay in the service's processes during the load (bench/loop-delay.ts). */
  readonly loopMaxMs: number;
}

/** `overallRate`: requests a second at most, all connections together (autocannon's); without it, as many as answered. */
async function load(service: ServiceProcess, label: string, request: BenchRequest, duration = DURATION_S, overallRate?: number): Promise<LoadFigures> {
  await service.loopDelayMs();
  const cpuBefore = await service.cpuMs();
  const { path, ...rest } = request;
  const paced = overallRate === undefined ? {} : { overallRate };
  const result = await autocannon({ url: `${service.baseUrl}${path}`, ...rest, connections: CONNECTIONS, duration, ...paced });
  const cpu = (await service.cpuMs()) - cpuBefore;
  const loopMaxMs = await service.loopDelayMs();
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors,
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
    loopMaxMs,
  };
}

/** The route's figures at its steady state: WARMUP_S seconds of the same load first, unmeasured. */
async function warmThenLoad(service: ServiceProcess, label: string, request: BenchRequest): Promise<LoadFigures> {
  await load(service, 'warm-up', request, WARMUP_S);
  return load(service, label, request);
}

/** 100 users through the API; until the users route exists, 100 tenants and their list stand in. */
async function seed(service: ServiceProcess): Promise<{ label: string; path: string }> {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(`${service.baseUrl}/api/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const probe = await post('/users', { email: 'bench-0@example.com' });
  if (probe.status === 201) {
    for (let i = 1; i < SEED; i += 1) {
      const created = await post('/users', { email: `bench-${i}@example.com` });
      if (created.status !== 201) throw new Error(`seeding users: ${created.status} ${await created.text()}`);
    }
    return { label: 'GET /api/v1/users?pageSize=20', path: '/api/v1/users?pageSize=20' };
  }
  process.stderr.write(`POST /users answered ${probe.status}: measuring the tenants list instead\n`);
  const application = (await (await fetch(`${service.baseUrl}/api/v1/applications`, { headers })).json()) as { data: { id: string }[] };
  const appId = application.data[0]?.id;
  for (let i = 0; i < SEED; i += 1) {
    const created = await post(`/applications/${appId}/tenants`, { name: `Bench ${i}` });
    if (created.status !== 201) throw new Error(`seeding tenants: ${created.status} ${await created.text()}`);
  }
  const path = `/api/v1/applications/${appId}/tenants?pageSize=20`;
  return { label: 'GET …/tenants?pageSize=20 (users stand-in)', path };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const row = (cells: (string | number)[], widths: number[]) =>
  cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i] ?? 0) : String(cell).padStart(widths[i] ?? 0))).join('  ');
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;
const dash = (value: number | undefined) => (value === undefined ? 'n/a' : String(value));
const loopMs = (value: number | undefined) => (value === undefined ? 'n/a' : value.toFixed(0));

const serviceLabel = (workers: number) => (workers === 1 ? '1 process' : `${workers} workers`);

interface ServiceRun {
  readonly workers: number;
  readonly figures: LoadFigures[];
  /** The check's and the validation's rates as shares of the bare route's, loaded in alternating windows. */
  readonly alternating: { readonly check: number; readonly validate: number };
  readonly signIns: PairedSignIns;
  readonly magicLinks: BatchFigures;
  readonly totp: BatchFigures;
  readonly passkeys: BatchFigures;
  readonly refusals: RefusalFigures[];
  readonly seeded: ProcessMemory[];
  readonly loaded: ProcessMemory[];
}

/** The autocannon routes, then the hosted sign-ins, against the service as `workers` processes on a database of its own. */
async function throughput(workers: number): Promise<ServiceRun> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
  const service = await startServiceProcess(database.databaseUrl, workers);
  try {
    const target = await seed(service);
    const seeded = await service.memory();
    const healthz: BenchRequest = { path: '/healthz' };
    const users: BenchRequest = { path: target.path, headers: { 'x-api-key': service.apiKey } };
    const grant = await clientCredentialsRequest(service);
    const check = await permissionCheckRequest(service);
    const validate = await sessionValidateRequest(service);
    const figures = [
      await warmThenLoad(service, 'GET /healthz (bare Fastify route)', healthz),
      await warmThenLoad(service, target.label, users),
      await warmThenLoad(service, 'POST /oauth2/token (client credentials)', grant),
      await warmThenLoad(service, 'POST /api/v1/permissions/check (API key)', check),
      await warmThenLoad(service, 'POST /api/v1/sessions/validate (API key)', validate),
    ];
    // Issue 19's latency target is at half the checks' rate.
    const checksRate = figures[3]!.rps;
    figures.push(await load(service, 'POST /api/v1/permissions/check, at half that rate', check, DURATION_S, Math.max(1, Math.round(checksRate / 2))));
    // autocannon abandons its last requests when the time is up; let their handlers finish before going on.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const alternating = await alternatingShares(service, healthz, check, validate);
    return { workers, figures, alternating, ...(await signInRows(service)), seeded, loaded: await service.memory() };
  } finally {
    await service.stop();
    await database.drop();
  }
}

const ALTERNATING_ROUNDS = 3;
const ALTERNATING_WINDOW_S = 3;

/**
 * The check's and the validation's requests as shares of the bare route's, summed over rounds of alternating windows:
 * the bare route's rate moves with the machine's phase far more than theirs, and single windows may see different phases.
 */
async function alternatingShares(service: ServiceProcess, bare: BenchRequest, check: BenchRequest, validate: BenchRequest): Promise<ServiceRun['alternating']> {
  const totals = { bare: 0, check: 0, validate: 0 };
  for (let round = 0; round < ALTERNATING_ROUNDS; round += 1) {
    for (const [route, request] of [['bare', bare], ['check', check], ['validate', validate]] as const) {
      totals[route] += (await load(service, route, request, ALTERNATING_WINDOW_S)).requests;
    }
  }
  return { check: totals.check / totals.bare, validate: totals.validate / totals.bare };
}

/** The hosted sign-in rows: password (beside raw Argon2id), refusals, magic link, then TOTP (its `required` policy last). */
async function signInRows(service: ServiceProcess): Promise<Pick<ServiceRun, 'signIns' | 'refusals' | 'magicLinks' | 'totp' | 'passkeys'>> {
  const signIns = await pairedSignIns(service, SIGN_INS, CONNECTIONS);
  const refusals = await refusalTimings(service, REFUSALS);
  const magicLinks = await magicLinkSignIns(service, SIGN_INS, CONNECTIONS);
  const totp = await totpSignIns(service, SIGN_INS, CONNECTIONS);
  const passkeys = await passkeySignIns(service, SIGN_INS, CONNECTIONS);
  return { signIns, refusals, magicLinks, totp, passkeys };
}

/** BENCH_ONLY=sign-ins: the sign-in rows alone, against a service seeded with nothing else. */
async function signInsOnly(): Promise<void> {
  const out = [`Gatehouse sign-in bench: ${availableParallelism()} CPUs, load average before the run ${LOAD_BEFORE}`];
  for (const workers of SERVICES) {
    const database = await createTestDatabase();
    if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
    const service = await startServiceProcess(database.databaseUrl, workers);
    try {
      out.push('', ...signInReport([{ workers, ...(await signInRows(service)) }]));
    } finally {
      await service.stop();
      await database.drop();
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/**
 * The users page of a single process whose read cache is off (READ_CACHE_MS=0): every request reads its page from
 * PostgreSQL and runs the operation, as a question asked for the first time does, or one asked after its users changed.
 */
async function usersUncached(): Promise<LoadFigures> {
  const database = await createTestDatabase();
  if (database.databaseUrl === undefined) throw new Error('the bench needs a PostgreSQL server');
  const service = await startServiceProcess(database.databaseUrl, 1, { READ_CACHE_MS: '0' });
  try {
    const target = await seed(service);
    const users: BenchRequest = { path: target.path, headers: { 'x-api-key': service.apiKey } };
    return await warmThenLoad(service, `${target.label}, read cache off`, users);
  } finally {
    await service.stop();
    await database.drop();
  }
}

const sum = (memory: ProcessMemory[], field: 'rss' | 'peak') => memory.reduce((total, process) => total + process[field], 0);

/** The sign-in rows' report: password, magic link and TOTP sign-ins beside raw Argon2id, then the refusals. */
function signInReport(runs: readonly Pick<ServiceRun, 'workers' | 'signIns' | 'refusals' | 'magicLinks' | 'totp' | 'passkeys'>[]): string[] {
  const out: string[] = [];
  out.push(`Sign-ins: ${SIGN_INS} of each, ${CONNECTIONS} at a time, the hosted ones after as many untimed (rate over the batch; latency of each)`);
  const signInWidths = [55, 9, 8, 8, 9, 8, 14, 12];
  out.push(row(['', 'per s', 'p50 ms', 'p99 ms', 'count', 'failed', 'CPU ms/each', 'loop max ms'], signInWidths));
  const signInRow = (f: BatchFigures, label = f.label) =>
    row([label, f.perSecond.toFixed(1), f.p50, f.p99, f.count, f.failures, f.cpuMs === undefined ? 'n/a' : f.cpuMs.toFixed(1), loopMs(f.loopMaxMs)], signInWidths);
  for (const { workers, signIns, magicLinks, totp, passkeys } of runs) {
    out.push(signInRow(signIns.raw, `${signIns.raw.label}, beside ${serviceLabel(workers)}`));
    out.push(signInRow(signIns.hosted, `${signIns.hosted.label}, ${serviceLabel(workers)}`));
    out.push(signInRow(magicLinks, `${magicLinks.label}, ${serviceLabel(workers)}`));
    out.push(signInRow(totp, `${totp.label}, ${serviceLabel(workers)}`));
    out.push(signInRow(passkeys, `${passkeys.label}, ${serviceLabel(workers)}`));
  }
  const ratios = runs.map(({ workers, signIns }) => `${serviceLabel(workers)} ${percent(signIns.hosted.perSecond, signIns.raw.perSecond)}`);
  out.push(`hosted sign-ins / raw Argon2id: ${ratios.join(', ')}; target ≥ 70%`);

  out.push('', `Refused sign-ins: ${REFUSALS} of each kind, one at a time, taking turns; lockout policy on`);
  const refusalWidths = [55, 9, 8, 8, 9, 12];
  out.push(row(['', 'p50 ms', 'p99 ms', 'count', 'non-400', 'loop max ms'], refusalWidths));
  for (const { workers, refusals } of runs) {
    for (const f of refusals) out.push(row([`${f.label}, ${serviceLabel(workers)}`, f.p50, f.p99, f.count, f.failures, loopMs(f.loopMaxMs)], refusalWidths));
  }
  const refusalRatios = runs.map(({ workers, refusals: [unknown, wrong] }) =>
    unknown === undefined || wrong === undefined ? '' : `${serviceLabel(workers)} ${percent(unknown.p50, wrong.p50)}`,
  );
  out.push(`unknown e-mail / wrong password, p50: ${refusalRatios.join(', ')} (the closer to 100%, the less the time tells)`);
  return out;
}

function report(
  runs: ServiceRun[],
  uncached: LoadFigures,
  statements: StatementCounts[],
  oauth: OAuthStatementCounts,
  checks: CheckStatementCounts,
  suspends: SuspendStatementCounts,
) {
  const out: string[] = [];
  const database = new URL(process.env['TEST_DATABASE_URL'] ?? '');
  const redis = new URL(process.env['REDIS_URL'] ?? '');
  out.push(
    '',
    `Gatehouse bench: PostgreSQL at ${database.host}, Redis at ${redis.host}, Node ${process.version}, ${availableParallelism()} CPUs shared by service and load generator`,
    `service: ${SERVICES.map((workers) => (workers === 1 ? '1 process' : `WORKERS=${workers} (a cluster primary and ${workers} workers)`)).join(', then ')}; ` +
      `autocannon: ${CONNECTIONS} connections × ${DURATION_S} s per route, after ${WARMUP_S} s of warm-up; load average before the run ${LOAD_BEFORE}`,
    '',
  );
  const loadWidths = [60, 10, 9, 8, 8, 9, 8, 14, 12];
  const loadRow = (f: LoadFigures, workers: number) =>
    row([f.label, serviceLabel(workers), f.rps.toFixed(0), f.p50, f.p99, f.requests, f.failures, f.cpuMsPerRequest.toFixed(2), loopMs(f.loopMaxMs)], loadWidths);
  out.push(row(['route', 'service', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'CPU ms/request', 'loop max ms'], loadWidths));
  // Each route's rows side by side: one process, then the cluster.
  for (let i = 0; i < (runs[0]?.figures.length ?? 0); i += 1) {
    for (const run of runs) {
      const f = run.figures[i];
      if (f !== undefined) out.push(loadRow(f, run.workers));
    }
    if (i === 1) out.push(loadRow(uncached, 1));
  }
  const grants = runs.map(({ workers, figures: [bare, , grant] }) =>
    bare === undefined || grant === undefined ? '' : `${serviceLabel(workers)} ${grant.rps.toFixed(0)}/s (${percent(grant.rps, bare.rps)} of its bare route)`,
  );
  const pages = runs.map(({ workers, figures: [, users] }) => (users === undefined ? '' : `${serviceLabel(workers)} ${users.rps.toFixed(0)}/s`));
  out.push(`users pages: ${pages.join(', ')} (read cache off, 1 process: ${uncached.rps.toFixed(0)}/s); target ≥ 5000/s`);
  out.push(`client-credentials grants: ${grants.join(', ')}; target ≥ 3000/s`);
  const alternatingWindows = `in ${ALTERNATING_ROUNDS} rounds of alternating ${ALTERNATING_WINDOW_S}-s windows`;
  const checkRates = runs.map(({ workers, figures: [bare, , , check], alternating }) =>
    bare === undefined || check === undefined
      ? ''
      : `${serviceLabel(workers)} ${check.rps.toFixed(0)}/s (${percent(check.rps, bare.rps)} of its bare route; ${percent(alternating.check, 1)} ${alternatingWindows})`,
  );
  out.push(`permission checks: ${checkRates.join(', ')}; target ≥ 40% of the bare route`);
  const halfRateLatencies = runs.map(({ workers, figures: [, , , , , half] }) => (half === undefined ? '' : `${serviceLabel(workers)} p99 ${half.p99} ms`));
  out.push(`permission checks at half that rate: ${halfRateLatencies.join(', ')}; target p99 < 10 ms`);
  const validateRates = runs.map(({ workers, figures: [bare, , , , validate], alternating }) =>
    bare === undefined || validate === undefined
      ? ''
      : `${serviceLabel(workers)} ${validate.rps.toFixed(0)}/s (${percent(validate.rps, bare.rps)} of its bare route; ${percent(alternating.validate, 1)} ${alternatingWindows})`,
  );
  out.push(`session validations: ${validateRates.join(', ')}; target ≥ 40% of the bare route`);

  out.push('', ...signInReport(runs));

  out.push('', `SQL statements (in process, onQuery hook): client-credentials grant ${oauth.grant}, hosted sign-in (login POST → code) ${oauth.signIn}`);
  out.push(
    `SQL statements of checks: bulk-check of 100 subjects ${checks.bulkCold} cold (target ≤ 3), ${checks.bulkWarm} warm; ` +
      `one check right after an assignment changed ${checks.afterAssignment}, then ${checks.checkWarm}`,
  );
  out.push(
    `SQL statements of a suspension (authentication included): ${suspends.bySessions.map(({ sessions, statements }) => `${sessions} sessions ${statements}`).join(', ')} (target: constant)`,
  );
  out.push('', 'SQL statements per request (in process, counted by the onQuery hook; authentication included)');
  const statementWidths = [5, 20, 44, 34];
  out.push(row(['N', 'tenants page (REST)', 'page + configuration (one GraphQL request)', 'configuration: N REST GETs, summed'], statementWidths));
  for (const s of statements) out.push(row([s.n, s.page, dash(s.pageWithConfiguration), dash(s.configurationRest)], statementWidths));
  if (statements.every((s) => s.configurationRest === undefined)) out.push('(configuration: the route is not in the table yet)');

  out.push('', 'Service memory: resident set (VmRSS) after seeding and after the load, peak (VmHWM; a sum of peaks for several processes)');
  const memoryWidths = [34, 14, 14, 14];
  out.push(row(['', 'after seeding', 'after the load', 'peak'], memoryWidths));
  for (const run of runs) {
    const processes = run.loaded.length;
    out.push(row([processes === 1 ? '1 process' : `${serviceLabel(run.workers)}: all ${processes} processes`, mib(sum(run.seeded, 'rss')), mib(sum(run.loaded, 'rss')), mib(sum(run.loaded, 'peak'))], memoryWidths));
    if (processes === 1) continue;
    run.loaded.forEach((loaded, i) => {
      const seeded = run.seeded.find((p) => p.pid === loaded.pid);
      const label = `  ${i === 0 ? 'primary' : 'worker'} (pid ${loaded.pid})`;
      out.push(row([label, seeded === undefined ? 'n/a' : mib(seeded.rss), mib(loaded.rss), mib(loaded.peak)], memoryWidths));
    });
  }
  out.push('');
  process.stdout.write(out.join('\n'));
}

// Other work on the machine skews every figure: the header says how busy it was.
const LOAD_BEFORE = loadavg()[0]?.toFixed(2);
// BENCH_ONLY=observability: that part alone (bench/observability.ts); BENCH_ONLY=sign-ins: the sign-in rows alone.
const ONLY = process.env['BENCH_ONLY'] ?? '';
if (!['', 'observability', 'sign-ins'].includes(ONLY)) throw new Error(`BENCH_ONLY must be observability or sign-ins, got "${ONLY}"`);
if (ONLY === 'sign-ins') await signInsOnly();
else if (ONLY !== 'observability') {
  const runs: ServiceRun[] = [];
  for (const workers of SERVICES) runs.push(await throughput(workers));
  const uncached = await usersUncached();
  const statements = await countStatements(STATEMENT_SIZES);
  report(runs, uncached, statements, await countOAuthStatements(), await countCheckStatements(), await countSuspendStatements([1, 10]));
}
if (ONLY !== 'sign-ins') process.stdout.write(`${(await observabilityCost({ seed, load, warmupS: WARMUP_S, processes: OBS_PROCESSES })).join('\n')}\n`);
if (ONLY === '') {
  process.stdout.write(`${outboxReport(await outboxBench()).join('\n')}\n`);
  process.stdout.write(await auditBench());
}
