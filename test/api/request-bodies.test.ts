import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { INPUT_REFUSALS_MAX } from '../../src/graphql/variable-coercion.ts';
import { JSON_BODY_MAX_DEPTH, JSON_BODY_MAX_VALUES } from '../../src/http/json-body.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { rawRequest, type HttpResponse } from '../support/http.ts';

/**
 * Bodies of every hostile shape up to the body limit (1 MiB): each is refused in the contract's error body with a
 * bounded `details` (or, past the values a body may hold, on `body` before it is parsed), on both transports, and
 * nothing is written. How long they take is npm run fuzz's to measure
 * (docs/bench.md); here, their answers. An empty body is no body, whatever its Content-Type or framing.
 */
const MEBIBYTE = 1024 * 1024;
const ERROR_BODY_KEYS = ['code', 'message', 'field', 'details'];

/** `count` unknown keys beside `base`. */
function withUnknownKeys(base: Record<string, unknown>, count: number): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  for (let i = 0; i < count; i++) body[`k${i}`] = 0;
  return body;
}

/** Within the values a body may hold, with room for its other members. */
const MANY = JSON_BODY_MAX_VALUES - 100;

/** The REST error body: the contract's keys only, 422, at most the reported refusals and the line saying there were more. */
function expectRefused(response: HttpResponse, expected: { field: string; message?: string }) {
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(422);
  expect(Object.keys(response.body as object).every((key) => ERROR_BODY_KEYS.includes(key))).toBe(true);
  expect(response.body).toMatchObject({ code: 'validation_error', ...expected });
  const details = (response.body as { details?: unknown[] }).details ?? [];
  expect(details.length).toBeLessThanOrEqual(INPUT_REFUSALS_MAX + 1);
}

