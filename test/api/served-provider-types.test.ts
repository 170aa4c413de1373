import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar } from '../support/cookie-jar.ts';
import { HttpClient } from '../support/http.ts';
import { codeAuthorizationUrl, createTestClient } from '../support/oauth.ts';
import { passwordProviderId } from '../support/auth-providers.ts';

/**
 * No dead ends: every provider type is served (the last, `passkey`, by src/domain/webauthn/), so the hosted page offers
 * exactly the methods of the scope's providers, an application whose only provider is a passkey provider its passkey
 * button and no password form. And the session policy's refusals.
 */
const REDIRECT = 'https://app.example/callback';
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

/** The hosted page an authorization request of the application's web client reaches (`tenant`: the request's). */
async function signInPage(application: BootstrapResult, tenant?: string): Promise<{ status: number; body: string }> {
  const { clientId } = await createTestClient(app, { type: 'web', applicationId: application.applicationId, redirectUris: [REDIRECT] });
  const jar = new CookieJar();
  const issuer = app.gatehouse.services.config.publicUrl;
  const start = await jar.visit(codeAuthorizationUrl(issuer, clientId, REDIRECT, tenant === undefined ? {} : { tenant }));
  expect(start.location).toContain('/interaction/');
  return jar.visit(start.location!);
}

describe('every provider type is served', () => {
  it('an application whose only provider is a passkey provider offers passkeys and no password, to its tenants too', async () => {
    const application = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: application.apiKey });
    const tenant = await app.createTenant('Passkeys only', application);
    expect((await admin.post('/auth-providers', { type: 'passkey' })).status).toBe(201);
    expect((await admin.delete(`/auth-providers/${await passwordProviderId(admin)}`)).status).toBe(204);
    for (const page of [await signInPage(application), await signInPage(application, tenant)]) {
      expect(page.status).toBe(200);
      expect(page.body).toContain('Sign in with a passkey');
      expect(page.body).not.toContain('name="password"');
    }
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
