/**
 * `npm run fuzz`: hostile request bodies up to the body limit on every route of the route table, over REST and as the
 * same operation through /graphql, against the service started as `npm start` starts it, on the embedded database.
 * Prints, per route and transport, the worst event-loop delay measured inside the service while its requests ran (and
 * the part of it the service's own work made), and the worst latency; exits 1 on any 5xx or on an own delay over
 * --max-delay-ms. See docs/bench.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { getNamedType, getNullableType, isInputObjectType, isListType, isScalarType, typeFromAST, type GraphQLInputObjectType, type GraphQLInputType } from 'graphql';
import { buildSchema } from '../src/graphql/schema.ts';
import { JSON_BODY_MAX_DEPTH, JSON_BODY_MAX_VALUES } from '../src/http/json-body.ts';
import { expandRoutes, type ExpandedRoute } from '../src/rest/routes.ts';
import type { LoopDelay } from './loop-delay.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const { values: options } = parseArgs({
  options: {
    'max-delay-ms': { type: 'string', default: '50' },
    // `one`: one path form per row of the table (CI's short run); `all`: the three forms of owned rows.
    forms: { type: 'string', default: 'all' },
    // Only the rows whose `METHOD /path` holds this text (a route to profile alone).
    route: { type: 'string' },
  },
});
const MAX_DELAY_MS = Number(options['max-delay-ms']);
if (!(MAX_DELAY_MS > 0)) throw new Error(`--max-delay-ms must be a positive number, got "${options['max-delay-ms']}"`);
if (options.forms !== 'one' && options.forms !== 'all') throw new Error(`--forms must be one or all, got "${options.forms}"`);

/** The body limit (1 MiB), less room for /graphql's envelope (the operation's text) around the same value. */
const BODY_BYTES = 1024 * 1024 - 8 * 1024;
const schema = buildSchema();

/** `{"k0":0,"k1":0,…}`: about `bytes` of keys no input defines. */
function unknownKeys(bytes: number): Record<string, number> {
  const keys: Record<string, number> = {};
  for (let i = 0, size = 2; size < bytes; i += 1) {
    keys[`k${i}`] = 0;
    size += String(i).length + 7;
  }
  return keys;
}

/** As many values as a body may hold, less room for the members around them: the largest body that is parsed and checked. */
const ALLOWED = JSON_BODY_MAX_VALUES - 50;

/** `count` keys no input defines. */
const unknownKeyCount = (count: number): Record<string, number> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 0]));

const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });

/** Items as an invalid (or, `valid`, a well-typed) member of a list of `type`, filling about `bytes`, at most `count`. */
function longList(type: GraphQLInputType, bytes: number, valid: boolean, count = Infinity): unknown[] {
  const named = getNamedType(type);
  const item = !valid ? 0 : isScalarType(named) && named.name === 'UUID' ? randomUUID() : isScalarType(named) ? 'https://fuzz.example/x' : {};
  return Array.from({ length: Math.min(count, Math.floor(bytes / (JSON.stringify(item).length + 1))) }, () => item);
}

/** The input's fields (and those of input objects inside it, one level down) whose type is a list or a JSON object. */
function fieldsOf(input: GraphQLInputObjectType): { lists: [string[], GraphQLInputType][]; jsonObjects: string[][] } {
  const lists: [string[], GraphQLInputType][] = [];
  const jsonObjects: string[][] = [];
  const visit = (type: GraphQLInputObjectType, path: string[], depth: number) => {
    for (const field of Object.values(type.getFields())) {
      const nullable = getNullableType(field.type);
      if (isListType(nullable)) lists.push([[...path, field.name], nullable.ofType]);
      else if (isScalarType(nullable) && nullable.name === 'JSONObject') jsonObjects.push([...path, field.name]);
      else if (isInputObjectType(nullable) && depth < 1) visit(nullable, [...path, field.name], depth + 1);
    }
  };
  visit(input, [], 0);
  return { lists, jsonObjects };
}

