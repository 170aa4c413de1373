import { hash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { freePort, killRunning, spawnService, type SpawnedService } from '../support/spawned-service.ts';

/**
 * OpenTelemetry on the OTEL_* variables: the service, started as an operator starts it, exports the trace of one
 * management request to an OTLP/HTTP receiver this test runs, with a span for the request (named by its route), the
 * domain call, and each SQL statement; the request's log lines carry its trace id. A background job's work is a trace
 * of its own, and its polls that find nothing none.
 */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
  status?: { code?: number };
}

const spans: ExportedSpan[] = [];
let receiver: Server;
let database: TestDatabase;
let service: SpawnedService;
const apiKey = `ghk_${randomBytes(32).toString('base64url')}`;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  database = await createTestDatabase();
  const port = await freePort();
  service = spawnService({
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(database.databaseUrl === undefined ? { DATABASE_URL: '' } : { DATABASE_URL: database.databaseUrl }),
    GATEHOUSE_DATA_DIR: database.dataDir,
    REDIS_URL: process.env['REDIS_URL'] ?? '',
    GATEHOUSE_BOOTSTRAP_API_KEY: apiKey,
    LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_SERVICE_NAME: 'gatehouse-under-test',
    // The outbox polls often, finding nothing: none of its polls may make a trace.
    EMAIL_POLL_MS: '100',
    AUDIT_RETENTION_EVERY_MS: '300',
  });
  await service.ready;
  baseUrl = `http://127.0.0.1:${port}`;
}, 120_000);
afterAll(async () => {
  await killRunning(service === undefined ? [] : [service]);
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.drop();
});

let baseUrl: string;

const attribute = (span: ExportedSpan, key: string) => span.attributes.find((entry) => entry.key === key)?.value.stringValue;
const queryText = (span: ExportedSpan) => attribute(span, 'db.query.text') ?? attribute(span, 'db.statement') ?? '';

/** The exported spans of the first trace that has a span named `name`; none yet, none. */
const traceOf = (name: string) => {
  const named = spans.find((span) => span.name === name);
  return named === undefined ? [] : spans.filter((span) => span.traceId === named.traceId);
};

/**
 * The exported spans of the first trace with a span named `name` and statements matching each of `statements`; none
 * yet, none. A job runs from start-up, so its first traces may precede the work a test looks for.
 */
const jobTraceWith = (name: string, ...statements: RegExp[]) => {
  const traceIds = new Set(spans.filter((span) => span.name === name).map((span) => span.traceId));
  for (const traceId of traceIds) {
    const trace = spans.filter((span) => span.traceId === traceId);
    if (statements.every((statement) => trace.some((span) => statement.test(queryText(span))))) return trace;
  }
  return [];
};

