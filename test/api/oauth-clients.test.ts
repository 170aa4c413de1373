import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { storedClientSecrets } from '../support/client-secrets.ts';
import { clientWithKey } from '../support/keys.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

const WEB = { name: 'Dashboard', type: 'web', redirectUris: ['https://app.example.com/callback'] };
const SPA = { name: 'SPA', type: 'spa', redirectUris: ['https://spa.example.com/cb'] };

async function createClient(body: Record<string, unknown>, path = '/oauth-clients') {
  const created = await app.http.post(path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('OAuth clients', () => {
  it('registers a web client: clientId and a secret shown once, stored only encrypted', async () => {
    const created = await app.http.post('/oauth-clients', { ...WEB, postLogoutRedirectUris: ['https://app.example.com/'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      clientId: created.body.id,
      clientSecret: expect.stringMatching(/^ghs_[A-Za-z0-9_-]{43}$/),
      applicationId: app.root.applicationId,
      tenantId: null,
      name: 'Dashboard',
      type: 'web',
      redirectUris: ['https://app.example.com/callback'],
      postLogoutRedirectUris: ['https://app.example.com/'],
      allowedOrigins: [],
      initiateLoginUri: null,
      tokenEndpointAuthMethod: 'client_secret_basic',
      idTokenSigningAlg: 'ES256',
      managementApi: false,
      hasSecret: true,
      previousSecretExpiresAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { clientSecret, ...client } = created.body;
    const read = await app.http.get(`/oauth-clients/${client.clientId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(client);
    const list = await app.http.get('/oauth-clients?pageSize=100');
    expect(list.body.data).toContainEqual(client);
    for (const body of [read.body, list.body]) expect(JSON.stringify(body)).not.toContain(clientSecret);
    // At rest: only the ciphertext, which opens to the secret the OP will compare.
    expect(JSON.stringify(await app.sql('select * from oauth_client'))).not.toContain(clientSecret);
    expect((await storedClientSecrets(app, client.clientId)).current).toBe(clientSecret);
    const audit = await app.sql<{ action: string; after: unknown }>('select action, after from audit_log where target_id = ?', [client.clientId]);
    expect(audit.map((row) => row.action)).toEqual(['oauth_client.created']);
    expect(JSON.stringify(audit)).not.toContain(clientSecret);
    expect(JSON.stringify(audit)).not.toContain('secretEncrypted');
  });

  it('registers public clients without a secret; web may choose client_secret_post', async () => {
    const spa = await createClient({ ...SPA, redirectUris: ['https://spa.example.com/cb', 'http://localhost:5173/cb'] });
    expect(spa).toMatchObject({ type: 'spa', clientSecret: null, hasSecret: false, tokenEndpointAuthMethod: 'none' });
    const native = await createClient({
      name: 'iOS',
      type: 'native',
      redirectUris: ['com.example.app:/oauth2redirect', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'https://app.example.com/ios'],
    });
    expect(native).toMatchObject({ type: 'native', clientSecret: null, tokenEndpointAuthMethod: 'none' });
    expect(native.redirectUris).toHaveLength(4);
    const device = await createClient({ name: 'TV', type: 'device' });
    expect(device).toMatchObject({ type: 'device', clientSecret: null, redirectUris: [], postLogoutRedirectUris: [] });
    const post = await createClient({ ...WEB, tokenEndpointAuthMethod: 'client_secret_post' });
    expect(post).toMatchObject({ tokenEndpointAuthMethod: 'client_secret_post', hasSecret: true, clientSecret: expect.stringMatching(/^ghs_/) });
    const [row] = await app.sql<{ secret_encrypted: string | null }>('select secret_encrypted from oauth_client where id = ?', [spa.clientId]);
    expect(row?.secret_encrypted).toBeNull();

    for (const [body, field] of [
      [{ ...WEB, tokenEndpointAuthMethod: 'none' }, 'tokenEndpointAuthMethod'],
      [{ ...SPA, tokenEndpointAuthMethod: 'client_secret_basic' }, 'tokenEndpointAuthMethod'],
      [{ ...WEB, tokenEndpointAuthMethod: 'private_key_jwt' }, 'tokenEndpointAuthMethod'],
      [{ ...WEB, type: 'm2m' }, 'type'],
      [{ ...WEB, type: 'implicit' }, 'type'],
      [{ ...WEB, name: '  ' }, 'name'],
      [{ type: 'web', redirectUris: WEB.redirectUris }, 'name'],
      [{ ...WEB, clientSecret: 'mine' }, 'clientSecret'],
    ] as const) {
      const refused = await app.http.post('/oauth-clients', body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('stores redirect URIs in one normal form and refuses what the OAuth security BCP and RFC 8252 forbid', async () => {
    const written = ['https://App.Example.com:8443/cb?x=1', 'https://app.example.com/cb/', 'https://Bücher.example/cb', 'https://app.example.com:8443/cb?x=1'];
    const created = await createClient({ ...WEB, redirectUris: written, postLogoutRedirectUris: ['HTTPS://Bücher.example/out'] });
    // The host a browser goes to (lower case, IDNA's ASCII form): what is shown is what the OP matches.
    expect(created.redirectUris).toEqual(['https://app.example.com:8443/cb?x=1', 'https://app.example.com/cb/', 'https://xn--bcher-kva.example/cb']);
    expect(created.postLogoutRedirectUris).toEqual(['https://xn--bcher-kva.example/out']);
    const clientsBefore = await app.sql<{ count: string }>('select count(*) from oauth_client');

    const refused: [string, string][] = [
      ['web', 'http://app.example.com/cb'],
      ['web', 'https://app.example.com/cb#frag'],
      ['web', 'https://app.example.com/cb#'],
      ['web', 'https://*.example.com/cb'],
      ['web', 'https://app.example.com/*'],
      ['web', '/relative/cb'],
      ['web', 'app.example.com/cb'],
      ['web', 'https://user:pass@app.example.com/cb'],
      ['web', 'https://app.example.com/c b'],
      ['web', 'com.example.app:/cb'],
      ['web', 'javascript:alert(1)'],
      ['web', 'http://localhost.evil.com/cb'],
      ['spa', 'http://192.168.1.10/cb'],
      ['spa', 'data:text/html,hi'],
      ['native', 'http://localhost:8080/cb'],
      ['native', 'http://example.com/cb'],
      ['native', 'myapp:/cb'],
      ['native', 'javascript:alert(1)'],
      ['native', 'com.example.app:/cb#x'],
      ['web', 'https://app\u200b.example.com/cb'],
      ['web', 'https://app.example.com/\u202ebc'],
      ['web', 'https://app.example.com/cb\u200f'],
      ['web', 'https://app.example.com/cb%0D%0ALocation:%20https://evil.example'],
      ['web', 'https://app.example.com/cb?x=%0a'],
      ['web', 'https://app.example.com/café'],
      ['native', 'com.example.app:/cb\u2066'],
    ];
    for (const [type, uri] of refused) {
      const response = await app.http.post('/oauth-clients', { name: 'bad', type, redirectUris: ['https://ok.example.com/cb', uri] });
      expect(response.status, `${type} ${uri}`).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'redirectUris[1]' });
    }
    for (const uri of ['http://evil.example.com/', 'https://app.example.com\u200b/out', 'https://app.example.com/out%0d']) {
      const postLogout = await app.http.post('/oauth-clients', { ...WEB, postLogoutRedirectUris: [uri] });
      expect(postLogout.status, uri).toBe(422);
      expect(postLogout.body.field).toBe('postLogoutRedirectUris[0]');
      const patched = await app.http.patch(`/oauth-clients/${created.clientId}`, { postLogoutRedirectUris: [uri] });
      expect(patched.status, uri).toBe(422);
    }
    expect(await app.sql<{ count: string }>('select count(*) from oauth_client')).toEqual(clientsBefore);
    expect((await app.http.get(`/oauth-clients/${created.clientId}`)).body.postLogoutRedirectUris).toEqual(['https://xn--bcher-kva.example/out']);
    for (const type of ['web', 'spa', 'native']) {
      for (const body of [{ name: 'none', type }, { name: 'empty', type, redirectUris: [] }]) {
        const missing = await app.http.post('/oauth-clients', body);
        expect(missing.status, type).toBe(422);
        expect(missing.body.field).toBe('redirectUris');
      }
    }
    const device = await app.http.post('/oauth-clients', { name: 'TV', type: 'device', redirectUris: ['https://tv.example.com/cb'] });
    expect(device.status).toBe(422);
    expect(device.body.field).toBe('redirectUris');
    const tooMany = await app.http.post('/oauth-clients', { ...WEB, redirectUris: Array.from({ length: 51 }, (_, i) => `https://app.example.com/${i}`) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.field).toBe('redirectUris');
  });

  it('refuses a backslash, or an http(s) URI without `//` before its host, which a browser reads as another URI', async () => {
    const accepted = 'https://app.example.com/callback';
    const created = await createClient({ ...WEB, redirectUris: [accepted], postLogoutRedirectUris: [accepted] });
    expect(created).toMatchObject({ redirectUris: [accepted], postLogoutRedirectUris: [accepted] });
    const clientsBefore = await app.sql<{ count: string }>('select count(*) from oauth_client');
    const refused: [string, string][] = [
      ['web', 'https://app.example.com\\callback'],
      ['web', 'https://app.example.com\\@evil.example/cb'],
      ['web', 'https:app.example.com/cb'],
      ['web', 'https:///app.example.com/cb'],
      ['spa', 'https://spa.example.com/cb\\x'],
      ['native', 'http:127.0.0.1:8080/cb'],
      ['native', 'com.example.app:/cb\\x'],
    ];
    for (const [type, uri] of refused) {
      for (const field of ['redirectUris', 'postLogoutRedirectUris']) {
        const body = { name: 'bad', type, redirectUris: [accepted], [field]: [uri] };
        const response = await app.http.post('/oauth-clients', body);
        expect(response.status, `${type} ${field} ${uri}`).toBe(422);
        expect(response.body).toMatchObject({ code: 'validation_error', field: `${field}[0]` });
        const patched = await app.http.patch(`/oauth-clients/${created.clientId}`, { [field]: [uri] });
        expect(patched.status, `PATCH ${field} ${uri}`).toBe(422);
        expect(patched.body).toMatchObject({ code: 'validation_error', field: `${field}[0]` });
      }
    }
    expect(await app.sql<{ count: string }>('select count(*) from oauth_client')).toEqual(clientsBefore);
    expect((await app.http.get(`/oauth-clients/${created.clientId}`)).body).toMatchObject({ redirectUris: [accepted], postLogoutRedirectUris: [accepted] });
  });

  it('registers a login URI (OIDC initiate_login_uri) in normal form, changes and removes it; the OP has an https one', async () => {
    const { provider } = await app.gatehouse.services.oidc.get();
    const opLoginUri = async (clientId: string) => (await provider.Client.find(clientId))?.initiateLoginUri;
    const client = await createClient({ ...WEB, initiateLoginUri: 'HTTPS://App.Example.com/start?from=gatehouse' });
    expect(client.initiateLoginUri).toBe('https://app.example.com/start?from=gatehouse');
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.initiateLoginUri).toBe('https://app.example.com/start?from=gatehouse');
    expect(await opLoginUri(client.clientId)).toBe('https://app.example.com/start?from=gatehouse');
    // Other changes keep it.
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { name: 'Renamed' })).body.initiateLoginUri).toBe('https://app.example.com/start?from=gatehouse');

    // A development host over http, as redirect URIs may: kept, but not given to the OP, which takes https only.
    const local = await app.http.patch(`/oauth-clients/${client.clientId}`, { initiateLoginUri: 'http://localhost:3000/login' });
    expect(local.status, JSON.stringify(local.body)).toBe(200);
    expect(local.body.initiateLoginUri).toBe('http://localhost:3000/login');
    expect(await opLoginUri(client.clientId)).toBeUndefined();
    const removed = await app.http.patch(`/oauth-clients/${client.clientId}`, { initiateLoginUri: null });
    expect(removed.body.initiateLoginUri).toBeNull();
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.initiateLoginUri).toBeNull();
    const audit = await app.sql<{ before: any; after: any }>(`select before, after from audit_log where target_id = ? and action = 'oauth_client.updated' order by id`, [client.clientId]);
    expect(audit.map((row) => [row.before.initiateLoginUri, row.after.initiateLoginUri])).toEqual([
      ['https://app.example.com/start?from=gatehouse', 'https://app.example.com/start?from=gatehouse'],
      ['https://app.example.com/start?from=gatehouse', 'http://localhost:3000/login'],
      ['http://localhost:3000/login', null],
    ]);

    // Native apps may have one (https); a device's users sign in on the device.
    expect((await createClient({ name: 'iOS', type: 'native', redirectUris: ['com.example.app:/cb'], initiateLoginUri: 'https://app.example.com/ios' })).initiateLoginUri).toBe(
      'https://app.example.com/ios',
    );
    expect((await createClient({ ...SPA })).initiateLoginUri).toBeNull();
  });

  it('refuses a login URI OIDC does not allow (http on a public host, a fragment, not a URL, another scheme) with 422, changing nothing', async () => {
    const client = await createClient({ ...SPA, initiateLoginUri: 'https://spa.example.com/login' });
    const device = await createClient({ name: 'TV', type: 'device' });
    const clientsBefore = await app.sql<{ count: string }>('select count(*) from oauth_client');
    const auditBefore = await app.sql<{ count: string }>('select count(*) from audit_log where target_id = ?', [client.clientId]);
    const refused = [
      'http://spa.example.com/login',
      'http://localhost.evil.example/login',
      'https://spa.example.com/login#start',
      'https://spa.example.com/login#',
      'not a url',
      '/login',
      'spa.example.com/login',
      'javascript:alert(1)',
      'data:text/html,hi',
      'com.example.app:/login',
      'https://user:pass@spa.example.com/login',
      'https://spa.example.com/login%0d%0aSet-Cookie:a=b',
      'https://spa\u200b.example.com/login',
      '',
    ];
    for (const uri of refused) {
      const created = await app.http.post('/oauth-clients', { ...SPA, initiateLoginUri: uri });
      expect(created.status, uri).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'initiateLoginUri' });
      const patched = await app.http.patch(`/oauth-clients/${client.clientId}`, { name: 'Changed', initiateLoginUri: uri });
      expect(patched.status, uri).toBe(422);
      expect(patched.body).toMatchObject({ code: 'validation_error', field: 'initiateLoginUri' });
    }
    for (const [type, body] of [
      ['native', { name: 'iOS', type: 'native', redirectUris: ['com.example.app:/cb'], initiateLoginUri: 'com.example.app:/login' }],
      ['device', { name: 'TV', type: 'device', initiateLoginUri: 'https://tv.example.com/login' }],
    ] as const) {
      const created = await app.http.post('/oauth-clients', body);
      expect(created.status, type).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'initiateLoginUri' });
    }
    expect((await app.http.patch(`/oauth-clients/${device.clientId}`, { initiateLoginUri: 'https://tv.example.com/login' })).body).toMatchObject({ field: 'initiateLoginUri' });
    expect((await app.http.patch(`/oauth-clients/${device.clientId}`, { initiateLoginUri: null })).status).toBe(200);

    expect(await app.sql<{ count: string }>('select count(*) from oauth_client')).toEqual(clientsBefore);
    expect(await app.sql<{ count: string }>('select count(*) from audit_log where target_id = ?', [client.clientId])).toEqual(auditBefore);
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body).toMatchObject({ name: 'SPA', initiateLoginUri: 'https://spa.example.com/login' });

    const viaGraphQL = await app.http.graphql(
      'mutation($id: UUID!) { updateOAuthClient(clientId: $id, input: { initiateLoginUri: "http://spa.example.com/login" }) { initiateLoginUri } }',
      { id: client.clientId },
    );
    expect(viaGraphQL.status).toBe(422);
    expect(viaGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'initiateLoginUri' });
    const set = await app.http.graphql(
      'mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { initiateLoginUri } }',
      { input: { ...SPA, initiateLoginUri: 'https://SPA.example.com/begin' } },
    );
    expect(set.body.data?.createOAuthClient).toEqual({ initiateLoginUri: 'https://spa.example.com/begin' });
  });

  it('registers a public client’s allowed origins in normal form, changes and empties them, each change audited', async () => {
    const hybrid = await createClient({
      name: 'Hybrid',
      type: 'native',
      redirectUris: ['com.example.app:/callback'],
      allowedOrigins: ['capacitor://localhost', 'Ionic://LocalHost', 'http://localhost:80', 'capacitor://localhost'],
    });
    expect(hybrid.allowedOrigins).toEqual(['capacitor://localhost', 'ionic://localhost', 'http://localhost']);
    expect((await app.http.get(`/oauth-clients/${hybrid.clientId}`)).body.allowedOrigins).toEqual(hybrid.allowedOrigins);
    expect((await createClient(SPA)).allowedOrigins).toEqual([]);
    expect((await createClient({ name: 'TV', type: 'device', allowedOrigins: ['https://tv.example.com:443'] })).allowedOrigins).toEqual(['https://tv.example.com']);

    const changed = await app.http.patch(`/oauth-clients/${hybrid.clientId}`, { allowedOrigins: ['https://app.example.com:8443'] });
    expect(changed.status).toBe(200);
    expect(changed.body.allowedOrigins).toEqual(['https://app.example.com:8443']);
    expect((await app.http.patch(`/oauth-clients/${hybrid.clientId}`, { name: 'Renamed' })).body.allowedOrigins).toEqual(['https://app.example.com:8443']);
    expect((await app.http.patch(`/oauth-clients/${hybrid.clientId}`, { allowedOrigins: [] })).body.allowedOrigins).toEqual([]);
    const audit = await app.sql<{ action: string; before: any; after: any }>(`select action, before, after from audit_log where target_id = ? order by id`, [hybrid.clientId]);
    expect(audit.map((row) => [row.action, row.before?.allowedOrigins ?? null, row.after.allowedOrigins])).toEqual([
      ['oauth_client.created', null, ['capacitor://localhost', 'ionic://localhost', 'http://localhost']],
      ['oauth_client.updated', ['capacitor://localhost', 'ionic://localhost', 'http://localhost'], ['https://app.example.com:8443']],
      ['oauth_client.updated', ['https://app.example.com:8443'], ['https://app.example.com:8443']],
      ['oauth_client.updated', ['https://app.example.com:8443'], []],
    ]);
  });

  it('refuses an origin that is not scheme://host[:port], and any on a web client, with 422, changing nothing', async () => {
    const client = await createClient({ ...SPA, allowedOrigins: ['capacitor://localhost'] });
    const web = await createClient(WEB);
    const clientsBefore = await app.sql<{ count: string }>('select count(*) from oauth_client');
    const auditBefore = await app.sql<{ count: string }>('select count(*) from audit_log');
    const refused = [
      'null',
      '*',
      'https://*.example.com',
      'https://spa.example.com/',
      'https://spa.example.com/cb',
      'https://spa.example.com?x=1',
      'https://spa.example.com#top',
      'https://user@spa.example.com',
      'spa.example.com',
      'http://spa.example.com',
      'file://localhost',
      'https://spa.example.com:99999',
      '',
    ];
    for (const origin of refused) {
      const created = await app.http.post('/oauth-clients', { ...SPA, allowedOrigins: ['ionic://localhost', origin] });
      expect(created.status, origin).toBe(422);
      expect(created.body, origin).toEqual({ code: 'validation_error', message: expect.stringContaining(JSON.stringify(origin)), field: 'allowedOrigins[1]' });
      const patched = await app.http.patch(`/oauth-clients/${client.clientId}`, { name: 'Changed', allowedOrigins: [origin] });
      expect(patched.status, origin).toBe(422);
      expect(patched.body, origin).toMatchObject({ code: 'validation_error', field: 'allowedOrigins[0]' });
    }
    const tooMany = Array.from({ length: 21 }, (_, index) => `http://localhost:${4000 + index}`);
    for (const [body, path] of [
      [{ ...SPA, allowedOrigins: tooMany }, '/oauth-clients'],
      [{ ...WEB, allowedOrigins: ['https://app.example.com'] }, '/oauth-clients'],
    ] as const) {
      const created = await app.http.post(path, body);
      expect(created.status).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'allowedOrigins' });
    }
    const webPatched = await app.http.patch(`/oauth-clients/${web.clientId}`, { allowedOrigins: ['https://app.example.com'] });
    expect(webPatched.body).toMatchObject({ code: 'validation_error', field: 'allowedOrigins', message: expect.stringContaining('confidential') });
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { allowedOrigins: null })).body).toMatchObject({ code: 'validation_error', field: 'allowedOrigins' });
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { allowedOrigins: 'capacitor://localhost' })).status).toBe(422);

    expect(await app.sql<{ count: string }>('select count(*) from oauth_client')).toEqual(clientsBefore);
    expect(await app.sql<{ count: string }>('select count(*) from audit_log')).toEqual(auditBefore);
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body).toMatchObject({ name: 'SPA', allowedOrigins: ['capacitor://localhost'] });

    const viaGraphQL = await app.http.graphql(
      'mutation($id: UUID!) { updateOAuthClient(clientId: $id, input: { allowedOrigins: ["capacitor://localhost/"] }) { allowedOrigins } }',
      { id: client.clientId },
    );
    expect(viaGraphQL.status).toBe(422);
    expect(viaGraphQL.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'allowedOrigins[0]' });
  });

  it('updates name, URIs and a web client’s auth method; type and tenant never change', async () => {
    const client = await createClient(WEB);
    const updated = await app.http.patch(`/oauth-clients/${client.clientId}`, {
      name: 'Renamed',
      redirectUris: ['https://new.example.com/cb'],
      postLogoutRedirectUris: ['https://new.example.com/'],
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      clientId: client.clientId,
      name: 'Renamed',
      type: 'web',
      redirectUris: ['https://new.example.com/cb'],
      postLogoutRedirectUris: ['https://new.example.com/'],
      tokenEndpointAuthMethod: 'client_secret_post',
      hasSecret: true,
    });
    expect(updated.body).not.toHaveProperty('clientSecret');
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body).toEqual(updated.body);
    const partial = await app.http.patch(`/oauth-clients/${client.clientId}`, { name: 'Only name' });
    expect(partial.body.redirectUris).toEqual(['https://new.example.com/cb']);

    for (const [body, field] of [
      [{ type: 'spa' }, 'type'],
      [{ tenantId: tenantA }, 'tenantId'],
      [{ redirectUris: [] }, 'redirectUris'],
      [{ redirectUris: ['https://ok.example.com/', 'http://no.example.com/'] }, 'redirectUris[1]'],
      [{ redirectUris: null }, 'redirectUris'],
      [{ name: null }, 'name'],
      [{ tokenEndpointAuthMethod: 'none' }, 'tokenEndpointAuthMethod'],
    ] as const) {
      const refused = await app.http.patch(`/oauth-clients/${client.clientId}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field });
    }
    const spa = await createClient(SPA);
    const spaPost = await app.http.patch(`/oauth-clients/${spa.clientId}`, { tokenEndpointAuthMethod: 'client_secret_post' });
    expect(spaPost.status).toBe(422);
    expect((await app.http.patch(`/oauth-clients/${newId()}`, { name: 'x' })).status).toBe(404);
    expect((await app.http.patch('/oauth-clients/not-a-uuid', { name: 'x' })).body).toMatchObject({ code: 'validation_error', field: 'clientId' });
    const audit = await app.sql<{ action: string }>('select action from audit_log where target_id = ? order by id', [client.clientId]);
    expect(audit.map((row) => row.action)).toEqual(['oauth_client.created', 'oauth_client.updated', 'oauth_client.updated']);
  });

  it('chooses how a client’s ID tokens are signed: ES256 by default, RS256 on create or by PATCH; nothing else', async () => {
    const rsa = await createClient({ ...SPA, idTokenSigningAlg: 'RS256' });
    expect(rsa.idTokenSigningAlg).toBe('RS256');
    expect((await app.http.get(`/oauth-clients/${rsa.clientId}`)).body.idTokenSigningAlg).toBe('RS256');
    const listed = (await app.http.get('/oauth-clients?pageSize=100')).body.data.find((c: { id: string }) => c.id === rsa.clientId);
    expect(listed.idTokenSigningAlg).toBe('RS256');
    expect((await createClient({ ...WEB, idTokenSigningAlg: null })).idTokenSigningAlg).toBe('ES256');

    const client = await createClient(WEB);
    expect(client.idTokenSigningAlg).toBe('ES256');
    const changed = await app.http.patch(`/oauth-clients/${client.clientId}`, { idTokenSigningAlg: 'RS256' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ idTokenSigningAlg: 'RS256', tokenEndpointAuthMethod: 'client_secret_basic', name: WEB.name });
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.idTokenSigningAlg).toBe('RS256');
    // Other changes keep it.
    expect((await app.http.patch(`/oauth-clients/${client.clientId}`, { name: 'Renamed' })).body.idTokenSigningAlg).toBe('RS256');
    const [audit] = await app.sql<{ before: any; after: any }>(`select before, after from audit_log where target_id = ? and action = 'oauth_client.updated' order by id limit 1`, [
      client.clientId,
    ]);
    expect([audit?.before.idTokenSigningAlg, audit?.after.idTokenSigningAlg]).toEqual(['ES256', 'RS256']);

    for (const value of ['HS256', 'rs256', 'PS256', 'ES384', 'none', '', 256]) {
      const created = await app.http.post('/oauth-clients', { ...SPA, idTokenSigningAlg: value });
      expect(created.status, String(value)).toBe(422);
      expect(created.body).toMatchObject({ code: 'validation_error', field: 'idTokenSigningAlg' });
      const patched = await app.http.patch(`/oauth-clients/${client.clientId}`, { idTokenSigningAlg: value });
      expect(patched.status, String(value)).toBe(422);
      expect(patched.body).toMatchObject({ code: 'validation_error', field: 'idTokenSigningAlg' });
    }
    const cleared = await app.http.patch(`/oauth-clients/${client.clientId}`, { idTokenSigningAlg: null });
    expect(cleared.status).toBe(422);
    expect(cleared.body).toMatchObject({ code: 'validation_error', field: 'idTokenSigningAlg' });
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.idTokenSigningAlg).toBe('RS256');

    const viaGraphQL = await app.http.graphql(
      'mutation($id: UUID!) { updateOAuthClient(clientId: $id, input: { idTokenSigningAlg: ES256 }) { idTokenSigningAlg } }',
      { id: client.clientId },
    );
    expect(viaGraphQL.body.data?.updateOAuthClient).toEqual({ idTokenSigningAlg: 'ES256' });
  });

  it('rotates a web client’s secret: the new one at once, the previous one for the grace period', async () => {
    const client = await createClient(WEB);
    const idempotencyKey = crypto.randomUUID();
    const rotated = await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ clientId: client.clientId, hasSecret: true, clientSecret: expect.stringMatching(/^ghs_/) });
    expect(rotated.body.clientSecret).not.toBe(client.clientSecret);
    // Default grace: 24 hours.
    const graceEnds = Date.parse(rotated.body.previousSecretExpiresAt);
    expect(graceEnds).toBeGreaterThan(Date.now() + 86_400_000 - 60_000);
    expect(graceEnds).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(await storedClientSecrets(app, client.clientId)).toEqual({ current: rotated.body.clientSecret, previous: client.clientSecret, previousExpiresAt: new Date(graceEnds) });
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.previousSecretExpiresAt).toBe(rotated.body.previousSecretExpiresAt);

    const replay = await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);
    expect((await storedClientSecrets(app, client.clientId)).current).toBe(rotated.body.clientSecret);

    // A second rotation ends the first one's grace: only the secret it replaces stays valid, here for an hour.
    const again = await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, { gracePeriodSeconds: 3600 });
    expect(again.status).toBe(200);
    const secrets = await storedClientSecrets(app, client.clientId);
    expect(secrets.current).toBe(again.body.clientSecret);
    expect(secrets.previous).toBe(rotated.body.clientSecret);
    expect(Date.parse(again.body.previousSecretExpiresAt)).toBeLessThanOrEqual(Date.now() + 3_600_000);

    const immediate = await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, { gracePeriodSeconds: 0 });
    expect(immediate.body.previousSecretExpiresAt).toBeNull();
    expect(await storedClientSecrets(app, client.clientId)).toEqual({ current: immediate.body.clientSecret, previous: null, previousExpiresAt: null });

    for (const gracePeriodSeconds of [-1, 2_592_001, 1.5]) {
      const bad = await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, { gracePeriodSeconds });
      expect(bad.status, String(gracePeriodSeconds)).toBe(422);
      expect(bad.body.field).toBe('gracePeriodSeconds');
    }
    expect((await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, { gracePeriodSeconds: 2_592_000 })).status).toBe(200);

    const spa = await createClient(SPA);
    const publicRotate = await app.http.post(`/oauth-clients/${spa.clientId}/rotate-secret`);
    expect(publicRotate.status).toBe(422);
    expect(publicRotate.body).toMatchObject({ code: 'validation_error', field: 'clientId' });
    expect((await app.http.post(`/oauth-clients/${newId()}/rotate-secret`)).status).toBe(404);

    const audit = await app.sql<{ action: string }>('select action, before, after from audit_log where target_id = ? order by id', [client.clientId]);
    expect(audit.map((row) => row.action).filter((action) => action === 'oauth_client.secret_rotated')).toHaveLength(4);
    const text = JSON.stringify(audit);
    for (const secret of [client.clientSecret, rotated.body.clientSecret, again.body.clientSecret, immediate.body.clientSecret]) expect(text).not.toContain(secret);
  });

  it('an expired grace period reads as no previous secret', async () => {
    const client = await createClient(WEB);
    await app.http.post(`/oauth-clients/${client.clientId}/rotate-secret`, { gracePeriodSeconds: 60 });
    await app.sql(`update oauth_client set previous_secret_expires_at = now() - interval '1 second' where id = ?`, [client.clientId]);
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).body.previousSecretExpiresAt).toBeNull();
  });

  it('deletes a client: 204, then 404; audited without secrets', async () => {
    const client = await createClient(WEB);
    const deleted = await app.http.delete(`/oauth-clients/${client.clientId}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect((await app.http.get(`/oauth-clients/${client.clientId}`)).status).toBe(404);
    expect((await app.http.delete(`/oauth-clients/${client.clientId}`)).status).toBe(404);
    expect(await app.sql('select id from oauth_client where id = ?', [client.clientId])).toEqual([]);
    const audit = await app.sql<{ action: string; before: unknown }>('select action, before from audit_log where target_id = ? order by id', [client.clientId]);
    expect(audit.map((row) => row.action)).toEqual(['oauth_client.created', 'oauth_client.deleted']);
    expect(audit[1]?.before).toMatchObject({ name: 'Dashboard', hasSecret: true });
    expect(JSON.stringify(audit)).not.toContain(client.clientSecret);
  });

  it('never shows M2M credentials, and M2M routes never show clients', async () => {
    const m2m = (await app.http.post('/m2m-credentials', { name: 'worker', permissions: ['users:read'] })).body;
    const client = await createClient(SPA);
    expect((await app.http.get(`/oauth-clients/${m2m.id}`)).status).toBe(404);
    expect((await app.http.delete(`/oauth-clients/${m2m.id}`)).status).toBe(404);
    expect((await app.http.post(`/oauth-clients/${m2m.id}/rotate-secret`)).status).toBe(404);
    expect((await app.http.get(`/m2m-credentials/${client.clientId}`)).status).toBe(404);
    const ids = (await app.http.get('/oauth-clients?pageSize=100')).body.data.map((c: { id: string }) => c.id);
    expect(ids).toContain(client.clientId);
    expect(ids).not.toContain(m2m.id);
  });

  it('paginates with signed cursors', async () => {
    const ownApp = await app.bootstrapAnother();
    const http = app.as({ apiKey: ownApp.apiKey });
    for (let i = 0; i < 5; i += 1) await http.post('/oauth-clients', { name: `c${i}`, type: 'device' });
    const first = await http.get('/oauth-clients?pageSize=2');
    expect(first.body.data).toHaveLength(2);
    const second = await http.get(`/oauth-clients?pageSize=2&cursor=${encodeURIComponent(first.body.next)}`);
    const third = await http.get(`/oauth-clients?pageSize=2&cursor=${encodeURIComponent(second.body.next)}`);
    expect(third.body.next).toBeNull();
    const names = [...first.body.data, ...second.body.data, ...third.body.data].map((c: { name: string }) => c.name);
    expect(names).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    const foreign = await app.http.get(`/oauth-clients?cursor=${encodeURIComponent(first.body.next)}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body.field).toBe('cursor');
    expect((await http.get('/oauth-clients?pageSize=101')).body.field).toBe('pageSize');
  });

  it('a tenant scope manages only its own tenant’s clients', async () => {
    const tenantKey = await clientWithKey(app, ['oauth_clients:*'], tenantA);
    const own = await tenantKey.post('/oauth-clients', SPA);
    expect(own.status).toBe(201);
    expect(own.body.tenantId).toBe(tenantA);
    const viaPath = await createClient(SPA, `${appPath}/tenants/${tenantB}/oauth-clients`);
    expect(viaPath.tenantId).toBe(tenantB);
    const viaBody = await createClient({ ...SPA, tenantId: tenantB });
    expect(viaBody.tenantId).toBe(tenantB);
    const appWide = await createClient(SPA);
    expect((await tenantKey.post('/oauth-clients', { ...SPA, tenantId: tenantB })).status).toBe(403);
    expect((await tenantKey.get(`${appPath}/tenants/${tenantB}/oauth-clients`)).status).toBe(403);
    const contradiction = await app.http.post(`${appPath}/tenants/${tenantA}/oauth-clients`, { ...SPA, tenantId: tenantB });
    expect(contradiction.status).toBe(422);
    expect(contradiction.body.field).toBe('tenantId');
    const unknownTenant = await app.http.post('/oauth-clients', { ...SPA, tenantId: newId() });
    expect(unknownTenant.status).toBe(404);
    expect(unknownTenant.body.field).toBe('tenantId');

    const listed = (await tenantKey.get('/oauth-clients?pageSize=100')).body.data as { id: string; tenantId: string }[];
    expect(listed.map((c) => c.id)).toContain(own.body.id);
    expect(listed.every((c) => c.tenantId === tenantA)).toBe(true);
    const inB = (await app.http.get(`${appPath}/tenants/${tenantB}/oauth-clients?pageSize=100`)).body.data.map((c: { id: string }) => c.id);
    expect(inB).toEqual(expect.arrayContaining([viaPath.id, viaBody.id]));
    expect(inB).not.toContain(own.body.id);
    for (const id of [viaPath.id, appWide.id]) {
      expect((await tenantKey.get(`/oauth-clients/${id}`)).status).toBe(404);
      expect((await tenantKey.patch(`/oauth-clients/${id}`, { name: 'x' })).status).toBe(404);
      expect((await tenantKey.delete(`/oauth-clients/${id}`)).status).toBe(404);
    }
    const all = (await app.http.get('/oauth-clients?pageSize=100')).body.data.map((c: { id: string }) => c.id);
    expect(all).toEqual(expect.arrayContaining([own.body.id, viaPath.id, appWide.id]));
  });

  it('enforces oauth_clients:read, oauth_clients:write and oauth_clients:delete', async () => {
    const target = await createClient(WEB);
    const reader = await clientWithKey(app, ['oauth_clients:read']);
    expect((await reader.get('/oauth-clients')).status).toBe(200);
    expect((await reader.get(`/oauth-clients/${target.clientId}`)).status).toBe(200);
    expect((await reader.post('/oauth-clients', WEB)).status).toBe(403);
    expect((await reader.patch(`/oauth-clients/${target.clientId}`, { name: 'x' })).status).toBe(403);
    expect((await reader.post(`/oauth-clients/${target.clientId}/rotate-secret`)).status).toBe(403);
    expect((await reader.delete(`/oauth-clients/${target.clientId}`)).status).toBe(403);
    const writer = await clientWithKey(app, ['oauth_clients:write']);
    expect((await writer.get('/oauth-clients')).status).toBe(403);
    expect((await writer.post('/oauth-clients', WEB)).status).toBe(201);
    expect((await writer.delete(`/oauth-clients/${target.clientId}`)).status).toBe(403);
    const deleter = await clientWithKey(app, ['oauth_clients:delete']);
    expect((await deleter.delete(`/oauth-clients/${target.clientId}`)).status).toBe(204);
    const other = await clientWithKey(app, ['m2m_credentials:*']);
    const refused = await other.get('/oauth-clients');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it('another application’s client is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/oauth-clients', WEB)).body;
    expect((await app.http.get(`/oauth-clients/${theirs.clientId}`)).status).toBe(404);
    expect((await app.http.patch(`/oauth-clients/${theirs.clientId}`, { name: 'x' })).status).toBe(404);
    expect((await app.http.delete(`/oauth-clients/${theirs.clientId}`)).status).toBe(404);
    expect((await app.http.post(`/oauth-clients/${theirs.clientId}/rotate-secret`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/oauth-clients`)).status).toBe(404);
    expect((await app.http.get('/oauth-clients?pageSize=100')).body.data.map((c: { id: string }) => c.id)).not.toContain(theirs.clientId);
    expect((await storedClientSecrets(app, theirs.clientId)).current).toBe(theirs.clientSecret);
  });

  it('serves the same operations over GraphQL', async () => {
    const created = await app.http.graphql(
      'mutation($input: CreateOAuthClientInput!) { createOAuthClient(input: $input) { clientId clientSecret type tokenEndpointAuthMethod } }',
      { input: WEB },
    );
    expect(created.body.errors).toBeUndefined();
    const { clientId, clientSecret } = created.body.data.createOAuthClient;
    expect(clientSecret).toMatch(/^ghs_/);
    const read = await app.http.graphql('query($id: UUID!) { oauthClient(clientId: $id) { clientId name hasSecret } }', { id: clientId });
    expect(read.body.data.oauthClient).toEqual({ clientId, name: 'Dashboard', hasSecret: true });
    const rotated = await app.http.graphql(
      'mutation($id: UUID!) { rotateOAuthClientSecret(clientId: $id, input: { gracePeriodSeconds: 0 }) { clientSecret previousSecretExpiresAt } }',
      { id: clientId },
    );
    expect(rotated.body.data.rotateOAuthClientSecret.previousSecretExpiresAt).toBeNull();
    const bad = await app.http.graphql(
      'mutation { createOAuthClient(input: { name: "x", type: spa, redirectUris: ["https://a.example.com/", "https://*.example.com/"] }) { clientId } }',
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'redirectUris[1]' });
    const deleted = await app.http.graphql('mutation($id: UUID!) { deleteOAuthClient(clientId: $id) }', { id: clientId });
    expect(deleted.body.data.deleteOAuthClient).toBe(true);
  });
});