function at(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

type Shape = [name: string, body: () => unknown];

/** Hostile bodies for an operation taking `input` of this type, each about BODY_BYTES, built when sent. */
function shapes(input: GraphQLInputObjectType): Shape[] {
  const fields = Object.keys(input.getFields());
  const { lists, jsonObjects } = fieldsOf(input);
  const out: Shape[] = [
    ['unknown keys', () => unknownKeys(BODY_BYTES)],
    ['deep nesting', () => Object.fromEntries([...fields, 'unknown'].map((name) => [name, nested(JSON_BODY_MAX_DEPTH - 2)]))],
    ['long strings', () => Object.fromEntries(fields.map((name) => [name, 'x'.repeat(Math.floor(BODY_BYTES / fields.length) - 64)]))],
    ['invalid values in bulk', () => ({ ...Object.fromEntries(fields.map((name) => [name, [[0]]])), ...unknownKeys(BODY_BYTES) })],
    ['a top-level array', () => longList(input, BODY_BYTES, false)],
    ['unknown keys, as many as a body may hold', () => unknownKeyCount(ALLOWED)],
    ['invalid values in bulk, as many as a body may hold', () => ({ ...Object.fromEntries(fields.map((name) => [name, [[0]]])), ...unknownKeyCount(ALLOWED - 3 * fields.length) })],
  ];
  for (const [path, item] of lists.slice(0, 3)) {
    out.push([`long list ${path.join('.')}, invalid items`, () => at(path, longList(item, BODY_BYTES, false))]);
    out.push([`long list ${path.join('.')}, invalid items, as many as a body may hold`, () => at(path, longList(item, BODY_BYTES, false, ALLOWED))]);
    out.push([`long list ${path.join('.')}, well-typed items, as many as a body may hold`, () => at(path, longList(item, BODY_BYTES, true, ALLOWED))]);
  }
  for (const path of jsonObjects.slice(0, 3)) {
    out.push([`large JSON object ${path.join('.')}`, () => at(path, Object.fromEntries(Object.keys(unknownKeys(BODY_BYTES / 1.5)).map((key) => [key, 'v'])))]);
    out.push([`large JSON object ${path.join('.')}, as many keys as a body may hold`, () => at(path, Object.fromEntries(Object.keys(unknownKeyCount(ALLOWED)).map((key) => [key, 'v'])))]);
  }
  return out;
}

interface Row {
  readonly route: string;
  readonly transport: 'REST' | 'GraphQL';
  requests: number;
  readonly statuses: Map<number, number>;
  worstDelayMs: number;
  worstOwnDelayMs: number;
  worstDelayShape: string;
  worstLatencyMs: number;
}

const service: ServiceProcess = await (async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'gatehouse-fuzz-'));
  const started = await startServiceProcess('', 1, { GATEHOUSE_DATA_DIR: dataDir });
  return { ...started, stop: async () => (await started.stop(), rm(dataDir, { recursive: true, force: true })) };
})();

interface Sent {
  readonly status: number;
  readonly ms: number;
  readonly delay: LoopDelay;
}

async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Sent> {
  await service.loopDelay();
  const begun = performance.now();
  const response = await fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': service.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  const ms = performance.now() - begun;
  return { status: response.status, ms, delay: await service.loopDelay() };
}