/** The same refusal through /graphql: one error, its extensions those of the REST body. */
function expectSameOverGraphQL(graphql: HttpResponse, rest: HttpResponse) {
  const errors = (graphql.body as { errors?: { message: string; extensions: Record<string, unknown> }[] }).errors ?? [];
  expect(graphql.status).toBe(422);
  expect(errors).toHaveLength(1);
  const { status, ...extensions } = errors[0]!.extensions;
  expect({ message: errors[0]!.message, ...extensions }).toEqual(rest.body);
  expect(status).toBe(422);
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('hostile request bodies up to the body limit', () => {
  let userId: string;
  const createUser = 'mutation($input: CreateUserInput!) { createUser(input: $input) { id } }';
  const updateUser = 'mutation($userId: UUID!, $input: UpdateUserInput!) { updateUser(userId: $userId, input: $input) { id } }';
  const userCount = async () => ((await app.http.get('/users?pageSize=100')).body as { data: unknown[] }).data.length;

  beforeAll(async () => {
    const created = await app.http.post('/users', { email: 'owner@example.com' });
    expect(created.status).toBe(201);
    userId = (created.body as { id: string }).id;
  });

  it('a body of more values than any input holds is refused on `body` before it is parsed, whatever its shape', async () => {
    const message = `The request body holds more than ${JSON_BODY_MAX_VALUES} values`;
    const shapes = {
      'unknown keys up to 1 MiB': withUnknownKeys({ email: 'keys@example.com' }, 80_000),
      'a long list of invalid ids': { email: 'keys@example.com', tenantIds: Array.from({ length: 100_000 }, (_, i) => `x${i}`) },
      'a long list of lists': { email: 'keys@example.com', tenantIds: Array.from({ length: 50_000 }, () => [1]) },
      'a long list of empty objects': { email: 'keys@example.com', tenantIds: Array.from({ length: 50_000 }, () => ({})) },
    };
    for (const [shape, body] of Object.entries(shapes)) {
      const rest = await app.http.post('/users', body);
      expect(rest.body, shape).toEqual({ code: 'validation_error', message, field: 'body' });
      const graphql = await app.http.graphql(createUser, { input: body });
      expect(graphql.body.errors?.[0]?.extensions, shape).toMatchObject({ code: 'validation_error', field: 'body' });
    }
    expect(await userCount()).toBe(1);
  });

  it('many unknown top-level keys: the first ones are named, the rest not checked; the same body without them is created', async () => {
    const body = withUnknownKeys({ email: 'keys@example.com' }, MANY);
    const rest = await app.http.post('/users', body);
    expectRefused(rest, { field: 'k0', message: 'Unknown field "k0"' });
    expect((rest.body as { details: unknown[] }).details).toHaveLength(INPUT_REFUSALS_MAX + 1);
    expectSameOverGraphQL(await app.http.graphql(createUser, { input: body }), rest);
    expect(await userCount()).toBe(1);
    expect((await app.http.post('/users', { email: 'keys@example.com' })).status).toBe(201);
  });

  it('a long array of invalid ids: the first ones are named; a short valid one is taken', async () => {
    const tenantIds = Array.from({ length: MANY }, (_, i) => `x${i}`);
    const rest = await app.http.patch(`/users/${userId}`, { tenantIds });
    expectRefused(rest, { field: 'tenantIds[0]', message: 'Invalid tenantIds[0]: expected a UUIDv7 (Gatehouse ids are UUIDv7)' });
    expectSameOverGraphQL(await app.http.graphql(updateUser, { userId, input: { tenantIds } }), rest);
    const tenantId = await app.createTenant('Bodies');
    const taken = await app.http.patch(`/users/${userId}`, { tenantIds: [tenantId] });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ tenantIds: [tenantId] });
  });

  it('a long array of the wrong shape: a list where a string is due, and a string where a list is', async () => {
    const listOfLists = Array.from({ length: MANY / 2 }, () => [1]);
    const rest = await app.http.patch(`/users/${userId}`, { tenantIds: listOfLists });
    expectRefused(rest, { field: 'tenantIds[0]' });
    expectSameOverGraphQL(await app.http.graphql(updateUser, { userId, input: { tenantIds: listOfLists } }), rest);
    expectRefused(await app.http.patch(`/users/${userId}`, { tenantIds: 'x'.repeat(MEBIBYTE - 100) }), { field: 'tenantIds' });
  });

  it('deep nesting: as deep as the limit is read (an unknown key), deeper is refused on `body`', async () => {
    const nested = (depth: number): unknown => (depth === 0 ? 0 : { a: nested(depth - 1) });
    // The body itself is one level: JSON_BODY_MAX_DEPTH - 1 below it.
    expectRefused(await app.http.post('/users', { email: 'deep@example.com', a: nested(JSON_BODY_MAX_DEPTH - 2) }), { field: 'a' });
    expectRefused(await app.http.post('/users', { email: 'deep@example.com', a: nested(JSON_BODY_MAX_DEPTH) }), { field: 'body' });
    const tooDeep = await app.http.graphql(createUser, { input: { email: 'deep@example.com', a: nested(JSON_BODY_MAX_DEPTH) } });
    expect(tooDeep.status).toBe(422);
    expect(tooDeep.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'body' });
    expect(await userCount()).toBe(2);
  });

  it('long strings: an e-mail address and a name of nearly 1 MiB are refused, nothing created', async () => {
    const long = 'a'.repeat(MEBIBYTE - 200);
    expectRefused(await app.http.post('/users', { email: `${long}@example.com` }), { field: 'email' });
    expectRefused(await app.http.post('/users', { email: 'long@example.com', name: long }), { field: 'name' });
    const graphql = await app.http.graphql(createUser, { input: { email: 'long@example.com', name: long } });
    expect(graphql.status).toBe(422);
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'name' });
    expect(await userCount()).toBe(2);
  });

  it('many invalid values at once: every refusal is one of the first, whatever their number', async () => {
    // Each of the members of `tenantIds` wrong, and unknown keys after them: the first INPUT_REFUSALS_MAX only.
    const body = { ...withUnknownKeys({}, MANY / 2), tenantIds: Array.from({ length: MANY / 2 }, () => 5) };
    const rest = await app.http.patch(`/users/${userId}`, body);
    expectRefused(rest, { field: 'tenantIds[0]' });
    const details = (rest.body as { details: { field?: string }[] }).details;
    expect(details.slice(0, INPUT_REFUSALS_MAX).map(({ field }) => field)).toEqual(Array.from({ length: INPUT_REFUSALS_MAX }, (_, i) => `tenantIds[${i}]`));
    expectSameOverGraphQL(await app.http.graphql(updateUser, { userId, input: body }), rest);
  });
});

