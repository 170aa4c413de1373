import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * What an `oauth` provider shows of its upstream registration (`callbackUrl`, read-only, REST and GraphQL), and the
 * rule on its upstream URLs: https, and http on loopback only with GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS.
 */
let strict: TestApp;
let loopback: TestApp;

const generic = (urls: Record<string, string>) => ({ type: 'oauth', name: `SSO ${Object.values(urls)[0]}`, config: { provider: 'generic', clientId: 'gatehouse', ...urls }, secrets: { clientSecret: 's' } });

beforeAll(async () => {
  strict = await startTestApp();
  loopback = await startTestApp({ upstreams: { allowLoopback: true, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } });
});
afterAll(async () => {
  await strict?.close();
  await loopback?.close();
});

describe('callbackUrl', () => {
  it('is the provider’s fixed callback on PUBLIC_URL, in REST and GraphQL, null for other types, and not writable', async () => {
    const google = await strict.http.post('/auth-providers', { type: 'oauth', config: { provider: 'google', clientId: 'g' }, secrets: { clientSecret: 's' } });
    expect(google.status).toBe(201);
    expect(google.body.callbackUrl).toBe(`http://gatehouse.test/auth/callback/${google.body.id}`);
    expect((await strict.http.get(`/auth-providers/${google.body.id}`)).body.callbackUrl).toBe(google.body.callbackUrl);
    const graphql = await strict.http.graphql('query($id: UUID!) { authProvider(providerId: $id) { callbackUrl } }', { id: google.body.id });
    expect(graphql.body.data).toEqual({ authProvider: { callbackUrl: google.body.callbackUrl } });

    const password = await strict.http.post('/auth-providers', { type: 'password' });
    expect(password.body.callbackUrl).toBeNull();

    const written = await strict.http.patch(`/auth-providers/${google.body.id}`, { callbackUrl: 'https://evil.example/cb' });
    expect(written.status).toBe(422);
    expect((await strict.http.get(`/auth-providers/${google.body.id}`)).body.callbackUrl).toBe(google.body.callbackUrl);
  });

  it('is under the tenant’s own surface for an isolated tenant’s provider; a tenant inheriting sees the application’s', async () => {
    const appPath = `/applications/${strict.root.applicationId}`;
    const own = await strict.createTenant('Own');
    const inheriting = await strict.createTenant('Inheriting');
    expect((await strict.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const created = await strict.http.post(`${appPath}/tenants/${own}/auth-providers`, { type: 'oauth', config: { provider: 'github', clientId: 'gh' }, secrets: { clientSecret: 's' } });
    expect(created.status).toBe(201);
    expect(created.body.callbackUrl).toBe(`http://gatehouse.test/t/${own}/auth/callback/${created.body.id}`);
    const inherited = (await strict.http.get(`${appPath}/tenants/${inheriting}/auth-providers?pageSize=100`)).body.data as { id: string; callbackUrl: string | null; source: string }[];
    const google = inherited.find((provider) => provider.callbackUrl !== null)!;
    expect(google).toMatchObject({ source: 'inherited', callbackUrl: `http://gatehouse.test/auth/callback/${google.id}` });
  });
});

describe('upstream URLs', () => {
  it('must be https; http on loopback is refused without GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS, and nothing is stored', async () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://idp.example.com']) {
      const refused = await strict.http.post('/auth-providers', generic({ issuer }));
      expect(refused.status, issuer).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'config.issuer' });
      expect(refused.body.message).toBe('config.issuer must be an https URL without credentials or fragment');
    }
    const explicit = await strict.http.post('/auth-providers', generic({ authorizationUrl: 'https://idp.example.com/a', tokenUrl: 'http://127.0.0.1/t', userInfoUrl: 'https://idp.example.com/u' }));
    expect(explicit.body).toMatchObject({ code: 'validation_error', field: 'config.tokenUrl' });
    const listed = (await strict.http.get('/auth-providers?pageSize=100')).body.data as { config: { provider?: string } }[];
    expect(listed.filter((provider) => provider.config.provider === 'generic')).toEqual([]);
  });

  it('with GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS=true, http on a loopback address is accepted, and on any other host still refused', async () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000']) {
      const created = await loopback.http.post('/auth-providers', generic({ issuer }));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.config.issuer).toBe(`${issuer}/`);
    }
    for (const issuer of ['http://idp.example.com', 'http://10.0.0.1', 'ftp://127.0.0.1']) {
      const refused = await loopback.http.post('/auth-providers', generic({ issuer }));
      expect(refused.body, issuer).toMatchObject({ code: 'validation_error', field: 'config.issuer' });
      expect(refused.body.message).toBe('config.issuer must be an https URL (or http on a loopback address) without credentials or fragment');
    }
  });

  it('a generic provider has an issuer (discovery) or its three endpoints, not both', async () => {
    const both = await strict.http.post('/auth-providers', generic({ issuer: 'https://idp.example.com', authorizationUrl: 'https://idp.example.com/a' }));
    expect(both.body).toMatchObject({ code: 'validation_error', field: 'config.authorizationUrl' });
    const noUserInfo = await strict.http.post('/auth-providers', generic({ authorizationUrl: 'https://idp.example.com/a', tokenUrl: 'https://idp.example.com/t' }));
    expect(noUserInfo.body).toMatchObject({ code: 'validation_error', field: 'config.userInfoUrl' });
    const discovered = await strict.http.post('/auth-providers', generic({ issuer: 'https://idp.example.com' }));
    expect(discovered.status).toBe(201);
    expect(discovered.body.config).toMatchObject({ issuer: 'https://idp.example.com/', scopes: ['openid', 'email', 'profile'] });
  });

  it('an oauth provider without its secret is refused (422 naming the secret)', async () => {
    const missing = await strict.http.post('/auth-providers', { type: 'oauth', config: { provider: 'microsoft', clientId: 'm' } });
    expect(missing.body).toMatchObject({ code: 'validation_error', field: 'secrets.clientSecret' });
    const created = await strict.http.post('/auth-providers', { type: 'oauth', config: { provider: 'microsoft', clientId: 'm' }, secrets: { clientSecret: 's' } });
    const removed = await strict.http.patch(`/auth-providers/${created.body.id}`, { secrets: { clientSecret: null } });
    expect(removed.body).toMatchObject({ code: 'validation_error', field: 'secrets.clientSecret' });
  });
});
