import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { authorizationData } from '../support/authorization.ts';
import { REDIRECT_URI, startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';
import { basicAuth, createTestClient, discover, postForm, type TestClient } from '../support/oauth.ts';
import { isolatedApplication, type IsolatedApplication } from '../support/surface-sign-in.ts';

/** RFC 7662 at /oauth2/introspect: the application's confidential clients learn about every token the service issued. */
const PASSWORD = 'Correct-Horse-9';
const API = 'https://reports.example.com/api';

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let tenantA: string;
let tenantB: string;
let userId: string;
let web: TestClient;

const introspect = (caller: TestClient, token: string) =>
  postForm(`${issuer}/oauth2/introspect`, { token }, { authorization: basicAuth(caller.clientId, caller.clientSecret!) });

async function signIn(resource: string, scope = 'openid email') {
  return (await hosted.signIn({ email: 'ivy@example.com', password: PASSWORD }, { resource, tenant: tenantA, scope, prompt: 'consent' })).tokens;
}

beforeAll(async () => {
  hosted = await startHostedTestApp();
  ({ app, issuer, client: web } = hosted);
  tenantA = await app.createTenant('A');
  tenantB = await app.createTenant('B');
  const data = authorizationData(app);
  await data.permission('reports:read');
  expect((await app.http.post('/api-resources', { identifier: API, name: 'Reports', permissions: ['reports:read'] })).status).toBe(201);
  userId = (await app.http.post('/users', { email: 'ivy@example.com', password: PASSWORD, tenantId: tenantA })).body.id;
  await data.assign({ type: 'user', id: userId }, await data.role('reader', ['reports:read']), tenantA);
});
afterAll(async () => hosted?.close());

describe('introspection', () => {
  it('is advertised in discovery, for confidential client authentication', async () => {
    const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
    expect(metadata.introspection_endpoint).toBe(`${issuer}/oauth2/introspect`);
    expect(metadata.introspection_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'private_key_jwt']);
  });

  it('answers for an API resource’s JWT, a management API JWT, an opaque access token and a refresh token', async () => {
    const resource = await signIn(API, 'openid offline_access');
    const answer = await introspect(web, resource.access_token);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ active: true, iss: issuer, aud: API, sub: userId, client_id: web.clientId, tenant_id: tenantA, roles: ['reader'], permissions: ['reports:read'], scope: 'reports:read', token_type: 'Bearer' });
    const refresh = await introspect(web, resource.refresh_token!);
    expect(refresh.body).toMatchObject({ active: true, sub: userId, client_id: web.clientId });
    const management = await signIn(`${issuer}/api/v1`);
    expect((await introspect(web, management.access_token)).body).toMatchObject({ active: true, aud: `${issuer}/api/v1`, sub: userId });
    const userinfo = await signIn('');
    expect((await introspect(web, userinfo.access_token)).body).toMatchObject({ active: true, sub: userId, scope: 'openid email' });
  });

  it('after the client’s managementApi is turned off: its management API token is inactive, its other tokens stay active', async () => {
    const resource = await signIn(API, 'openid offline_access');
    const management = await signIn(`${issuer}/api/v1`);
    const userinfo = await signIn('');
    const managementApi = async (on: boolean) => expect((await app.http.patch(`/oauth-clients/${web.clientId}`, { managementApi: on })).status).toBe(200);
    const valid = async (token: string) => (await app.http.post('/sessions/validate', { token })).body.valid as boolean;
    expect(await valid(management.access_token)).toBe(true);
    await managementApi(false);
    expect((await introspect(web, management.access_token)).body).toEqual({ active: false });
    // Nor is it valid (the answer just kept is forgotten): the token works nowhere any more.
    expect(await valid(management.access_token)).toBe(false);
    for (const token of [resource.access_token, resource.refresh_token!, userinfo.access_token]) {
      expect((await introspect(web, token)).body).toMatchObject({ active: true, sub: userId });
      expect(await valid(token)).toBe(true);
    }
    await managementApi(true);
    expect(await valid(management.access_token)).toBe(true);
  });

  it('answers for a client-credentials token to another confidential client of the application', async () => {
    const credential = await createTestClient(app, { permissions: ['users:read'] });
    const tokens = await oidc.clientCredentialsGrant(await discover(app, credential.clientId, oidc.ClientSecretBasic(credential.clientSecret)), { resource: API });
    expect((await introspect(web, tokens.access_token)).body).toMatchObject({ active: true, sub: credential.clientId, aud: API, permissions: [] });
    // The credential itself may introspect (it is confidential).
    expect((await introspect(credential, tokens.access_token)).body.active).toBe(true);
  });

  it('a client of another application or of another tenant learns nothing; a public client is 401 invalid_client', async () => {
    const tokens = await signIn(API, 'openid offline_access');
    const other = await app.bootstrapAnother();
    const foreign = await createTestClient(app, { type: 'web', applicationId: other.applicationId, redirectUris: [REDIRECT_URI] });
    const otherTenant = await createTestClient(app, { type: 'web', tenantId: tenantB, redirectUris: [REDIRECT_URI] });
    const sameTenant = await createTestClient(app, { type: 'web', tenantId: tenantA, redirectUris: [REDIRECT_URI] });
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      expect((await introspect(foreign, token)).body).toEqual({ active: false });
      expect((await introspect(otherTenant, token)).body).toEqual({ active: false });
      expect((await introspect(sameTenant, token)).body.active).toBe(true);
    }
    const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [REDIRECT_URI] });
    // RFC 7662 2.1: the caller authenticates; a public client cannot (discovery lists no `none`), whatever the token.
    for (const token of [tokens.access_token, 'not-a-token']) {
      const publicAnswer = await postForm(`${issuer}/oauth2/introspect`, { token, client_id: spa.clientId });
      expect(publicAnswer.status).toBe(401);
      expect(publicAnswer.body).toMatchObject({ error: 'invalid_client' });
      expect(publicAnswer.headers.get('www-authenticate')).toMatch(/^Basic realm=.*error="invalid_client"/);
    }
  });

  it('a token whose user left the tenant, a forged or unknown token is inactive; no client authentication is 401', async () => {
    const forged = `${(await signIn(API)).access_token.slice(0, -4)}AAAA`;
    expect((await introspect(web, forged)).body).toEqual({ active: false });
    expect((await introspect(web, 'not-a-token')).body).toEqual({ active: false });
    expect((await postForm(`${issuer}/oauth2/introspect`, { token: 'x' })).status).toBe(401);
    const tokens = await signIn(API, 'openid offline_access');
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantB] })).status).toBe(200);
    expect((await introspect(web, tokens.access_token)).body).toEqual({ active: false });
    expect((await introspect(web, tokens.refresh_token!)).body).toEqual({ active: false });
    expect((await app.http.patch(`/users/${userId}`, { tenantIds: [tenantA] })).status).toBe(200);
  });
});