/** Waits until `done`, for a minute at most: the exporter sends in batches, and the machine may be loaded. */
async function until(done: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 600 && !done(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The service's log lines for one request. */
const requestLogLines = (requestId: string) =>
  service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { reqId?: string; traceId?: string; msg: string })
    .filter((line) => line.reqId === requestId);

/** Once its last line came through the service's stdout, which may trail the answer and the trace's export. */
async function completedRequestLogLines(requestId: string) {
  await until(() => requestLogLines(requestId).some((line) => line.msg === 'request completed'));
  return requestLogLines(requestId);
}

describe('tracing with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('SQL statements carry their text without values: no stored device code, password hash or API key hash', async () => {
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const created = await fetch(`${baseUrl}/api/v1/oauth-clients`, { method: 'POST', headers, body: JSON.stringify({ name: 'tv', type: 'device' }) });
    expect(created.status).toBe(201);
    const { clientId } = (await created.json()) as { clientId: string };
    const authorized = await fetch(`${baseUrl}/oauth2/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, scope: 'openid' }).toString(),
    });
    expect(authorized.status).toBe(200);
    const { device_code: deviceCode } = (await authorized.json()) as { device_code: string };
    const email = `traced-${randomBytes(4).toString('hex')}@example.com`;
    const user = await fetch(`${baseUrl}/api/v1/users`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'Correct-Horse-Battery-9' }) });
    expect(user.status).toBe(201);

    const statements = () => spans.filter((span) => (attribute(span, 'db.system.name') ?? attribute(span, 'db.system')) === 'postgresql').map(queryText);
    await until(() => statements().some((text) => /insert into "?oidc_model/i.test(text)) && statements().some((text) => /insert into "?app_user/i.test(text)));
    const traced = statements().join('\n');
    expect(traced).toMatch(/insert into "?oidc_model/i);
    expect(traced).toMatch(/insert into "?app_user/i);
    // The device code redeems tokens (as refresh tokens and codes, stored the same way); the Argon2 hash is open to
    // offline guessing; the API key's SHA-256 finds the key; the address is personal data.
    for (const secret of [deviceCode, '$argon2', hash('sha256', apiKey, 'hex'), email]) expect(traced).not.toContain(secret);
  }, 120_000);

  it('exports one management request as a trace: the request by route, the domain call, its SQL statements', async () => {
    const requestId = `trace-${randomBytes(6).toString('hex')}`;
    const response = await fetch(`${baseUrl}/api/v1/users`, { headers: { 'x-api-key': apiKey, 'x-request-id': requestId } });
    expect(response.status).toBe(200);

    await until(() => {
      const exported = traceOf('GET /api/v1/users');
      return exported.some((span) => span.name.startsWith('operation ')) && exported.some((span) => attribute(span, 'db.system.name') ?? attribute(span, 'db.system'));
    });
    const trace = traceOf('GET /api/v1/users');
    const root = trace.find((span) => span.parentSpanId === undefined || span.parentSpanId === '');
    expect(root?.name).toBe('GET /api/v1/users');
    expect(attribute(root!, 'http.route')).toBe('/api/v1/users');
    expect(attribute(root!, 'http.request.method')).toBe('GET');
    expect(attribute(root!, 'url.path')).toBe('/api/v1/users');
    const operation = trace.find((span) => span.name === 'operation ListUsers');
    expect(operation).toBeDefined();
    const statements = trace.filter((span) => (attribute(span, 'db.system.name') ?? attribute(span, 'db.system')) === 'postgresql');
    expect(statements.length).toBeGreaterThan(0);
    // Each statement hangs under the request's trace, and the query text is there, never a parameter's value.
    for (const statement of statements) expect(statement.traceId).toBe(root!.traceId);
    expect(statements.some((span) => /select/i.test(queryText(span)))).toBe(true);
    expect(JSON.stringify(trace)).not.toContain(apiKey);
    // With Redis, the rate limit's command is in the trace by its name, never its keys (they hold the client address).
    if (process.env['REDIS_URL']) {
      const redis = trace.filter((span) => attribute(span, 'db.system.name') === 'redis');
      const commands = redis.map((span) => attribute(span, 'db.query.text'));
      expect(commands).toContain('evalsha');
      for (const command of commands) expect(command).toMatch(/^\w+$/);
    }

    // Every log line of the request carries its trace id.
    const lines = await completedRequestLogLines(requestId);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    for (const line of lines) expect(line.traceId).toBe(root!.traceId);
  }, 120_000);

  it('keeps a request with a body in one trace, its body arriving after its headers', async () => {
    // In two parts a moment apart: the handler then runs from the socket's later events, outside the request's span.
    const body = JSON.stringify({ email: `traced-${randomBytes(4).toString('hex')}@example.com` });
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const sending = request(`${baseUrl}/api/v1/users`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      sending.on('response', (answer) => answer.resume().on('end', () => resolve(answer.statusCode))).on('error', reject);
      sending.write(body.slice(0, 5));
      setTimeout(() => sending.end(body.slice(5)), 200);
    });
    expect(status).toBe(201);

    await until(() => traceOf('POST /api/v1/users').some((span) => /insert/i.test(queryText(span))));
    const trace = traceOf('POST /api/v1/users');
    const root = trace.find((span) => span.name === 'POST /api/v1/users');
    expect(root?.parentSpanId ?? '').toBe('');
    expect(trace.some((span) => span.name === 'operation CreateUser')).toBe(true);
    expect(trace.some((span) => /insert/i.test(queryText(span)))).toBe(true);
  }, 120_000);

  it('exports nothing of a request the caller did not sample, nor under it, and still logs its trace id', async () => {
    const dropped = randomBytes(16).toString('hex');
    const traceparent = `00-${dropped}-${randomBytes(8).toString('hex')}-00`;
    const requestId = `dropped-${randomBytes(6).toString('hex')}`;
    const listed = await fetch(`${baseUrl}/api/v1/users`, { headers: { 'x-api-key': apiKey, 'x-request-id': requestId, traceparent } });
    expect(listed.status).toBe(200);
    // Through GraphQL too: its instrumentation, which needs no parent, would make traces of their own of its parse and
    // execution.
    const queried = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', traceparent },
      body: JSON.stringify({ query: '{ users { data { id } } }' }),
    });
    expect(queried.status).toBe(200);
    expect(((await queried.json()) as { errors?: unknown }).errors).toBeUndefined();

    // A sampled request after them, once exported, says the exporter has sent what they could have made.
    const marker = await fetch(`${baseUrl}/api/v1/api-keys`, { headers: { 'x-api-key': apiKey } });
    expect(marker.status).toBe(200);
    await until(() => traceOf('GET /api/v1/api-keys').length > 0);
    expect(traceOf('GET /api/v1/api-keys')).not.toEqual([]);
    expect(spans.filter((span) => span.traceId === dropped)).toEqual([]);
    expect(spans.filter((span) => (span.parentSpanId ?? '') === '' && span.name.startsWith('graphql.') && !span.name.endsWith('Schema'))).toEqual([]);

    const lines = await completedRequestLogLines(requestId);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    for (const line of lines) expect(line.traceId).toBe(dropped);
  }, 120_000);

  it('traces a refused request with its status, not as an error, its log lines carrying the trace id', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const requestId = `refused-${randomBytes(6).toString('hex')}`;
    const refused = await fetch(`${baseUrl}/api/v1/users`, {
      headers: { 'x-api-key': `ghk_${randomBytes(32).toString('base64url')}`, 'x-request-id': requestId, traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(refused.status).toBe(401);

    // The request's span continues the caller's; what it made (the key's lookup) ended, and was exported, first.
    await until(() => spans.some((span) => span.traceId === traceId && span.parentSpanId === callerSpanId));
    const trace = spans.filter((span) => span.traceId === traceId);
    const root = trace.find((span) => span.parentSpanId === callerSpanId);
    expect(root?.name).toBe('GET /api/v1/users');
    expect(Number(root?.attributes.find((entry) => entry.key === 'http.response.status_code')?.value.intValue)).toBe(401);
    // A client's error is the client's: the server's span is not in error (OpenTelemetry's HTTP conventions).
    expect(root?.status?.code ?? 0).toBe(0);
    // Refused before any domain call: no operation in its trace.
    expect(trace.filter((span) => span.name.startsWith('operation '))).toEqual([]);
    const lines = await completedRequestLogLines(requestId);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    for (const line of lines) expect(line.traceId).toBe(traceId);
  }, 120_000);

  it("makes a trace of each background job's work, and none of a poll that found nothing", async () => {
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const created = await fetch(`${baseUrl}/api/v1/m2m-credentials`, { method: 'POST', headers, body: JSON.stringify({ name: 'Traced job', permissions: ['users:read'] }) });
    expect(created.status).toBe(201);
    const { clientId, clientSecret } = (await created.json()) as { clientId: string; clientSecret: string };
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64');
    // The grant's token event is written by the token-events job, within a second.
    const granted = await fetch(`${baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(granted.status).toBe(200);
    // A mail the outbox claims and settles (without SMTP_URL, with a note saying so).
    const queued = await fetch(`${baseUrl}/api/v1/email/test`, { method: 'POST', headers, body: JSON.stringify({ to: 'ada@example.com' }) });
    expect(queued.status).toBe(201);

    const jobs = {
      'token-events write': [/insert/i],
      'email-outbox deliver': [/update email_delivery/i],
      // A retention run (every 300 ms here) looks at each application's audit log, whether or not it finds any to delete.
      'audit-retention purge': [/select id, audit_retention_days from application/i, /delete from audit_log/i],
    };
    await until(() => Object.entries(jobs).every(([name, statements]) => jobTraceWith(name, ...statements).length > 0));
    for (const [name, statements] of Object.entries(jobs)) {
      const trace = jobTraceWith(name, ...statements);
      expect(trace, name).not.toEqual([]);
      // The job's span is the trace's root.
      expect(trace.find((span) => span.name === name)?.parentSpanId ?? '').toBe('');
    }

    // By now the outbox has polled dozens of times, and the service has run its start-up statements: neither is traced.
    // The roots are requests, the jobs (the storage sweep's and the domain re-check's runs as the service starts among
    // them), and the GraphQL schema's parse and validation, once at start-up.
    const roots = spans.filter((span) => (span.parentSpanId ?? '') === '');
    for (const root of roots) {
      expect(root.name).toMatch(/^(?:[A-Z]+ \/|token-events write$|email-outbox deliver$|audit-retention purge$|storage-sweep run$|domain-recheck run$|graphql\.(?:parse|validate)Schema$)/);
    }
    expect(spans.filter((span) => /skip locked/i.test(queryText(span)) && /email_delivery/.test(queryText(span)))).toEqual([]);
  }, 120_000);

  it('leaves the probes out', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(spans.filter((span) => span.name.includes('/healthz'))).toEqual([]);
  });
});