try {
  const applications = (await (await fetch(`${service.baseUrl}/api/v1/applications`, { headers: { 'x-api-key': service.apiKey } })).json()) as { data: { id: string }[] };
  const appId = applications.data[0]!.id;
  const tenant = await send('POST', `/api/v1/applications/${appId}/tenants`, { name: 'Fuzz' });
  if (tenant.status !== 201) throw new Error(`creating the fuzz tenant: ${tenant.status}`);
  const tenantId = ((await (await fetch(`${service.baseUrl}/api/v1/applications/${appId}/tenants`, { headers: { 'x-api-key': service.apiKey } })).json()) as { data: { id: string }[] }).data[0]!.id;

  const seen = new Set<string>();
  const routes = expandRoutes().filter((route) => {
    if (options.route !== undefined && !`${route.method} ${route.url}`.includes(options.route)) return false;
    if (options.forms === 'all') return true;
    const row = `${route.method} ${route.path}`;
    return !seen.has(row) && seen.add(row) !== undefined;
  });
  const rows: Row[] = [];
  const record = (row: Row, shape: string, { status, ms, delay }: Sent) => {
    row.requests += 1;
    row.statuses.set(status, (row.statuses.get(status) ?? 0) + 1);
    row.worstDelayMs = Math.max(row.worstDelayMs, delay.maxMs);
    if (delay.ownMs > row.worstOwnDelayMs) [row.worstOwnDelayMs, row.worstDelayShape] = [delay.ownMs, shape];
    row.worstLatencyMs = Math.max(row.worstLatencyMs, ms);
  };

  const plan = routes.map((route: ExpandedRoute) => {
    const params: Record<string, string> = {};
    const url = route.url.replace(/:(\w+)/g, (_, name: string) => (params[name] = name === 'appId' ? appId : name === 'tenantId' ? tenantId : randomUUID()));
    // Unknown variables are no refusal on /graphql: an operation without input runs, so it runs on no real id (a
    // DELETE of the application would end the run).
    const foreign = Object.fromEntries(Object.keys(params).map((name) => [name, randomUUID()]));
    const inputNode = route.operation.variables.get('input');
    const inputType = inputNode === undefined ? undefined : getNullableType(typeFromAST(schema, inputNode) as GraphQLInputType);
    const bodies: Shape[] = isInputObjectType(inputType) ? shapes(inputType) : [['unknown keys', () => unknownKeys(BODY_BYTES)]];
    const hasInput = inputType !== undefined;
    const variables = (body: unknown) => (hasInput ? { ...params, input: body } : { ...foreign, ...(body as object) });
    return { route, url, bodies, variables };
  });

  // Each route once with a small body first, unmeasured: the measured requests then run compiled code, as in a service up a while.
  for (const { route, url, variables } of plan) {
    const small = unknownKeys(1024);
    await send(route.method, `/api/v1${url}`, route.method === 'GET' ? undefined : small);
    await send('POST', '/graphql', { query: route.operation.query, variables: variables(small) });
  }

  for (const { route, url, bodies, variables } of plan) {
    const rest: Row = { route: `${route.method} ${route.url}`, transport: 'REST', requests: 0, statuses: new Map(), worstDelayMs: 0, worstOwnDelayMs: 0, worstDelayShape: '', worstLatencyMs: 0 };
    const graphql: Row = { ...rest, transport: 'GraphQL', statuses: new Map() };
    rows.push(rest, graphql);
    process.stderr.write(`${rest.route}\n`);
    const idempotency = (): Record<string, string> => (route.idempotent ? { 'idempotency-key': randomUUID() } : {});
    // Query parameters up to what the HTTP parser takes (16 KiB of request line and headers).
    const query = Object.keys(unknownKeys(14_000)).map((key) => `${key}=0`).join('&');
    record(rest, 'unknown query parameters', await send(route.method, `/api/v1${url}?${query}`, undefined, idempotency()));
    for (const [shape, build] of bodies) {
      const body = build();
      if (route.method !== 'GET') record(rest, shape, await send(route.method, `/api/v1${url}`, body, idempotency()));
      record(graphql, shape, await send('POST', '/graphql', { query: route.operation.query, variables: variables(body) }, idempotency()));
    }
  }

  const width = Math.max(...rows.map((row) => row.route.length));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(width) : i === 1 ? cell.padEnd(8) : cell.padStart(i === 6 ? 0 : 10))).join('  ');
  process.stdout.write(`\nGatehouse fuzz: ${routes.length} routes (path forms: ${options.forms}), bodies of up to ${BODY_BYTES} bytes; limit ${MAX_DELAY_MS} ms of event-loop delay made by the service's own work\n\n`);
  process.stdout.write(`${line(['route', 'via', 'requests', 'loop ms', 'own ms', 'latency ms', 'statuses; worst own delay with'])}\n`);
  for (const row of rows) {
    if (row.requests === 0) continue;
    const statuses = [...row.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
    const cells = [row.route, row.transport, String(row.requests), row.worstDelayMs.toFixed(0), row.worstOwnDelayMs.toFixed(0), row.worstLatencyMs.toFixed(0), `${statuses}; ${row.worstDelayShape}`];
    process.stdout.write(`${line(cells)}\n`);
  }
  const failed = rows.filter((row) => [...row.statuses.keys()].some((status) => status >= 500));
  const slow = rows.filter((row) => row.worstOwnDelayMs > MAX_DELAY_MS);
  const worst = rows.reduce((a, b) => (b.worstOwnDelayMs > a.worstOwnDelayMs ? b : a));
  const worstWall = Math.max(...rows.map((row) => row.worstDelayMs));
  process.stdout.write(`\nworst event-loop delay of the service's own work ${worst.worstOwnDelayMs.toFixed(0)} ms (${worst.route} via ${worst.transport}, ${worst.worstDelayShape}); ` +
    `worst wall-clock delay ${worstWall.toFixed(0)} ms; ${failed.length} rows with a 5xx, ${slow.length} over ${MAX_DELAY_MS} ms\n`);
  process.exitCode = failed.length > 0 || slow.length > 0 ? 1 : 0;
} finally {
  await service.stop();
}
