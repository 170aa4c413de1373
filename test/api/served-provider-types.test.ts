import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthProvider } from '../../src/db/entities/index.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { parseConfig } from '../../src/domain/auth-providers/config.ts';
import { newId } from '../../src/ids.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';

/**
 * No dead ends (src/domain/sign-in/methods.ts): a provider type the hosted sign-in cannot sign anyone in with yet
 * (`passkey`) is refused when configured, and one stored before is not counted, so the hosted page offers exactly the
 * methods that work: an application (or an isolated tenant) whose only provider is such a type signs in as one with
 * none, with the built-in password default. And the session policy's refusals.
 */
const REDIRECT = 'https://app.example/callback';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

const refusal = { code: 'validation_error', field: 'type', message: expect.stringContaining('passkey providers are not served yet') };

/** A provider row as stored before its type was refused (straight through the entity, as no route writes it now). */
async function storedPasskey(applicationId: string, tenantId: string | null): Promise<string> {
  const em = app.gatehouse.services.orm.em.fork();
  const row = em.create(AuthProvider, { applicationId, id: newId(), tenantId, type: 'passkey', name: 'Passkeys', enabled: true, config: parseConfig('passkey', {}), secrets: null });
  await em.flush();
  return row.id;
}

/** The hosted page an authorization request of the application's web client reaches (`tenant`: the request's). */
async function signInPage(application: BootstrapResult, tenant?: string): Promise<{ status: number; body: string }> {
  const { clientId } = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT] });
  const jar = new CookieJar();
  const issuer = app.gatehouse.services.config.publicUrl;
  const start = await jar.visit(codeAuthorizationUrl(issuer, clientId, REDIRECT, tenant === undefined ? {} : { tenant }));
  expect(start.location).toContain('/interaction/');
  return jar.visit(start.location!);
}

describe('a provider type not served yet', () => {
  it('is refused at creation, on the application and on an isolated tenant, over REST and GraphQL; nothing is created', async () => {
    const application = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    const tenant = await app.createTenant('Isolated', application);
    expect((await admin.patch(`/applications/${application.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    for (const path of ['/auth-providers', `/applications/${application.applicationId}/tenants/${tenant}/auth-providers`]) {
      const refused = await admin.post(path, { type: 'passkey', config: { rpId: 'login.example.com' } });
      expect(refused.status, path).toBe(422);
      expect(refused.body, path).toMatchObject(refusal);
      expect((await admin.get(path)).body.data, path).toEqual([]);
    }
    const graphql = await admin.graphql('mutation { createAuthProvider(input: { type: passkey }) { id } }');
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'type' });
    // The served ones are still taken.
    expect((await admin.post('/auth-providers', { type: 'password' })).status).toBe(201);
  });

  it('stored before: a PATCH is refused and changes nothing; it may be deleted', async () => {
    const application = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    const id = await storedPasskey(application.applicationId, null);
    const before = (await admin.get(`/auth-providers/${id}`)).body;
    const refused = await admin.patch(`/auth-providers/${id}`, { enabled: false });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject(refusal);
    expect((await admin.get(`/auth-providers/${id}`)).body).toEqual(before);
    expect((await admin.delete(`/auth-providers/${id}`)).status).toBe(204);
  });

  it('stored before, it is not counted: the only provider of an application, its page offers the built-in password sign-in', async () => {
    const application = await app.bootstrapAnother();
    await storedPasskey(application.applicationId, null);
    const page = await signInPage(application);
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="password"');
  });

  it('stored before as an isolated tenant’s only own provider: the tenant inherits the application’s methods', async () => {
    const application = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    const tenant = await app.createTenant('Passkeys only', application);
    expect((await admin.patch(`/applications/${application.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    await storedPasskey(application.applicationId, tenant);
    const page = await signInPage(application, tenant);
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="password"');
  });
});

describe('the session policy’s refusals', () => {
  it('out of range, of the wrong type or incoherent: 422 naming the field, nothing stored', async () => {
    const before = (await app.http.get('/policies/session')).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ idleTimeoutMinutes: 4 }, 'idleTimeoutMinutes'],
      [{ absoluteTimeoutMinutes: 365 * 24 * 60 + 1 }, 'absoluteTimeoutMinutes'],
      [{ idleTimeoutMinutes: 90, absoluteTimeoutMinutes: 60 }, 'idleTimeoutMinutes'],
      [{ singleSession: 'yes' }, 'singleSession'],
      [{ notifyNewBrowser: null }, 'notifyNewBrowser'],
    ];
    for (const [body, field] of cases) {
      const refused = await app.http.put('/policies/session', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/policies/session')).body).toEqual(before);
  });

  it('a tenant’s own needs authIsolation = isolated: 409 on a shared application', async () => {
    const tenant = await app.createTenant('Shared');
    const refused = await app.http.put(`/applications/${app.root.applicationId}/tenants/${tenant}/policies/session`, { idleTimeoutMinutes: 30 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled' });
  });
});