describe('an empty body, whatever its Content-Type', () => {
  /** How clients send a body: `curl -X POST -d ''` sends a form's type; a stream goes chunked, Content-Type or none. */
  const senders = [
    { label: "a form's type (curl -d '')", type: 'application/x-www-form-urlencoded' },
    { label: 'text, chunked', type: 'text/plain', chunked: true },
    { label: 'no Content-Type, chunked', chunked: true },
    { label: 'JSON', type: 'application/json' },
    { label: 'no Content-Type' },
  ];
  const send = (path: string, { type, chunked }: { type?: string; chunked?: boolean }, body = '') => {
    const framing: Record<string, string> = chunked === true ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body)) };
    return rawRequest(app.baseUrl, 'POST', path, { 'x-api-key': app.root.apiKey, ...(type === undefined ? {} : { 'content-type': type }), ...framing }, body);
  };

  it('is no body over REST: a route without input runs, one that needs input is 422 on it; a byte of another type is 415', async () => {
    const user = await app.http.post('/users', { email: 'curl@example.com' });
    expect(user.status).toBe(201);
    const unlock = `/api/v1/users/${user.body.id}/unlock`;
    for (const sender of senders) {
      const unlocked = await send(unlock, sender);
      expect(unlocked.status, sender.label).toBe(200);
      expect(JSON.parse(unlocked.body), sender.label).toMatchObject({ id: user.body.id, status: 'active' });
      const created = await send('/api/v1/users', sender);
      expect(created.status, sender.label).toBe(422);
      expect(JSON.parse(created.body), sender.label).toMatchObject({ code: 'validation_error', field: 'body' });
    }
    // A body is still one: of another type, 415; over 1 MiB of JSON, 413.
    for (const path of [unlock, '/api/v1/users']) {
      for (const sender of senders.filter(({ type }) => type !== 'application/json')) {
        const refused = await send(path, sender, 'email=curl%40example.com');
        expect(refused.status, `${path} ${sender.label}`).toBe(415);
        expect(JSON.parse(refused.body)).toMatchObject({ code: 'unsupported_media_type' });
      }
      const large = await send(path, { type: 'application/json' }, JSON.stringify({ email: 'x'.repeat(MEBIBYTE) }));
      expect(large.status, path).toBe(413);
    }
    expect((await app.http.get(`/users/${user.body.id}`)).body.email).toBe('curl@example.com');
    // A path no route takes is 404 whatever its body, as before any body is read.
    expect((await send('/api/v1/no-such-route', senders[0]!, 'a=b')).status).toBe(404);
  });

  it('is no body on /graphql: a 422 on body saying what /graphql takes, whatever the Content-Type; a byte of another type is 415', async () => {
    for (const sender of senders) {
      const refused = await send('/graphql', sender);
      expect(refused.status, sender.label).toBe(422);
      expect(JSON.parse(refused.body).errors?.[0], sender.label).toMatchObject({
        message: expect.stringContaining('takes a JSON body'),
        extensions: { code: 'validation_error', field: 'body', status: 422 },
      });
    }
    for (const sender of senders.filter(({ type }) => type !== 'application/json')) {
      const refused = await send('/graphql', sender, '{ version }');
      expect(refused.status, sender.label).toBe(415);
      expect(JSON.parse(refused.body).errors?.[0]?.extensions).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    }
    const answered = await send('/graphql', { type: 'application/json' }, JSON.stringify({ query: '{ version }' }));
    expect(answered.status).toBe(200);
  });
});