describe('introspection on a sign-in surface: active only where the token could be used (docs/decisions.md, "Sign-in surfaces")', () => {
  let isolated: IsolatedApplication;
  const pathOf = (ref: string) => `${issuer}/t/${ref}`;
  const domainOf = (hostname: string) => `http://${hostname}`;
  const answersOf = async (surface: string, tokens: { accessToken: string; refreshToken: string }) =>
    Promise.all([tokens.accessToken, tokens.refreshToken].map((token) => isolated.introspect(surface, token)));

  beforeAll(async () => {
    isolated = await isolatedApplication(app);
  });

  it('a tenant’s slug given to another tenant: the new owner’s path answers inactive for the first tenant’s tokens', async () => {
    const west = await isolated.tenantWithUser('west', 'wes@example.com');
    const tokens = await isolated.signIn(pathOf('west'), 'wes@example.com');
    for (const answer of await answersOf(pathOf('west'), tokens)) expect(answer).toMatchObject({ active: true, sub: expect.any(String) });
    await isolated.rename(west, 'west-old');
    await isolated.tenantWithUser('west', 'wendy@example.com');
    expect(await answersOf(pathOf('west'), tokens)).toEqual([{ active: false }, { active: false }]);
  });

  it('a renamed tenant: the tokens of its id path stay active there, its new path’s are active there', async () => {
    const east = await isolated.tenantWithUser('east', 'eve@example.com');
    const byId = await isolated.signIn(pathOf(east), 'eve@example.com');
    await isolated.rename(east, 'east-new');
    const byNewSlug = await isolated.signIn(pathOf('east-new'), 'eve@example.com');
    for (const answer of await answersOf(pathOf(east), byId)) expect(answer).toMatchObject({ active: true, iss: pathOf(east) });
    for (const answer of await answersOf(pathOf('east-new'), byNewSlug)) expect(answer).toMatchObject({ active: true });
    expect((await answersOf(pathOf('east-new'), byNewSlug))[0]).toMatchObject({ tenant_id: east });
  });

  it('a tenant’s domain deleted, then verified for another tenant: inactive there for the first tenant’s tokens, active for the new owner’s', async () => {
    const hostname = 'login.moved.example';
    const north = await isolated.tenantWithUser('north', 'nora@example.com');
    const south = await isolated.tenantWithUser('south', 'sam@example.com');
    const domain = await isolated.addDomain(hostname, north);
    const tokens = await isolated.signIn(domainOf(hostname), 'nora@example.com');
    for (const answer of await answersOf(domainOf(hostname), tokens)) expect(answer).toMatchObject({ active: true });
    await isolated.deleteDomain(domain, north);
    // Deleted: the host is the service's issuer again, which issued neither.
    expect(await answersOf(domainOf(hostname), tokens)).toEqual([{ active: false }, { active: false }]);
    await isolated.addDomain(hostname, south);
    expect(await answersOf(domainOf(hostname), tokens)).toEqual([{ active: false }, { active: false }]);
    const southTokens = await isolated.signIn(domainOf(hostname), 'sam@example.com');
    for (const answer of await answersOf(domainOf(hostname), southTokens)) expect(answer).toMatchObject({ active: true });
  });

  it('the application’s domain and the service’s surface, which fix no tenant: active for the tenant the sign-in named', async () => {
    const hostname = 'login.application.example';
    const central = await isolated.tenantWithUser('central', 'cal@example.com');
    await isolated.addDomain(hostname);
    for (const surface of [domainOf(hostname), issuer]) {
      const tokens = await isolated.signIn(surface, 'cal@example.com', central);
      const [access, refresh] = await answersOf(surface, tokens);
      expect(access).toMatchObject({ active: true, iss: surface, tenant_id: central });
      expect(refresh).toMatchObject({ active: true });
    }
  });
});
