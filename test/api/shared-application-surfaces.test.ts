import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { HttpClient } from '../support/http.ts';
import { basicAuth, createTestClient, mintSurfaceToken, postForm, type TestClient } from '../support/oauth.ts';

/**
 * Spec, tenancy rule 6: with `authIsolation = shared` there is one sign-in surface; a tenant's own surface (its path,
 * `/t/{tenant}`) is part of `isolated` (rule 7; docs/decisions.md, "Sign-in surfaces").
 */
const REDIRECT_URI = 'https://app.example/callback';

let app: TestApp;
let service: string;
let shared: BootstrapResult;
let sharedTenant: string;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  service = app.gatehouse.services.config.publicUrl;
  shared = await app.bootstrapAnother();
  const created = await new HttpClient(app.baseUrl, { apiKey: shared.apiKey }).post(`/applications/${shared.applicationId}/tenants`, {
    name: 'Shared Co',
    slug: 'audit-shared-co',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  sharedTenant = created.body.id;
  client = await createTestClient(app, { type: 'web', applicationId: shared.applicationId, redirectUris: [REDIRECT_URI] });
});
afterAll(async () => app?.close());

const authorizeAt = (issuer: string, of: TestClient) =>
  `${issuer}/oauth2/authorize?${new URLSearchParams({ client_id: of.clientId, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`;

describe('tenant path surfaces while authIsolation is shared', () => {
  it('a shared application’s tenant has no path surface: no discovery, no sign-in, no tokens of that issuer', async () => {
    for (const ref of ['audit-shared-co', sharedTenant]) {
      expect((await fetch(`${service}/t/${ref}/.well-known/openid-configuration`)).status, ref).toBe(404);
      // The browser gets the unknown-tenant page, not a sign-in of that tenant.
      const authorization = await fetch(authorizeAt(`${service}/t/${ref}`, client), { redirect: 'manual' });
      expect(authorization.status, ref).toBe(400);
    }
    // An application-wide M2M credential gets no token of the tenant's path there: there is no such surface (404).
    const m2m = await new HttpClient(app.baseUrl, { apiKey: shared.apiKey }).post(`/applications/${shared.applicationId}/m2m-credentials`, {
      name: 'audit',
      permissions: ['users:read'],
      authMethod: 'client_secret_basic',
    });
    expect(m2m.status, JSON.stringify(m2m.body)).toBe(201);
    const granted = await postForm(`${service}/t/${sharedTenant}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(m2m.body.clientId, m2m.body.clientSecret) });
    expect(granted.status, JSON.stringify(granted.body)).toBe(404);
    expect(granted.body.access_token).toBeUndefined();
    // And the management API takes no token naming that issuer.
    const token = await mintSurfaceToken(app, `${service}/t/audit-shared-co`, { app_id: shared.applicationId, tenant_id: sharedTenant, permissions: ['users:read'] });
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(401);
  });

  it('switching isolated → shared ends the tenants’ path surfaces', async () => {
    const other = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: other.apiKey });
    const created = await admin.post(`/applications/${other.applicationId}/tenants`, { name: 'Switching Co', slug: 'audit-switching-co' });
    expect(created.status).toBe(201);
    const tenantId = created.body.id as string;
    const patch = (authIsolation: string) => admin.patch(`/applications/${other.applicationId}`, { tenancyConfig: { authIsolation } });
    expect((await patch('isolated')).status).toBe(200);
    const issuer = `${service}/t/audit-switching-co`;
    expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(200);
    const token = await mintSurfaceToken(app, issuer, { app_id: other.applicationId, tenant_id: tenantId, permissions: ['users:read'] });
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(200);
    expect((await patch('shared')).status).toBe(200);
    expect((await fetch(`${issuer}/.well-known/openid-configuration`)).status).toBe(404);
    expect((await app.as({ bearer: token }).get('/users')).status).toBe(401);
  });
});