describe('a JSON body repeating a key', () => {
  /** Parsers disagree on which value of a repeated key counts (a proxy may read the first, JSON.parse reads the last). */
  const post = (path: string, body: string) =>
    rawRequest(app.baseUrl, 'POST', path, { 'x-api-key': app.root.apiKey, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }, body);
  const count = async () => ((await app.http.get('/users?pageSize=100')).body as { data: unknown[] }).data.length;

  it('is refused on body, naming the key, at the top and nested, over REST and /graphql; nothing is created', async () => {
    const before = await count();
    const rest = await post('/api/v1/users', '{"email":"first@example.com","email":"second@example.com"}');
    expect(rest.status).toBe(422);
    expect(JSON.parse(rest.body)).toEqual({ code: 'validation_error', message: 'The request body repeats the key "email"', field: 'body' });
    const query = 'mutation($input: CreateUserInput!) { createUser(input: $input) { id } }';
    for (const input of ['{"email":"first@example.com","email":"second@example.com"}', '{"email":"first@example.com","metadata":{"a":1,"a":2}}']) {
      const graphql = await post('/graphql', `{"query":${JSON.stringify(query)},"variables":{"input":${input}}}`);
      expect(graphql.status, input).toBe(422);
      const errors = (JSON.parse(graphql.body) as { errors: unknown[] }).errors;
      expect(errors, input).toEqual([
        { message: `The request body repeats the key "${input.includes('metadata') ? 'a' : 'email'}"`, extensions: { code: 'validation_error', field: 'body', status: 422 } },
      ]);
    }
    expect(await count()).toBe(before);
    // The same key in two objects is no repetition.
    const created = await post('/api/v1/users', '{"email":"first@example.com","metadata":{"email":"x","nested":{"email":"y"}}}');
    expect(created.status).toBe(201);
  });
});

describe('a JSON body where a route takes none', () => {
  it('is refused on body, an empty list as any other list; `{}` is no body; nothing runs', async () => {
    const user = (await app.http.post('/users', { email: 'no-input@example.com' })).body.id as string;
    for (const body of [[], [1], { reason: 'x' }]) {
      const refused = await app.http.post(`/users/${user}/suspend`, body);
      expectRefused(refused, { field: 'body', message: 'POST /users/:userId/suspend takes no request body' });
    }
    expect((await app.http.get(`/users/${user}`)).body.status).toBe('active');
    expect((await app.http.post(`/users/${user}/suspend`, {})).body.status).toBe('suspended');
  });
});

describe('a content-coded body', () => {
  const post = (path: string, coding: string, body: string | Buffer) =>
    rawRequest(app.baseUrl, 'POST', path, { 'x-api-key': app.root.apiKey, 'content-type': 'application/json', 'content-encoding': coding, 'content-length': String(body.length) }, body as unknown as string);

  it('is 415 with Accept-Encoding: identity, compressed or not, on REST and /graphql; nothing is created; identity is plain JSON', async () => {
    const json = JSON.stringify({ key: 'coded:gzip' });
    for (const [coding, body] of [['gzip', gzipSync(json)], ['gzip', json], ['br', json], ['identity, gzip', json]] as const) {
      const refused = await post('/api/v1/permissions', coding, body);
      expect(refused.status, `${coding} ${typeof body}`).toBe(415);
      expect(refused.headers['accept-encoding']).toBe('identity');
      expect(JSON.parse(refused.body)).toEqual({ code: 'unsupported_media_type', message: expect.stringContaining(`Content-Encoding ${coding.replace('identity, ', '')}`) });
      const graphql = await post('/graphql', coding, JSON.stringify({ query: 'mutation { createPermission(input: {key: "coded:graphql"}) { id } }' }));
      expect(graphql.status).toBe(415);
      expect(JSON.parse(graphql.body).errors?.[0]?.extensions).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    }
    const keys = (await app.http.get('/permissions?pageSize=100')).body.data.map((permission: { key: string }) => permission.key);
    expect(keys.filter((key: string) => key.startsWith('coded:'))).toEqual([]);
    expect((await post('/api/v1/permissions', 'identity', json)).status).toBe(201);
  });
});
