import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from '../test/support/app.ts';
import { openSse, type SseStream } from '../test/support/sse.ts';

/**
 * The audit log's figures (issue 24), in process on PostgreSQL: a filtered page of the search with 1,000,000 records
 * of 100 tenants (p99, statements per page), the stream's fan-out (100 open streams, commit to delivery), and the
 * analytics over a year of rollups. `node bench/audit.ts` runs it alone; bench/run.ts runs it last.
 */
process.env['TEST_DATABASE_URL'] ||= 'postgres://postgres@127.0.0.1:5432/test';

const RECORDS = Number(process.env['BENCH_AUDIT_RECORDS'] ?? 1_000_000);
const TENANTS = 100;
const SEED_CHUNK = 50_000;
const PAGES = 200;
const STREAMS = Number(process.env["BENCH_STREAMS"] ?? 100);
const STREAM_WRITES = 20;
const ANALYTICS_READS = 100;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** UUIDv7 of a time in SQL (as NEW_ID_SQL, at `t` instead of now). */
const idAt = (t: string) =>
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from ${t}) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;

async function seedRecords(app: TestApp, tenants: string[]): Promise<void> {
  const actors = Array.from({ length: 50 }, () => crypto.randomUUID());
  // 90 days of records, newest last; actions spread over a few resources, actors and targets over many.
  // In chunks: each statement stays within the pool's statement timeout.
  for (let first = 1; first <= RECORDS; first += SEED_CHUNK) {
    await app.gatehouse.services.orm.em.getConnection().execute(
      `insert into audit_log (application_id, id, tenant_id, actor_type, actor_id, action, target_type, target_id, request_id, created_at)
       select ?, ${idAt('t')}, (?::uuid[])[1 + floor(random() * ${TENANTS})::int], 'api_key', (?::text[])[1 + floor(random() * 50)::int],
              (array['user.created', 'user.updated', 'user.signed_in', 'token.issued', 'role.created'])[1 + floor(random() * 5)::int], 'user', md5(i::text), 'bench', t
         from generate_series(?::int, ?::int) as i, lateral (select now() - make_interval(secs => (? - i) * 90 * 86400.0 / ?)) as at(t)`,
      [app.root.applicationId, `{${tenants.join(',')}}`, `{${actors.join(',')}}`, first, Math.min(RECORDS, first + SEED_CHUNK - 1), RECORDS, RECORDS],
    );
  }
  await app.gatehouse.services.orm.em.getConnection().execute('analyze audit_log');
}

async function searchFigures(app: TestApp, tenants: string[]): Promise<string[]> {
  const appId = app.root.applicationId;
  const [sample] = await app.gatehouse.services.orm.em.getConnection().execute<{ actor_id: string; target_id: string }[]>(
    `select actor_id, target_id from audit_log where application_id = ? order by id desc limit 1`,
    [appId],
  );
  const searches = [
    { label: 'newest page, application', path: '/audit-logs?pageSize=20' },
    { label: 'a tenant’s page (tenant path)', path: (i: number) => `/applications/${appId}/tenants/${tenants[i % TENANTS]}/audit-logs?pageSize=20` },
    { label: 'action prefix user.*', path: '/audit-logs?action=user.*&pageSize=20' },
    { label: 'exact action, a tenant', path: (i: number) => `/applications/${appId}/tenants/${tenants[i % TENANTS]}/audit-logs?action=role.created&pageSize=20` },
    { label: 'by actor', path: `/audit-logs?actor=${sample!.actor_id}&pageSize=20` },
    { label: 'by target', path: `/audit-logs?target=${sample!.target_id}&pageSize=20` },
    { label: 'a day 30 days ago', path: `/audit-logs?from=${new Date(Date.now() - 30 * 86_400_000).toISOString()}&to=${new Date(Date.now() - 29 * 86_400_000).toISOString()}&pageSize=20` },
  ];
  const lines = [`  ${'search (pageSize 20)'.padEnd(34)}${'p50'.padStart(10)}${'p99'.padStart(10)}${'statements'.padStart(12)}`];
  for (const search of searches) {
    const timings: number[] = [];
    let statements = 0;
    for (let i = 0; i < PAGES; i += 1) {
      const path = typeof search.path === 'string' ? search.path : search.path(i);
      app.queries.length = 0;
      const started = performance.now();
      const response = await app.http.get(path);
      timings.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
      statements = app.queries.length;
    }
    lines.push(`  ${search.label.padEnd(34)}${ms(percentile(timings, 50)).padStart(10)}${ms(percentile(timings, 99)).padStart(10)}${String(statements).padStart(12)}`);
  }
  return lines;
}

