import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { secondInstance, settled, TWO_INSTANCES } from '../support/second-instance.ts';

/**
 * Authorization end to end through its own routes: a role made and assigned with the API grants at once what the
 * check answers and what enforcement obeys, on this instance and (Redis) the next; its revocation and a change of the
 * role's permissions take it back the same way. A cache lifetime of a minute: every refusal after a success below can
 * only come from an invalidation.
 */
let app: TestApp;
let keyId: string;
let keySecret: string;

beforeAll(async () => {
  app = await startTestApp({ apiKeyCacheMs: 60_000 });
  const key = await app.http.post('/api-keys', { name: 'reader', permissions: ['users:read'] });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  keyId = key.body.key.id;
  keySecret = key.body.secret;
});
afterAll(async () => app?.close());

let emails = 0;
const createUser = (client: HttpClient) => client.post('/users', { email: `flow-${(emails += 1)}@example.com` });
const check = async () => (await app.http.post('/permissions/check', { subject: { type: 'api_key', id: keyId }, permission: 'users:write' })).body;

describe('a role through the API', () => {
  const second = TWO_INSTANCES ? secondInstance(() => app) : undefined;

  it('grants on assignment, and stops granting on revocation and on a change of the role, on every instance', async () => {
    const key = app.as({ apiKey: keySecret });
    const elsewhere = second === undefined ? undefined : new HttpClient(second.url(), { apiKey: keySecret });
    expect((await createUser(key)).status).toBe(403);
    if (elsewhere !== undefined) expect((await createUser(elsewhere)).status).toBe(403);
    expect(await check()).toEqual({ allowed: false, roles: [] });

    const role = await app.http.post('/roles', { key: 'user_writer', name: 'User writer', permissions: ['users:write'] });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const assignment = await app.http.post('/role-assignments', { subject: { type: 'api_key', id: keyId }, roleId: role.body.id });
    expect(assignment.status, JSON.stringify(assignment.body)).toBe(201);
    expect((await createUser(key)).status).toBe(201);
    expect(await check()).toEqual({ allowed: true, roles: ['user_writer'] });
    if (elsewhere !== undefined) expect(await settled(async () => (await createUser(elsewhere)).status, (status) => status === 201)).toBe(201);

    expect((await app.http.delete(`/role-assignments/${assignment.body.id}`)).status).toBe(204);
    expect((await createUser(key)).status).toBe(403);
    expect(await check()).toEqual({ allowed: false, roles: [] });
    if (elsewhere !== undefined) expect(await settled(async () => (await createUser(elsewhere)).status, (status) => status === 403)).toBe(403);

    expect((await app.http.post('/role-assignments', { subject: { type: 'api_key', id: keyId }, roleId: role.body.id })).status).toBe(201);
    expect((await createUser(key)).status).toBe(201);
    expect((await app.http.patch(`/roles/${role.body.id}`, { permissions: ['users:read'] })).status).toBe(200);
    expect((await createUser(key)).status).toBe(403);
    if (elsewhere !== undefined) expect(await settled(async () => (await createUser(elsewhere)).status, (status) => status === 403)).toBe(403);
  });
});
