import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { acknowledgement, AUDIT_SUBSCRIPTION, eventually, openGraphQLSocket, subscribedRecords as socketRecords, type GraphQLSocket } from '../support/graphql-socket.ts';
import { openSse, recordsOf, type SseStream } from '../support/sse.ts';
import { seedVictim, type Victim } from './fixtures.ts';

/**
 * GET /audit-logs/stream in its three path forms and `subscription { auditLogs }` over Server-Sent Events and WebSocket
 * (outside the route table that routes.test.ts walks): another application's key, a key of the victim's other tenant and
 * no key are refused as the list refuses them, and a stream they may open never carries a record of the victim's tenant,
 * nor resumes after one.
 */
let app: TestApp;
let victim: Victim;
let foreignKey: string;
let otherTenantKey: string;
let tenantB: string;
const streams: SseStream[] = [];
const sockets: GraphQLSocket[] = [];

beforeAll(async () => {
  app = await startTestApp();
  victim = await seedVictim(app);
  const foreign = await app.bootstrapAnother();
  foreignKey = foreign.apiKey;
  const tenants = (await app.http.get(`/applications/${victim.params['appId']}/tenants`)).body.data as { id: string }[];
  tenantB = tenants.find((tenant) => tenant.id !== victim.params['tenantId'])!.id;
  otherTenantKey = (await app.http.post(`/applications/${victim.params['appId']}/tenants/${tenantB}/api-keys`, { name: 'B', permissions: ['audit_logs:read'] })).body.secret as string;
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(sockets.map((socket) => socket.dispose()));
  await app?.close();
});

const open = async (path: string, headers: Record<string, string>) => {
  const stream = await openSse(`${app.baseUrl}/api/v1${path}`, headers);
  streams.push(stream);
  return stream;
};
const SUBSCRIPTION = 'subscription ($appId: UUID, $tenantId: UUID, $after: UUID) { auditLogs(appId: $appId, tenantId: $tenantId, after: $after) { id tenantId target { id } } }';
const subscribe = async (variables: Record<string, unknown>, headers: Record<string, string>) => {
  const stream = await openSse(`${app.baseUrl}/graphql`, headers, { query: SUBSCRIPTION, variables });
  streams.push(stream);
  return stream;
};
const subscribedRecords = (stream: SseStream) =>
  stream.events.filter((event) => event.event === 'next').map((event) => (JSON.parse(event.data) as { data: { auditLogs: { tenantId: string | null; target: { id: string | null } } } }).data.auditLogs);

describe('the audit stream across tenants and applications', () => {
  it('refuses other applications, other tenants and no credentials on every path form', async () => {
    const { appId, tenantId } = victim.params;
    const forms = { application: `/applications/${appId}/audit-logs/stream`, tenant: `/applications/${appId}/tenants/${tenantId}/audit-logs/stream` };
    expect((await open(forms.application, { 'x-api-key': foreignKey })).status).toBe(404);
    expect((await open(forms.tenant, { 'x-api-key': foreignKey })).status).toBe(404);
    expect((await open(forms.tenant, { 'x-api-key': otherTenantKey })).status).toBe(403);
    for (const path of ['/audit-logs/stream', forms.application, forms.tenant]) expect((await open(path, {})).status).toBe(401);
    // Resuming after the victim's record: as if no such record existed.
    const resumed = await open('/audit-logs/stream', { 'x-api-key': otherTenantKey, 'last-event-id': victim.params['recordId']! });
    expect(resumed.status).toBe(422);
    expect((await open('/audit-logs/stream', { 'x-api-key': foreignKey, 'last-event-id': victim.params['recordId']! })).status).toBe(422);
  });

  it('the streams they may open carry none of the victim’s records', async () => {
    const { appId, tenantId } = victim.params;
    const foreignStream = await open('/audit-logs/stream', { 'x-api-key': foreignKey });
    const otherTenantStream = await open('/audit-logs/stream', { 'x-api-key': otherTenantKey });
    const victimWrite = await app.http.post(`/applications/${appId}/tenants/${tenantId}/users`, { email: 'victim-2@example.com' });
    expect(victimWrite.status).toBe(201);
    // A write of tenant B afterwards: once B's stream carried it, the victim's earlier record was read past.
    const marker = await app.http.post(`/applications/${appId}/tenants/${tenantB}/users`, { email: 'marker@example.com' });
    await otherTenantStream.until((stream) => recordsOf(stream).some((record) => record.target.id === marker.body.id), 'tenant B’s own record');
    expect(recordsOf(otherTenantStream).every((record) => record.tenantId === tenantB)).toBe(true);
    expect(recordsOf(foreignStream)).toEqual([]);
    expect(JSON.stringify(otherTenantStream.events)).not.toContain(victimWrite.body.id as string);
  });
});

