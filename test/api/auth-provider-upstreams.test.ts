import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { passwordProviderId } from '../support/auth-providers.ts';

/**
 * What an `oauth` provider shows of its upstream registration (`callbackUrl`, read-only, REST and GraphQL), and the
 * rule on its upstream URLs: https, and http on loopback only with GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS; those the
 * service connects to at no internal address but loopback with that switch, or any with UPSTREAM_ALLOW_PRIVATE_HOSTS.
 */
let strict: TestApp;
let loopback: TestApp;
let privateHosts: TestApp;

const generic = (urls: Record<string, string>) => ({ type: 'oauth', name: `SSO ${Object.values(urls)[0]}`, config: { provider: 'generic', clientId: 'gatehouse', ...urls }, secrets: { clientSecret: 's' } });

beforeAll(async () => {
  strict = await startTestApp();
  loopback = await startTestApp({ upstreams: { allowLoopback: true, allowPrivateHosts: false, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } });
  privateHosts = await startTestApp({ upstreams: { allowLoopback: false, allowPrivateHosts: true, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } });
});
afterAll(async () => {
  await strict?.close();
  await loopback?.close();
  await privateHosts?.close();
});

const INTERNAL_MESSAGE = 'may not be at a loopback, private, link-local or other internal address';
/** Internal addresses of every kind the guard knows, and the names of this machine. */
const LOOPBACK_HOSTS = ['127.0.0.1:8443', '127.1', 'localhost', 'idp.localhost', '[::1]', '[::ffff:127.0.0.1]'];
const PRIVATE_HOSTS = ['10.0.0.1', '172.16.0.1', '192.168.1.1', '169.254.169.254', '[::ffff:169.254.169.254]', '100.64.0.1', '0.0.0.0', '[fd00::1]', '[fe80::1]'];

/** The fields the service connects to, each set to `https://{host}…` on its own: `accepted`, `refused` (naming the field), or the status. */
async function outcomesAt(app: TestApp, hosts: readonly string[]): Promise<Set<string>> {
  const tries = (host: string): [string, Record<string, string>][] => [
    ['config.issuer', { issuer: `https://${host}/` }],
    ['config.tokenUrl', { authorizationUrl: 'https://idp.example.com/a', tokenUrl: `https://${host}/token`, userInfoUrl: 'https://idp.example.com/u' }],
    ['config.userInfoUrl', { authorizationUrl: 'https://idp.example.com/a', tokenUrl: 'https://idp.example.com/t', userInfoUrl: `https://${host}/userinfo` }],
  ];
  const outcomes = new Set<string>();
  for (const host of hosts) {
    for (const [field, urls] of tries(host)) {
      const answer = await app.http.post('/auth-providers', generic(urls));
      const refused = answer.status === 422 && answer.body.field === field && answer.body.message === `${field} ${INTERNAL_MESSAGE}`;
      outcomes.add(answer.status === 201 ? 'accepted' : refused ? 'refused' : `${field} ${host}: ${answer.status}`);
    }
  }
  return outcomes;
}

const genericProviders = async (app: TestApp) =>
  ((await app.http.get('/auth-providers?pageSize=100')).body.data as { config: { provider?: string } }[]).filter((provider) => provider.config.provider === 'generic');

describe('callbackUrl', () => {
  it('is the provider’s fixed callback on PUBLIC_URL, in REST and GraphQL, null for other types, and not writable', async () => {
    const google = await strict.http.post('/auth-providers', { type: 'oauth', config: { provider: 'google', clientId: 'g' }, secrets: { clientSecret: 's' } });
    expect(google.status).toBe(201);
    expect(google.body.callbackUrl).toBe(`http://gatehouse.test/auth/callback/${google.body.id}`);
    expect((await strict.http.get(`/auth-providers/${google.body.id}`)).body.callbackUrl).toBe(google.body.callbackUrl);
    const graphql = await strict.http.graphql('query($id: UUID!) { authProvider(providerId: $id) { callbackUrl } }', { id: google.body.id });
    expect(graphql.body.data).toEqual({ authProvider: { callbackUrl: google.body.callbackUrl } });

    const password = await strict.http.get(`/auth-providers/${await passwordProviderId(strict.http)}`);
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
    expect(await genericProviders(strict)).toEqual([]);
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

  it('at an internal address (loopback, private, link-local, IPv4-mapped, unique-local) or a localhost name: refused (422 naming the field), nothing stored', async () => {
    expect(await outcomesAt(strict, [...LOOPBACK_HOSTS, ...PRIVATE_HOSTS])).toEqual(new Set(['refused']));
    expect(await genericProviders(strict)).toEqual([]);
    const saved = await strict.http.post('/auth-providers', generic({ issuer: 'https://idp.example.com' }));
    const moved = await strict.http.patch(`/auth-providers/${saved.body.id}`, { config: { issuer: 'https://169.254.169.254/' } });
    expect(moved.body).toMatchObject({ code: 'validation_error', field: 'config.issuer', message: `config.issuer ${INTERNAL_MESSAGE}` });
    expect((await strict.http.get(`/auth-providers/${saved.body.id}`)).body.config.issuer).toBe('https://idp.example.com/');
    expect((await strict.http.delete(`/auth-providers/${saved.body.id}`)).status).toBe(204);
  });

  it('the authorization URL, which only the browser follows, is not held to it', async () => {
    const created = await strict.http.post('/auth-providers', generic({ authorizationUrl: 'https://10.0.0.1/a', tokenUrl: 'https://idp.example.com/t', userInfoUrl: 'https://idp.example.com/u' }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await strict.http.delete(`/auth-providers/${created.body.id}`)).status).toBe(204);
  });

  it('GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS opens loopback and localhost, no other internal address; UPSTREAM_ALLOW_PRIVATE_HOSTS opens all, over https', async () => {
    expect(await outcomesAt(loopback, LOOPBACK_HOSTS)).toEqual(new Set(['accepted']));
    expect(await outcomesAt(loopback, PRIVATE_HOSTS)).toEqual(new Set(['refused']));
    expect(await outcomesAt(privateHosts, [...LOOPBACK_HOSTS, ...PRIVATE_HOSTS])).toEqual(new Set(['accepted']));
    const plain = await privateHosts.http.post('/auth-providers', generic({ issuer: 'http://10.0.0.1/' }));
    expect(plain.body).toMatchObject({ code: 'validation_error', field: 'config.issuer', message: 'config.issuer must be an https URL without credentials or fragment' });
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
