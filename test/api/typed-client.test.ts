import { readFileSync } from 'node:fs';
import { createGatehouseClient } from '@gatehouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClientTypes, SCHEMA_FILE } from '../../packages/client/generate.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('typed client (packages/client)', () => {
  it('is generated from the OpenAPI document as it is now: run `npm run client:generate` when this fails', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === (await generateClientTypes()), 'packages/client/src/schema.ts is stale').toBe(true);
  });

  it('creates and reads through the management API, and reads its refusals in the contract’s body', async () => {
    const gatehouse = createGatehouseClient({ baseUrl: app.baseUrl, apiKey: app.root.apiKey });
    const appId = app.root.applicationId;
    const tenant = await gatehouse.POST('/applications/{appId}/tenants', { params: { path: { appId } }, body: { name: 'Typed', slug: 'typed' } });
    expect(tenant.response.status).toBe(201);
    const tenantId = tenant.data!.id;
    const user = await gatehouse.POST('/applications/{appId}/tenants/{tenantId}/users', {
      params: { path: { appId, tenantId } },
      body: { email: 'typed@example.com', name: 'Typed' },
    });
    expect(user.response.status).toBe(201);
    const listed = await gatehouse.GET('/applications/{appId}/tenants/{tenantId}/users', { params: { path: { appId, tenantId }, query: { pageSize: 10 } } });
    expect(listed.data?.data.map((member) => member.email)).toEqual(['typed@example.com']);
    const byIds = await gatehouse.GET('/users', { params: { query: { ids: [user.data!.id, tenantId] } } });
    expect(byIds.data?.data.map((member) => member.id)).toEqual([user.data!.id]);

    const refused = await gatehouse.GET('/users/{userId}', { params: { path: { userId: 'nope' } } });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual({ code: 'validation_error', message: 'Invalid userId: expected a UUIDv7 (Gatehouse ids are UUIDv7)', field: 'userId' });

    const stranger = createGatehouseClient({ baseUrl: app.baseUrl, apiKey: 'ghk_unknown' });
    const unauthenticated = await stranger.GET('/users', {});
    expect(unauthenticated.response.status).toBe(401);
    expect(unauthenticated.error?.code).toBe('unauthenticated');
  });
});