async function streamFigures(app: TestApp): Promise<string[]> {
  const streams: SseStream[] = [];
  // A credential holds at most STREAMS_PER_CREDENTIAL streams: one key for each such share, as several dashboards would.
  const perKey = app.gatehouse.services.config.streamsPerCredential;
  const keys: string[] = [];
  for (let i = 0; i < STREAMS; i += perKey) {
    const key = await app.http.post('/api-keys', { name: `stream ${i}`, permissions: ['audit_logs:read'] });
    if (key.status !== 201) throw new Error(`API key: ${key.status} ${JSON.stringify(key.body)}`);
    keys.push(key.body.secret as string);
  }
  try {
    for (let i = 0; i < STREAMS; i += 1) {
      streams.push(await openSse(`${app.baseUrl}/api/v1/audit-logs/stream?action=user.created`, { 'x-api-key': keys[Math.floor(i / perKey)]! }));
    }
    const refused = streams.filter((stream) => stream.status !== 200);
    if (refused.length > 0) throw new Error(`${refused.length} streams refused: ${JSON.stringify(refused[0]!.body)}`);
    const received = new Map<string, number[]>();
    const seen = streams.map(() => 0);
    const watch = setInterval(() => {
      streams.forEach((stream, i) => {
        for (; seen[i]! < stream.events.length; seen[i]! += 1) {
          const target = (JSON.parse(stream.events[seen[i]!]!.data) as { target: { id: string } }).target.id;
          received.set(target, [...(received.get(target) ?? []), performance.now()]);
        }
      });
    }, 1);
    const delays: number[] = [];
    try {
      for (let i = 0; i < STREAM_WRITES; i += 1) {
        const created = await app.http.post('/users', { email: `stream-${i}-${crypto.randomUUID()}@example.com` });
        // The answer comes after the commit: the delay is counted from it (a delivery before it counts 0).
        const committed = performance.now();
        const id = created.body.id as string;
        const deadline = Date.now() + 30_000;
        while ((received.get(id)?.length ?? 0) < STREAMS) {
          if (Date.now() > deadline) throw new Error(`the record reached ${received.get(id)?.length ?? 0} of ${STREAMS} streams`);
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
        for (const at of received.get(id)!) delays.push(Math.max(0, at - committed));
      }
    } finally {
      clearInterval(watch);
    }
    return [
      `  ${STREAMS} open streams, ${STREAM_WRITES} records each: commit to delivery p50 ${ms(percentile(delays, 50))}, p99 ${ms(percentile(delays, 99))}, max ${ms(Math.max(...delays))}`,
    ];
  } finally {
    for (const stream of streams) stream.close();
  }
}

async function analyticsFigures(app: TestApp): Promise<string[]> {
  const appId = app.root.applicationId;
  const connection = app.gatehouse.services.orm.em.getConnection();
  // A year of rollups: every day, three methods; active users per day, week and month.
  await connection.execute(
    `insert into analytics_sign_ins (application_id, scope_tenant_id, day, method, succeeded, failed)
     select ?, '00000000-0000-0000-0000-000000000000', current_date - d, m, 1000 + d, d % 50
       from generate_series(0, 365) as d, unnest(array['password', 'magic_link', 'passkey']) as m
     on conflict do nothing`,
    [appId],
  );
  await connection.execute(
    `insert into analytics_active_users (application_id, scope_tenant_id, period, period_start, users)
     select ?, '00000000-0000-0000-0000-000000000000', p, (case p when 'day' then current_date - d when 'week' then date_trunc('week', current_date - d)::date
            else date_trunc('month', current_date - d)::date end), 5000 + d
       from generate_series(0, 365) as d, unnest(array['day', 'week', 'month']) as p
     on conflict do nothing`,
    [appId],
  );
  const today = new Date().toISOString().slice(0, 10);
  const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
  const lines: string[] = [];
  for (const [label, path] of [
    ['active users, a year by day', `/analytics/active-users?from=${yearAgo}&to=${today}&interval=day`],
    ['active users, a year by week', `/analytics/active-users?from=${yearAgo}&to=${today}&interval=week`],
    ['sign-ins, a year by day', `/analytics/sign-ins?from=${yearAgo}&to=${today}&interval=day`],
    ['sign-ins, a year by month', `/analytics/sign-ins?from=${yearAgo}&to=${today}&interval=month`],
  ] as const) {
    const timings: number[] = [];
    let statements = 0;
    for (let i = 0; i < ANALYTICS_READS; i += 1) {
      app.queries.length = 0;
      const started = performance.now();
      const response = await app.http.get(path);
      timings.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      statements = app.queries.filter((query) => query.includes('analytics_')).length;
    }
    lines.push(`  ${label.padEnd(34)}${ms(percentile(timings, 50)).padStart(10)}${ms(percentile(timings, 99)).padStart(10)}${String(statements).padStart(12)}`);
  }
  return lines;
}

/** The audit log's report, as lines. */
export async function auditBench(): Promise<string> {
  const app = await startTestApp();
  try {
    const tenants: string[] = [];
    for (let i = 0; i < TENANTS; i += 1) tenants.push(await app.createTenant(`Audit bench ${i}`));
    const seeding = performance.now();
    await seedRecords(app, tenants);
    const seeded = ((performance.now() - seeding) / 1000).toFixed(0);
    return [
      '',
      `Audit log (${RECORDS.toLocaleString('en')} records of ${TENANTS} tenants, seeded in ${seeded} s; in process, PostgreSQL)`,
      ...(await searchFigures(app, tenants)),
      '',
      'Audit stream',
      ...(await streamFigures(app)),
      '',
      `Analytics over a year of rollups (${ANALYTICS_READS} reads each; statements: reads of the rollups)`,
      ...(await analyticsFigures(app)),
      '',
    ].join('\n');
  } finally {
    await app.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(await auditBench());