describe('the audit subscription across tenants and applications', () => {
  it('refuses other applications, other tenants and no credentials in every scope form', async () => {
    const { appId, tenantId } = victim.params;
    expect((await subscribe({ appId }, { 'x-api-key': foreignKey })).status).toBe(404);
    expect((await subscribe({ appId, tenantId }, { 'x-api-key': foreignKey })).status).toBe(404);
    expect((await subscribe({ appId, tenantId }, { 'x-api-key': otherTenantKey })).status).toBe(403);
    for (const variables of [{}, { appId }, { appId, tenantId }]) expect((await subscribe(variables, {})).status).toBe(401);
    expect((await subscribe({ after: victim.params['recordId'] }, { 'x-api-key': otherTenantKey })).status).toBe(422);
    expect((await subscribe({ after: victim.params['recordId'] }, { 'x-api-key': foreignKey })).status).toBe(422);
  });

  it('the subscriptions they may open carry none of the victim’s records', async () => {
    const { appId, tenantId } = victim.params;
    const foreignStream = await subscribe({}, { 'x-api-key': foreignKey });
    const otherTenantStream = await subscribe({}, { 'x-api-key': otherTenantKey });
    const victimWrite = await app.http.post(`/applications/${appId}/tenants/${tenantId}/users`, { email: 'victim-3@example.com' });
    expect(victimWrite.status).toBe(201);
    const marker = await app.http.post(`/applications/${appId}/tenants/${tenantB}/users`, { email: 'marker-2@example.com' });
    await otherTenantStream.until((stream) => subscribedRecords(stream).some((record) => record.target.id === marker.body.id), 'tenant B’s own record');
    expect(subscribedRecords(otherTenantStream).every((record) => record.tenantId === tenantB)).toBe(true);
    expect(subscribedRecords(foreignStream)).toEqual([]);
    expect(JSON.stringify(otherTenantStream.events)).not.toContain(victimWrite.body.id as string);
  });
});

describe('the audit subscription over WebSocket across tenants and applications', () => {
  const socket = async (apiKey: string) => {
    const opened = openGraphQLSocket(`${app.baseUrl.replace(/^http/, 'ws')}/graphql`, { connectionParams: { 'X-API-Key': apiKey } });
    sockets.push(opened);
    await acknowledgement(opened);
    return opened;
  };

  it('refuses the victim’s scopes to other applications and tenants, and carries none of its records to them', async () => {
    const { appId, tenantId } = victim.params;
    const [foreign, otherTenant] = [await socket(foreignKey), await socket(otherTenantKey)];
    const refused = [
      foreign.subscribe(AUDIT_SUBSCRIPTION, { appId }),
      foreign.subscribe(AUDIT_SUBSCRIPTION, { appId, tenantId }),
      otherTenant.subscribe(AUDIT_SUBSCRIPTION, { appId, tenantId }),
      otherTenant.subscribe(AUDIT_SUBSCRIPTION, { after: victim.params['recordId'] }),
    ];
    await eventually(() => refused.every((subscription) => subscription.ended), 'the refusals');
    expect(refused.map((subscription) => subscription.errors?.[0]?.extensions?.['code'])).toEqual(['not_found', 'not_found', 'forbidden', 'validation_error']);
    const foreignStream = foreign.subscribe(AUDIT_SUBSCRIPTION, {});
    const otherTenantStream = otherTenant.subscribe(AUDIT_SUBSCRIPTION, {});
    // Subscribed once a write of the foreign application's own is carried (its stream has started).
    const own = await app.as({ apiKey: foreignKey }).post('/users', { email: 'foreign-own@example.com' });
    expect(own.status).toBe(201);
    await eventually(() => socketRecords(foreignStream.results).some((record) => record.target.id === own.body.id), 'the foreign application’s own record');
    const victimWrite = await app.http.post(`/applications/${appId}/tenants/${tenantId}/users`, { email: 'victim-4@example.com' });
    expect(victimWrite.status).toBe(201);
    const marker = await app.http.post(`/applications/${appId}/tenants/${tenantB}/users`, { email: 'marker-3@example.com' });
    const foreignMarker = await app.as({ apiKey: foreignKey }).post('/users', { email: 'foreign-marker@example.com' });
    await eventually(() => socketRecords(otherTenantStream.results).some((record) => record.target.id === marker.body.id), 'tenant B’s own record');
    await eventually(() => socketRecords(foreignStream.results).some((record) => record.target.id === foreignMarker.body.id), 'the foreign marker');
    expect(socketRecords(otherTenantStream.results).every((record) => record.tenantId === tenantB)).toBe(true);
    for (const subscription of [foreignStream, otherTenantStream]) expect(JSON.stringify(subscription.results)).not.toContain(victimWrite.body.id as string);
  });
});
