import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/db/entities/index.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { issueTestKey } from '../support/keys.ts';
import { IDP_CERTIFICATE } from '../support/saml-idp.ts';

const CLIENT_SECRET = 'google-client-secret-that-must-never-leave';

let app: TestApp;
let appPath: string;
let acme: string;
let globex: string;
let password: { id: string };
let google: { id: string };

const tenantPath = (tenantId: string) => `${appPath}/tenants/${tenantId}/auth-providers`;
const ids = (body: { data: { id: string }[] }) => body.data.map((provider) => provider.id);

beforeAll(async () => {
  ({ app, appPath, tenants: [acme, globex] } = await startTestAppWithTenants(['Acme', 'Globex']));
});
afterAll(async () => app?.close());

describe('application auth providers', () => {
  it('lists the password provider the application starts with, creates others with defaults filled in, and shows secrets only by name', async () => {
    const [created, ...others] = (await app.http.get('/auth-providers')).body.data as { id: string }[];
    expect(others).toEqual([]);
    expect(created).toMatchObject({
      applicationId: app.root.applicationId,
      tenantId: null,
      type: 'password',
      name: 'Password',
      enabled: true,
      config: { allowSignup: true, requireEmailVerification: true },
      secretsSet: [],
      source: null,
    });
    password = created!;

    const oauth = await app.http.post(`${appPath}/auth-providers`, {
      type: 'oauth',
      config: { provider: 'google', clientId: 'client-123.apps.googleusercontent.com' },
      secrets: { clientSecret: CLIENT_SECRET },
    });
    expect(oauth.status).toBe(201);
    expect(oauth.body).toMatchObject({
      type: 'oauth',
      name: 'Google',
      config: { provider: 'google', clientId: 'client-123.apps.googleusercontent.com', scopes: ['openid', 'email', 'profile'], allowSignup: true },
      secretsSet: ['clientSecret'],
    });
    expect(JSON.stringify(oauth.body)).not.toContain(CLIENT_SECRET);
    google = oauth.body;
    // Stored sealed: the table holds no secret's value.
    const [stored] = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ secrets: Record<string, string> }[]>('select secrets from auth_provider where id = ?', [google.id]);
    expect(JSON.stringify(stored!.secrets)).not.toContain(CLIENT_SECRET);
    expect(app.gatehouse.services.storedSecrets.decrypt(stored!.secrets['clientSecret']!)).toBe(CLIENT_SECRET);

    const read = await app.http.get(`/auth-providers/${google.id}`);
    expect(read.body).toEqual(oauth.body);
    const list = await app.http.get('/auth-providers');
    expect(ids(list.body)).toEqual([password.id, google.id]);
    expect(JSON.stringify(list.body)).not.toContain(CLIENT_SECRET);
    const audit = await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: 'auth_provider.created', applicationId: app.root.applicationId }, { filters: false });
    expect(audit.map((entry) => entry.targetId)).toEqual([password.id, google.id]);
    expect(JSON.stringify(audit.map((entry) => entry.after))).not.toContain(CLIENT_SECRET);
  });

  it('configures every type the service serves', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const bodies = [
      { type: 'magic_link', config: { linkLifetimeMinutes: 10 } },
      { type: 'saml', name: 'Okta', config: { entityId: 'http://www.okta.com/exk1', ssoUrl: 'https://acme.okta.com/app/sso/saml', certificate: IDP_CERTIFICATE } },
      { type: 'm2m' },
      { type: 'api_keys', config: { maxLifetimeDays: 365 } },
      { type: 'oauth', config: { provider: 'github', clientId: 'Iv1.abc' }, secrets: { clientSecret: 's' } },
      {
        type: 'oauth',
        config: { provider: 'apple', clientId: 'com.example.signin', teamId: 'ABCDE12345', keyId: 'KEY1234567' },
        secrets: { privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }) },
      },
      {
        type: 'oauth',
        name: 'Corporate SSO',
        config: { provider: 'generic', clientId: 'gatehouse', authorizationUrl: 'https://sso.example.com/authorize', tokenUrl: 'https://sso.example.com/token', userInfoUrl: 'https://sso.example.com/userinfo' },
        secrets: { clientSecret: 's' },
      },
      {
        type: 'oauth',
        name: 'Partner SSO',
        config: { provider: 'generic', clientId: 'gatehouse', authorizationUrl: 'https://partner.example.com/authorize', tokenUrl: 'https://partner.example.com/token', userInfoUrl: 'https://partner.example.com/userinfo' },
        secrets: { clientSecret: 's' },
      },
    ];
    for (const body of bodies) {
      const response = await app.http.post('/auth-providers', body);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    const list = (await app.http.get('/auth-providers?pageSize=100')).body.data as { type: string; name: string; config: any; secretsSet: string[] }[];
    expect(list.find((p) => p.type === 'saml')).toMatchObject({ name: 'Okta', config: { signRequests: false, emailAttribute: 'email' } });
    expect(list.find((p) => p.type === 'm2m')?.config).toEqual({ tokenLifetimeSeconds: 3600 });
    expect(list.find((p) => p.name === 'Apple')).toMatchObject({ secretsSet: ['privateKey'], config: { scopes: ['name', 'email'] } });
    expect(list.filter((p) => p.config.provider === 'generic')).toHaveLength(2);
    expect(list.find((p) => p.name === 'Corporate SSO')?.config).toMatchObject({ issuer: null, userInfoUrl: 'https://sso.example.com/userinfo', scopes: ['openid', 'email', 'profile'] });
  });

  it('takes for Apple only an EC P-256 private key, which its ES256 client secret needs, on create and PATCH', async () => {
    const apple = (await app.http.get('/auth-providers?pageSize=100')).body.data.find((p: { name: string }) => p.name === 'Apple');
    const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']) => key.export({ format: 'pem', type: 'pkcs8' });
    const unfit = [
      pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey),
      pem(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey),
      pem(generateKeyPairSync('ed25519').privateKey),
    ];
    const message = "secrets.privateKey must be a PEM-encoded EC P-256 private key (Apple's .p8): an ES256 client secret is signed with it";
    const before = (await app.http.get('/auth-providers?pageSize=100')).body;
    await app.http.delete(`/auth-providers/${apple.id}`);
    const config = { provider: 'apple', clientId: 'com.example.signin', teamId: 'ABCDE12345', keyId: 'KEY1234567' };
    for (const privateKey of unfit) {
      const created = await app.http.post('/auth-providers', { type: 'oauth', config, secrets: { privateKey } });
      expect(created.status).toBe(422);
      expect(created.body).toEqual({ code: 'validation_error', message, field: 'secrets.privateKey' });
    }
    const fit = pem(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const created = await app.http.post('/auth-providers', { type: 'oauth', config, secrets: { privateKey: fit } });
    expect(created.status).toBe(201);
    for (const privateKey of unfit) {
      const patched = await app.http.patch(`/auth-providers/${created.body.id}`, { secrets: { privateKey } });
      expect(patched.status).toBe(422);
      expect(patched.body).toEqual({ code: 'validation_error', message, field: 'secrets.privateKey' });
    }
    const stored = (await app.http.get(`/auth-providers/${created.body.id}`)).body;
    expect(stored).toMatchObject({ secretsSet: ['privateKey'], updatedAt: created.body.updatedAt });
    expect((await app.http.patch(`/auth-providers/${created.body.id}`, { secrets: { privateKey: fit } })).status).toBe(200);
    expect((await app.http.get('/auth-providers?pageSize=100')).body.data).toHaveLength(before.data.length);
  });

  it('paginates with opaque cursors', async () => {
    const first = await app.http.get('/auth-providers?pageSize=4');
    expect(first.body.data).toHaveLength(4);
    const second = await app.http.get(`/auth-providers?pageSize=4&cursor=${encodeURIComponent(first.body.next)}`);
    expect(ids(second.body)[0]! > ids(first.body)[3]!).toBe(true);
    const forged = await app.http.get(`/auth-providers?cursor=${encodeURIComponent(`${first.body.next}x`)}`);
    expect(forged.body).toMatchObject({ code: 'validation_error', field: 'cursor' });
  });

  it('allows one provider per type, and one OAuth provider per identity provider (409)', async () => {
    const again = await app.http.post('/auth-providers', { type: 'password' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'already_exists', field: 'type' });
    const google2 = await app.http.post('/auth-providers', { type: 'oauth', config: { provider: 'google', clientId: 'other' }, secrets: { clientSecret: 's' } });
    expect(google2.status).toBe(409);
    expect(google2.body).toMatchObject({ code: 'already_exists', field: 'config.provider' });
  });

  it('refuses invalid configuration with 422 naming the field, and stores nothing', async () => {
    const before = (await app.http.get('/auth-providers?pageSize=100')).body;
    const cases: [unknown, string][] = [
      [{ type: 'carrier_pigeon' }, 'type'],
      [{ type: 'password', colour: 'red' }, 'colour'],
      [{ type: 'password', name: '' }, 'name'],
      [{ type: 'password', config: { allowSignup: 'yes' } }, 'config.allowSignup'],
      [{ type: 'magic_link', config: { linkLifetimeMinutes: 0 } }, 'config.linkLifetimeMinutes'],
      [{ type: 'magic_link', config: { ttl: 5 } }, 'config.ttl'],
      [{ type: 'oauth', config: { provider: 'myspace', clientId: 'x' }, secrets: { clientSecret: 's' } }, 'config.provider'],
      [{ type: 'oauth', config: { provider: 'microsoft' }, secrets: { clientSecret: 's' } }, 'config.clientId'],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x' } }, 'secrets.clientSecret'],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x' }, secrets: { clientSecret: 's', apiKey: 'k' } }, 'secrets.apiKey'],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x', tokenUrl: 'https://x.example.com' }, secrets: { clientSecret: 's' } }, 'config.tokenUrl'],
      [{ type: 'oauth', config: { provider: 'generic', clientId: 'x', authorizationUrl: 'https://a.example.com' }, secrets: { clientSecret: 's' } }, 'config.tokenUrl'],
      [{ type: 'oauth', config: { provider: 'generic', clientId: 'x', authorizationUrl: 'https://a.example.com', tokenUrl: 'https://a.example.com' }, secrets: { clientSecret: 's' } }, 'config.userInfoUrl'],
      [{ type: 'oauth', config: { provider: 'generic', clientId: 'x', issuer: 'https://a.example.com', tokenUrl: 'https://a.example.com' }, secrets: { clientSecret: 's' } }, 'config.tokenUrl'],
      [{ type: 'oauth', config: { provider: 'generic', clientId: 'x', issuer: 'http://127.0.0.1:8080' }, secrets: { clientSecret: 's' } }, 'config.issuer'],
      [
        { type: 'oauth', config: { provider: 'generic', clientId: 'x', authorizationUrl: 'http://a.example.com', tokenUrl: 'https://a.example.com' }, secrets: { clientSecret: 's' } },
        'config.authorizationUrl',
      ],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x', scopes: ['openid', 'openid'] }, secrets: { clientSecret: 's' } }, 'config.scopes'],
      [{ type: 'oauth', config: { provider: 'apple', clientId: 'x', teamId: 'ABCDE12345', keyId: 'KEY1234567' }, secrets: { privateKey: 'not a key' } }, 'secrets.privateKey'],
      [{ type: 'saml', config: { entityId: 'urn:x', ssoUrl: 'https://idp.example.com/sso', certificate: 'MIIB...' } }, 'config.certificate'],
      [{ type: 'm2m', config: { tokenLifetimeSeconds: 10 } }, 'config.tokenLifetimeSeconds'],
      [{ type: 'password', secrets: { clientSecret: 's' } }, 'secrets.clientSecret'],
    ];
    for (const [body, field] of cases) {
      const response = await app.http.post('/auth-providers', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/auth-providers?pageSize=100')).body).toEqual(before);
  });

  it('quotes an unknown config or secrets key as sent; `field` is its path only if the key is a name', async () => {
    const before = (await app.http.get('/auth-providers?pageSize=100')).body;
    const cases: [unknown, string, string][] = [
      [{ type: 'password', config: { '': 1 } }, 'config key "" is not a setting of password providers', 'config'],
      [{ type: 'password', config: { 'a.b': 1 } }, 'config key "a.b" is not a setting of password providers', 'config'],
      [{ type: 'password', config: { ttl: 1 } }, 'config key "ttl" is not a setting of password providers', 'config.ttl'],
      [{ type: 'password', secrets: { '': 'x' } }, 'secrets key "" is not a secret of password providers', 'secrets'],
      [{ type: 'password', secrets: { 'a"b': 'x' } }, 'secrets key "a\\"b" is not a secret of password providers', 'secrets'],
    ];
    for (const [body, message, field] of cases) {
      const response = await app.http.post('/auth-providers', body);
      expect(response.body, JSON.stringify(body)).toEqual({ code: 'validation_error', message, field });
    }
    const patched = await app.http.patch(`/auth-providers/${password.id}`, { config: { '': 1 } });
    expect(patched.body).toEqual({ code: 'validation_error', message: 'config key "" is not a setting of password providers', field: 'config' });
    expect((await app.http.get('/auth-providers?pageSize=100')).body).toEqual(before);
  });

  it('refuses a NUL or another control character in a config string (PostgreSQL stores no NUL), on create and PATCH', async () => {
    const before = (await app.http.get('/auth-providers?pageSize=100')).body;
    const cases: [unknown, string][] = [
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'a\u0000' }, secrets: { clientSecret: 's' } }, 'config.clientId'],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'a\u0007b' }, secrets: { clientSecret: 's' } }, 'config.clientId'],
      [{ type: 'saml', config: { entityId: 'urn:\u0000', ssoUrl: 'https://idp.example.com/sso', certificate: IDP_CERTIFICATE } }, 'config.entityId'],
      [{ type: 'saml', config: { entityId: 'urn:x', ssoUrl: 'https://idp.example.com/sso', certificate: IDP_CERTIFICATE, emailAttribute: 'mail\u0000' } }, 'config.emailAttribute'],
      [{ type: 'saml', config: { entityId: 'urn:x', ssoUrl: 'https://idp.example.com/sso', certificate: `${IDP_CERTIFICATE}\n\u0000` } }, 'config.certificate'],
      // A client secret is sent as it is (a header, a form): one with a control character could never authenticate.
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x' }, secrets: { clientSecret: 's\u0000' } }, 'secrets.clientSecret'],
      [{ type: 'oauth', config: { provider: 'microsoft', clientId: 'x' }, secrets: { clientSecret: 'line\nbreak' } }, 'secrets.clientSecret'],
    ];
    for (const [body, field] of cases) {
      const response = await app.http.post('/auth-providers', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
      const inTenant = await app.http.post(tenantPath(acme), body);
      expect(inTenant.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/auth-providers?pageSize=100')).body).toEqual(before);

    const patches: [string, unknown, string][] = [
      [google.id, { config: { clientId: 'a\u0000' } }, 'config.clientId'],
      [google.id, { name: 'a\u0000b' }, 'name'],
      [google.id, { name: 'a\u0007\nb' }, 'name'],
    ];
    for (const [id, body, field] of patches) {
      const response = await app.http.patch(`/auth-providers/${id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toMatchObject({ code: 'validation_error', field });
    }
    expect((await app.http.get('/auth-providers?pageSize=100')).body).toEqual(before);
    // A name of every script is still a name.
    const named = await app.http.patch(`/auth-providers/${google.id}`, { name: 'Acme Connexion — 東京' });
    expect(named.body.name).toBe('Acme Connexion — 東京');

    const graphql = await app.http.graphql('mutation($i: CreateAuthProviderInput!) { createAuthProvider(input: $i) { id } }', {
      i: { type: 'oauth', config: { provider: 'microsoft', clientId: 'a\u0000' }, secrets: { clientSecret: 's' } },
    });
    expect(graphql.status).toBe(422);
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422, field: 'config.clientId' });
  });

  it('PATCH merges config field by field, sets and removes secrets, and never shows them', async () => {
    const patched = await app.http.patch(`/auth-providers/${google.id}`, {
      name: 'Sign in with Google',
      config: { scopes: ['openid', 'email'] },
      secrets: { clientSecret: 'rotated-secret-value' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Sign in with Google',
      config: { provider: 'google', clientId: 'client-123.apps.googleusercontent.com', scopes: ['openid', 'email'] },
      secretsSet: ['clientSecret'],
    });
    expect(JSON.stringify(patched.body)).not.toContain('rotated-secret-value');
    const reset = await app.http.patch(`/auth-providers/${google.id}`, { config: { scopes: null } });
    expect(reset.body.config.scopes).toEqual(['openid', 'email', 'profile']);
    const required = await app.http.patch(`/auth-providers/${google.id}`, { secrets: { clientSecret: null } });
    expect(required.body).toMatchObject({ code: 'validation_error', field: 'secrets.clientSecret' });
    const disabled = await app.http.patch(`/auth-providers/${google.id}`, { enabled: false });
    expect(disabled.body.enabled).toBe(false);
    const typeChange = await app.http.patch(`/auth-providers/${google.id}`, { type: 'saml' });
    expect(typeChange.body).toMatchObject({ code: 'validation_error', field: 'type' });
  });

  it('PATCH refuses a null config or secrets as it does a null name or enabled (422 naming it), over REST and GraphQL, writing and auditing nothing', async () => {
    const audits = async () => (await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: 'auth_provider.updated' }, { filters: false })).length;
    const before = { provider: (await app.http.get(`/auth-providers/${google.id}`)).body, audits: await audits() };
    for (const field of ['name', 'enabled', 'config', 'secrets']) {
      const refused = await app.http.patch(`/auth-providers/${google.id}`, { [field]: null });
      expect(refused.status, field).toBe(422);
      expect(refused.body, field).toMatchObject({ code: 'validation_error', field, message: expect.stringContaining(`${field} may not be null`) });
      const graphql = await app.http.graphql('mutation($id: UUID!, $i: UpdateAuthProviderInput!) { updateAuthProvider(providerId: $id, input: $i) { id } }', {
        id: google.id,
        i: { [field]: null },
      });
      expect(graphql.body.errors?.[0]?.extensions, field).toMatchObject({ code: 'validation_error', status: 422, field });
    }
    expect({ provider: (await app.http.get(`/auth-providers/${google.id}`)).body, audits: await audits() }).toEqual(before);
  });

  it('PATCH moving a generic OAuth provider to a named one drops the settings that no longer apply', async () => {
    const generic = await app.http.post('/auth-providers', {
      type: 'oauth',
      config: { provider: 'generic', clientId: 'ms', authorizationUrl: 'https://login.example.com/a', tokenUrl: 'https://login.example.com/t', userInfoUrl: 'https://login.example.com/u' },
      secrets: { clientSecret: 's' },
    });
    const moved = await app.http.patch(`/auth-providers/${generic.body.id}`, { config: { provider: 'microsoft' }, secrets: { clientSecret: 'microsoft-secret' } });
    expect(moved.status).toBe(200);
    expect(moved.body.config).toEqual({ provider: 'microsoft', clientId: 'ms', scopes: ['openid', 'email', 'profile'], allowSignup: true });
    const clash = await app.http.patch(`/auth-providers/${generic.body.id}`, { config: { provider: 'google' } });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'already_exists', field: 'config.provider' });
    expect((await app.http.delete(`/auth-providers/${generic.body.id}`)).status).toBe(204);
    expect((await app.http.get(`/auth-providers/${generic.body.id}`)).status).toBe(404);
    expect((await app.http.delete(`/auth-providers/${generic.body.id}`)).status).toBe(404);
  });

  it('PATCH that would send an OAuth provider’s stored client secret to another token endpoint (preset, generic issuer or tokenUrl) keeps none: it is given again or 422', async () => {
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const endpoints = { authorizationUrl: 'https://sso.example.com/authorize', tokenUrl: 'https://sso.example.com/token', userInfoUrl: 'https://sso.example.com/userinfo' };
    const created = await other.post('/auth-providers', { type: 'oauth', config: { provider: 'generic', clientId: 'c', ...endpoints }, secrets: { clientSecret: CLIENT_SECRET } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const stored = async () => {
      const [row] = await app.gatehouse.services.orm.em
        .getConnection()
        .execute<{ secrets: Record<string, string> | null; config: Record<string, unknown> }[]>('select secrets, config from auth_provider where id = ?', [id]);
      return { secret: row!.secrets === null ? null : app.gatehouse.services.storedSecrets.decrypt(row!.secrets['clientSecret']!), config: row!.config };
    };
    // Settings that send the secret nowhere else keep it (the authorization URL is the browser's, userinfo gets a token).
    for (const config of [{ clientId: 'c2' }, { scopes: ['openid', 'email'] }, { authorizationUrl: 'https://elsewhere.example.com/authorize' }, { userInfoUrl: 'https://sso.example.com/me' }]) {
      const kept = await other.patch(`/auth-providers/${id}`, { config });
      expect(kept.status, JSON.stringify(kept.body)).toBe(200);
      expect(kept.body.secretsSet).toEqual(['clientSecret']);
    }
    const before = await stored();
    expect(before.secret).toBe(CLIENT_SECRET);
    // Whoever may write providers would otherwise have the stored secret posted to a token endpoint of theirs.
    for (const config of [{ tokenUrl: 'https://attacker.example.com/token' }, { issuer: 'https://attacker.example.com' }, { provider: 'microsoft' }]) {
      const refused = await other.patch(`/auth-providers/${id}`, { config });
      expect(refused.status, JSON.stringify(config)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'secrets.clientSecret' });
      expect(await stored()).toEqual(before);
    }
    const moved = await other.patch(`/auth-providers/${id}`, { config: { tokenUrl: 'https://sso2.example.com/token' }, secrets: { clientSecret: 'the-new-endpoint-secret' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await stored()).toMatchObject({ secret: 'the-new-endpoint-secret', config: { tokenUrl: 'https://sso2.example.com/token' } });
  });

  it('PATCH moving an OAuth provider to another preset gives it the new preset’s default scopes, unless its scopes were set', async () => {
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const github = await other.post('/auth-providers', { type: 'oauth', config: { provider: 'github', clientId: 'c' }, secrets: { clientSecret: 's' } });
    expect(github.body.config.scopes).toEqual(['read:user', 'user:email']);
    // Another token endpoint takes its own client secret (the stored one is sent to no other).
    const scopes = async (config: Record<string, unknown>) => {
      const patched = await other.patch(`/auth-providers/${github.body.id}`, { config, secrets: { clientSecret: 's' } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      return patched.body.config.scopes;
    };
    expect(await scopes({ provider: 'generic', issuer: 'https://idp.example.com' })).toEqual(['openid', 'email', 'profile']);
    expect(await scopes({ provider: 'github' })).toEqual(['read:user', 'user:email']);
    expect(await scopes({ provider: 'google' })).toEqual(['openid', 'email', 'profile']);
    expect(await scopes({ provider: 'github' })).toEqual(['read:user', 'user:email']);
    // Scopes set by hand stay, across presets, until they are set again or nulled (the preset's default).
    expect(await scopes({ scopes: ['user', 'repo'] })).toEqual(['user', 'repo']);
    expect(await scopes({ provider: 'microsoft', scopes: ['openid', 'email', 'offline_access'] })).toEqual(['openid', 'email', 'offline_access']);
    expect(await scopes({ provider: 'github', scopes: null })).toEqual(['read:user', 'user:email']);
    // Scopes with which no sign-in could get the user's identity are refused, carried ones included, changing nothing.
    for (const config of [
      { scopes: ['read:user'] },
      { provider: 'google', scopes: ['email', 'profile'] },
      { provider: 'google', scopes: ['openid', 'profile'] },
      { provider: 'generic', issuer: 'https://idp.example.com', scopes: ['email'] },
    ]) {
      const refused = await other.patch(`/auth-providers/${github.body.id}`, { config });
      expect(refused.status, JSON.stringify(config)).toBe(422);
      expect(refused.body).toMatchObject({ code: 'validation_error', field: 'config.scopes' });
    }
    expect(await scopes({ scopes: ['user', 'repo'] })).toEqual(['user', 'repo']);
    expect((await other.patch(`/auth-providers/${github.body.id}`, { config: { provider: 'google' } })).body).toMatchObject({ field: 'config.scopes' });
    // A generic provider with endpoints of its own reads the user at userInfoUrl, whatever the scopes.
    const endpoints = { authorizationUrl: 'https://idp.example.com/authorize', tokenUrl: 'https://idp.example.com/token', userInfoUrl: 'https://idp.example.com/me' };
    expect(await scopes({ provider: 'generic', ...endpoints, scopes: ['email'] })).toEqual(['email']);
  });

  it('refuses an OpenID provider without the `email` scope, its users’ only address (OIDC Core 5.4), on create and PATCH, writing nothing', async () => {
    const other = app.as({ apiKey: (await app.bootstrapAnother()).apiKey });
    const privateKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    const apple = { provider: 'apple', clientId: 'com.example.signin', teamId: 'ABCDE12345', keyId: 'KEY1234567' };
    const withSecret = (config: Record<string, unknown>) => ({ type: 'oauth', config, secrets: config['provider'] === 'apple' ? { privateKey } : { clientSecret: 's' } });
    const audits = async () => (await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: { $like: 'auth_provider.%' } }, { filters: false })).length;
    const before = { list: (await other.get('/auth-providers?pageSize=100')).body, audits: await audits() };
    const mailless: [Record<string, unknown>, string][] = [
      [{ provider: 'google', clientId: 'g', scopes: ['openid', 'profile'] }, 'google'],
      [{ provider: 'microsoft', clientId: 'm', scopes: ['openid'] }, 'microsoft'],
      [{ ...apple, scopes: ['name'] }, 'apple'],
      [{ ...apple, scopes: [] }, 'apple'],
      [{ provider: 'generic', clientId: 'o', issuer: 'https://idp.example.com', scopes: ['openid', 'profile'] }, 'generic'],
    ];
    for (const [config, provider] of mailless) {
      const refused = await other.post('/auth-providers', withSecret(config));
      expect(refused.status, JSON.stringify(config)).toBe(422);
      expect(refused.body).toEqual({
        code: 'validation_error',
        field: 'config.scopes',
        message: `config.scopes must include email for provider ${provider}: without it no sign-in gets the user's e-mail address, by which accounts are found and made`,
      });
    }
    expect({ list: (await other.get('/auth-providers?pageSize=100')).body, audits: await audits() }).toEqual(before);
    // Apple needs no `openid` (it answers an ID token whatever is asked); a generic provider of endpoints alone is read at its userInfoUrl.
    const endpoints = { authorizationUrl: 'https://sso.example.com/a', tokenUrl: 'https://sso.example.com/t', userInfoUrl: 'https://sso.example.com/u' };
    for (const config of [{ ...apple, scopes: ['email'] }, { provider: 'generic', clientId: 'p', ...endpoints, scopes: ['openid', 'profile'] }, { provider: 'google', clientId: 'g', scopes: ['openid', 'email'] }]) {
      const created = await other.post('/auth-providers', withSecret(config));
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.config.scopes).toEqual(config.scopes);
    }
    // A PATCH that drops `email`, or moves to a preset the scopes set by hand lack it for, changes nothing.
    const stored = (await other.get('/auth-providers?pageSize=100')).body;
    const googleId = stored.data.find((p: { name: string }) => p.name === 'Google').id;
    const genericId = stored.data.find((p: { name: string }) => p.name === 'OAuth').id;
    const audited = await audits();
    for (const [id, change] of [
      [googleId, { config: { scopes: ['openid', 'profile'] } }],
      [genericId, { config: { issuer: 'https://idp.example.com' }, secrets: { clientSecret: 't' } }],
    ] as const) {
      const refused = await other.patch(`/auth-providers/${id}`, change);
      expect(refused.status, JSON.stringify(change)).toBe(422);
      expect(refused.body).toMatchObject({ field: 'config.scopes', message: expect.stringContaining('must include email') });
    }
    expect({ list: (await other.get('/auth-providers?pageSize=100')).body, audits: await audits() }).toEqual({ list: stored, audits: audited });
  });

  it('refuses missing credentials (401), missing permissions (403) and another application (404)', async () => {
    expect((await app.as({}).get('/auth-providers')).status).toBe(401);
    const reader = await issueTestKey(app, { permissions: ['auth_providers:read'] });
    expect((await reader.get(`/auth-providers/${password.id}`)).status).toBe(200);
    expect((await reader.post('/auth-providers', { type: 'm2m' })).status).toBe(403);
    expect((await reader.patch(`/auth-providers/${password.id}`, { enabled: false })).status).toBe(403);
    expect((await reader.delete(`/auth-providers/${password.id}`)).body.code).toBe('forbidden');
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    expect((await foreign.get(`/auth-providers/${password.id}`)).status).toBe(404);
    expect((await foreign.patch(`/auth-providers/${password.id}`, { enabled: false })).status).toBe(404);
    expect((await foreign.delete(`/auth-providers/${password.id}`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/auth-providers`)).status).toBe(404);
    expect((await foreign.get('/auth-providers')).body.data).toMatchObject([{ type: 'password', applicationId: other.applicationId }]);
    expect((await app.http.get(`/auth-providers/${password.id}`)).body.enabled).toBe(true);
  });
});

describe('tenant auth providers', () => {
  it('while shared: a tenant inherits the application’s providers, and may not have its own (409)', async () => {
    const list = await app.http.get(tenantPath(acme));
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(2);
    expect(list.body.data.every((p: { source: string; tenantId: string | null }) => p.source === 'inherited' && p.tenantId === null)).toBe(true);
    expect((await app.http.get(`${tenantPath(acme)}/${google.id}`)).body).toMatchObject({ id: google.id, source: 'inherited' });
    const refused = await app.http.post(tenantPath(acme), { type: 'password' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.authIsolation' });
  });

  it('while isolated: a tenant with providers of its own uses exactly those; others still inherit', async () => {
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const own = await app.http.post(tenantPath(acme), { type: 'password', config: { allowSignup: false } });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ tenantId: acme, type: 'password', source: 'customized', config: { allowSignup: false } });
    const saml = await app.http.post(tenantPath(acme), {
      type: 'saml',
      config: { entityId: 'urn:acme', ssoUrl: 'https://idp.acme.example/sso', certificate: IDP_CERTIFICATE },
    });
    expect(saml.status).toBe(201);

    const acmeList = await app.http.get(tenantPath(acme));
    expect(ids(acmeList.body)).toEqual([own.body.id, saml.body.id]);
    expect(acmeList.body.data.every((p: { source: string }) => p.source === 'customized')).toBe(true);
    expect((await app.http.get(`${tenantPath(acme)}/${google.id}`)).status).toBe(404);
    const globexList = await app.http.get(tenantPath(globex));
    expect(ids(globexList.body)).toContain(google.id);
    expect(globexList.body.data[0].source).toBe('inherited');
    const appList = await app.http.get('/auth-providers?pageSize=100');
    expect(ids(appList.body)).not.toContain(own.body.id);

    // A tenant's provider of a type the application also has is no duplicate; a second one in the tenant is.
    const dup = await app.http.post(tenantPath(acme), { type: 'password' });
    expect(dup.body).toMatchObject({ code: 'already_exists', field: 'type' });
    const patched = await app.http.patch(`${tenantPath(acme)}/${own.body.id}`, { config: { allowSignup: true } });
    expect(patched.body).toMatchObject({ source: 'customized', config: { allowSignup: true } });
  });

  it('a tenant’s own OpenID provider takes the `email` scope too: without it, created or PATCHed, 422 and nothing stored', async () => {
    const before = (await app.http.get(tenantPath(acme))).body;
    const refused = await app.http.post(tenantPath(acme), { type: 'oauth', config: { provider: 'microsoft', clientId: 'm', scopes: ['openid', 'profile'] }, secrets: { clientSecret: 's' } });
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'config.scopes', message: expect.stringContaining('must include email for provider microsoft') });
    expect((await app.http.get(tenantPath(acme))).body).toEqual(before);
    const created = await app.http.post(tenantPath(acme), { type: 'oauth', config: { provider: 'microsoft', clientId: 'm' }, secrets: { clientSecret: 's' } });
    expect(created.status).toBe(201);
    const dropped = await app.http.patch(`${tenantPath(acme)}/${created.body.id}`, { config: { scopes: ['openid'] } });
    expect(dropped.body).toMatchObject({ code: 'validation_error', field: 'config.scopes' });
    expect((await app.http.get(`${tenantPath(acme)}/${created.body.id}`)).body.config.scopes).toEqual(['openid', 'email', 'profile']);
    expect((await app.http.delete(`${tenantPath(acme)}/${created.body.id}`)).status).toBe(204);
  });

  it('a tenant-scoped key works on its own tenant; the application’s providers it inherits are 403 to change, those it does not and another tenant’s 404 (403 on another tenant’s path)', async () => {
    const acmeKey = await issueTestKey(app, { tenantId: acme });
    const list = await acmeKey.get('/auth-providers');
    expect(list.body.data.every((p: { tenantId: string }) => p.tenantId === acme)).toBe(true);
    const created = await acmeKey.post('/auth-providers', { type: 'm2m' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenantId: acme, source: 'customized' });

    // An application provider the tenant does not inherit is an absent one to it, for every verb: no id is confirmed.
    const googleBefore = (await app.http.get(`/auth-providers/${google.id}`)).body;
    for (const answer of [
      await acmeKey.get(`/auth-providers/${google.id}`),
      await acmeKey.patch(`/auth-providers/${google.id}`, { enabled: false }),
      await acmeKey.delete(`/auth-providers/${google.id}`),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'not_found', field: 'providerId' });
    }
    expect((await app.http.get(`/auth-providers/${google.id}`)).body).toEqual(googleBefore);
    // One it inherits it may read, not change (403), with its credentials' scope or on its path.
    const globexKey = await issueTestKey(app, { tenantId: globex });
    expect((await globexKey.get(`/auth-providers/${google.id}`)).body.source).toBe('inherited');
    const refusal = { code: 'forbidden', message: "A tenant scope may not change the application's auth providers it inherits" };
    for (const client of [globexKey, app.http]) {
      const path = client === globexKey ? `/auth-providers/${google.id}` : `${tenantPath(globex)}/${google.id}`;
      expect((await client.get(path)).body).toMatchObject({ id: google.id, source: 'inherited' });
      for (const answer of [await client.patch(path, { enabled: true }), await client.delete(path)]) {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual(refusal);
      }
    }
    expect((await app.http.get(`/auth-providers/${google.id}`)).body).toEqual(googleBefore);
    expect((await globexKey.get(`/auth-providers/${created.body.id}`)).status).toBe(404);
    expect((await globexKey.patch(`/auth-providers/${created.body.id}`, { enabled: false })).status).toBe(404);
    expect((await globexKey.get(tenantPath(acme))).status).toBe(403);
    expect((await globexKey.post(tenantPath(acme), { type: 'm2m' })).status).toBe(403);
    expect((await globexKey.delete(`${tenantPath(acme)}/${created.body.id}`)).status).toBe(403);
    expect((await app.http.get(`${tenantPath(acme)}/${created.body.id}`)).body.enabled).toBe(true);
    // The application's key reaches a tenant's provider only through the tenant form.
    expect((await app.http.get(`/auth-providers/${created.body.id}`)).status).toBe(404);
  });

  it('a tenant whose own providers are only m2m inherits the application’s sign-in providers (403 to change), not its m2m (404)', async () => {
    const appList = (await app.http.get('/auth-providers?pageSize=100')).body.data as { id: string; type: string }[];
    const appM2m = appList.find((provider) => provider.type === 'm2m') ?? (await app.http.post('/auth-providers', { type: 'm2m' })).body;
    const tenant = await app.createTenant('Initech');
    const own = await app.http.post(tenantPath(tenant), { type: 'm2m' });
    expect(own.status).toBe(201);
    expect((await app.http.get(`${tenantPath(tenant)}/${password.id}`)).body).toMatchObject({ id: password.id, source: 'inherited' });
    expect((await app.http.patch(`${tenantPath(tenant)}/${password.id}`, { enabled: false })).body.code).toBe('forbidden');
    for (const answer of [
      await app.http.get(`${tenantPath(tenant)}/${appM2m.id}`),
      await app.http.patch(`${tenantPath(tenant)}/${appM2m.id}`, { enabled: false }),
      await app.http.delete(`${tenantPath(tenant)}/${appM2m.id}`),
    ]) {
      expect(answer.status).toBe(404);
    }
    expect((await app.http.get(`/auth-providers/${password.id}`)).body.enabled).toBe(true);
    expect((await app.http.get(`/auth-providers/${appM2m.id}`)).body.enabled).toBe(true);
  });

  it('a tenant that deletes its last provider inherits again', async () => {
    const acmeList = (await app.http.get(tenantPath(acme))).body.data as { id: string }[];
    for (const provider of acmeList) expect((await app.http.delete(`${tenantPath(acme)}/${provider.id}`)).status).toBe(204);
    const after = await app.http.get(tenantPath(acme));
    expect(ids(after.body)).toContain(google.id);
    expect(after.body.data[0].source).toBe('inherited');
  });

  it('an unknown tenant or one of another application is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirTenant = await app.createTenant('Theirs', other);
    expect((await app.http.get(tenantPath(theirTenant))).status).toBe(404);
    expect((await app.http.post(tenantPath(theirTenant), { type: 'password' })).status).toBe(404);
  });
});

describe('auth providers over GraphQL', () => {
  it('creates and lists with the same rules, secrets write-only', async () => {
    const created = await app.http.graphql(
      `mutation($tenantId: UUID, $input: CreateAuthProviderInput!) {
        createAuthProvider(tenantId: $tenantId, input: $input) { id type name tenantId source secretsSet config }
      }`,
      { tenantId: globex, input: { type: 'oauth', config: { provider: 'github', clientId: 'Iv1.globex' }, secrets: { clientSecret: 'gql-secret' } } },
    );
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createAuthProvider).toMatchObject({ type: 'oauth', name: 'GitHub', tenantId: globex, source: 'customized', secretsSet: ['clientSecret'] });
    const listed = await app.http.graphql(`query($t: UUID) { authProviders(tenantId: $t) { data { id source } next } }`, { t: globex });
    expect(listed.body.data.authProviders).toEqual({ data: [{ id: created.body.data.createAuthProvider.id, source: 'customized' }], next: null });
    expect(JSON.stringify(listed.body)).not.toContain('gql-secret');
    const invalid = await app.http.graphql(`mutation { createAuthProvider(input: { type: magic_link, config: { linkLifetimeMinutes: 600 } }) { id } }`);
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'config.linkLifetimeMinutes', status: 422 });
    const badType = await app.http.graphql(`mutation { createAuthProvider(input: { type: carrier_pigeon }) { id } }`);
    expect(badType.body.errors?.[0]?.extensions.code).toBe('validation_error');
  });
});
