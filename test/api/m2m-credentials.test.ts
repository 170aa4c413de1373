import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.ts';
import { startTestAppWithTenants, type TestApp } from '../support/app.ts';
import { basicAuth, postForm } from '../support/oauth.ts';
import { TestRoles } from '../support/roles.ts';
import { storedClientSecrets } from '../support/client-secrets.ts';
import { clientWithKey } from '../support/keys.ts';

let app: TestApp;
let appPath: string;
let tenantA: string;
let tenantB: string;

/** A key pair's JWKs: the public one to upload, the private one that must be refused. */
function ecKey(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { public: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'ES256' }, private: { ...privateKey.export({ format: 'jwk' }), kid } };
}
const okpKey = (kid: string) => ({ ...generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }), kid });
const rsaKey = (kid: string, modulusLength = 2048) => ({ ...generateKeyPairSync('rsa', { modulusLength }).publicKey.export({ format: 'jwk' }), kid });

async function createCredential(body: Record<string, unknown>, path = '/m2m-credentials') {
  const created = await app.http.post(path, { name: 'worker', permissions: ['users:read'], ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** The credential's current and previous secrets (the previous one's grace period is tested with OAuth clients). */
async function storedSecrets(id: string) {
  const { current, previous } = await storedClientSecrets(app, id);
  return { current, previous };
}

beforeAll(async () => {
  ({ app, appPath, tenants: [tenantA, tenantB] } = await startTestAppWithTenants(['Tenant A', 'Tenant B']));
});
afterAll(async () => app?.close());

describe('M2M credentials', () => {
  it('creates a secret credential: clientId and a secret shown once, stored only encrypted', async () => {
    const created = await app.http.post('/m2m-credentials', { name: 'Billing worker', permissions: ['users:read', 'users:read', 'tenants:*'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      clientId: created.body.id,
      clientSecret: expect.stringMatching(/^ghs_[A-Za-z0-9_-]{43}$/),
      applicationId: app.root.applicationId,
      tenantId: null,
      name: 'Billing worker',
      permissions: ['users:read', 'tenants:*'],
      authMethod: 'client_secret_basic',
      hasSecret: true,
      previousSecretExpiresAt: null,
      jwks: null,
      revokedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const { clientSecret, ...credential } = created.body;
    const read = await app.http.get(`/m2m-credentials/${credential.id}`);
    expect(read.body).toEqual(credential);
    const list = await app.http.get('/m2m-credentials?pageSize=100');
    expect(list.body.data).toContainEqual(credential);
    for (const body of [read.body, list.body]) expect(JSON.stringify(body)).not.toContain(clientSecret);
    expect(JSON.stringify(await app.sql('select * from oauth_client'))).not.toContain(clientSecret);
    expect(await storedSecrets(credential.id)).toEqual({ current: clientSecret, previous: null });
    const [row] = await app.sql<{ type: string; auth_method: string; permissions: string[] }>('select type, auth_method, permissions from oauth_client where id = ?', [credential.id]);
    expect(row).toEqual({ type: 'm2m', auth_method: 'client_secret_basic', permissions: ['users:read', 'tenants:*'] });
    const audit = await app.sql<{ action: string }>('select action, after from audit_log where target_id = ?', [credential.id]);
    expect(audit.map((r) => r.action)).toEqual(['m2m_credential.created']);
    expect(JSON.stringify(audit)).not.toContain(clientSecret);

    const post = await createCredential({ authMethod: 'client_secret_post' });
    expect(post).toMatchObject({ authMethod: 'client_secret_post', hasSecret: true, clientSecret: expect.stringMatching(/^ghs_/) });
  });

  it('creates a private_key_jwt credential with public keys and no secret; its JWKS is required', async () => {
    const keys = [ecKey('ec-1').public, okpKey('ed-1'), rsaKey('rsa-1')];
    const created = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys } });
    expect(created).toMatchObject({ authMethod: 'private_key_jwt', clientSecret: null, hasSecret: false, jwks: { keys } });
    expect(await storedSecrets(created.id)).toEqual({ current: null, previous: null });

    const missing = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt' });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'validation_error', field: 'jwks' });
    const notForSecrets = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], jwks: { keys } });
    expect(notForSecrets.status).toBe(422);
    expect(notForSecrets.body.field).toBe('jwks');
    const unknownMethod = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'none' });
    expect(unknownMethod.status).toBe(422);
    expect(unknownMethod.body.field).toBe('authMethod');
  });

  it('accepts only public EC, RSA and OKP signing keys, each with a distinct kid', async () => {
    const good = ecKey('k1');
    const noKid: Record<string, unknown> = { ...good.public };
    delete noKid['kid'];
    const cases: [unknown, string][] = [
      [{ keys: [good.private] }, 'jwks.keys[0].d'],
      [{ keys: [good.public, { ...rsaKey('r'), d: 'AQAB' }] }, 'jwks.keys[1].d'],
      [{ keys: [{ ...rsaKey('r'), p: 'AQAB' }] }, 'jwks.keys[0].p'],
      [{ keys: [{ kty: 'oct', kid: 'sym', k: 'c2VjcmV0' }] }, 'jwks.keys[0].kty'],
      [{ keys: [noKid] }, 'jwks.keys[0].kid'],
      [{ keys: [good.public, { ...ecKey('k1').public }] }, 'jwks.keys[1].kid'],
      [{ keys: [{ ...good.public, use: 'enc' }] }, 'jwks.keys[0].use'],
      [{ keys: [{ ...good.public, alg: 'HS256' }] }, 'jwks.keys[0].alg'],
      [{ keys: [{ ...good.public, x: 'AAAA' }] }, 'jwks.keys[0]'],
      [{ keys: [rsaKey('small', 1024)] }, 'jwks.keys[0]'],
      [{ keys: [{ ...generateKeyPairSync('x25519').publicKey.export({ format: 'jwk' }), kid: 'dh' }] }, 'jwks.keys[0].crv'],
      // Not a string: String() of it threw (a 500).
      [{ keys: [{ ...good.public, crv: { toString: 'P-256' } }] }, 'jwks.keys[0].crv'],
      [{ keys: [{ ...okpKey('o'), crv: ['Ed25519'] }] }, 'jwks.keys[0].crv'],
      [{ keys: [] }, 'jwks.keys'],
      [{ keys: Array.from({ length: 11 }, (_, i) => ecKey(`k${i}`).public) }, 'jwks.keys'],
      [{ keys: ['not a key'] }, 'jwks.keys[0]'],
    ];
    for (const [jwks, field] of cases) {
      const refused = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks });
      expect(refused.status, field).toBe(422);
      expect(refused.body, JSON.stringify(jwks).slice(0, 80)).toMatchObject({ code: 'validation_error', field });
    }
  });

  it('refuses a NUL or another control character in a key (PostgreSQL stores none), and any member that is not applied', async () => {
    const good = ecKey('good').public;
    const credential = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [good] } });
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, kid: 'k\u0000' }, 'keys[0].kid'],
      [{ ...good, kid: 'k\u0007\nl' }, 'keys[0].kid'],
      [{ ...good, x: `${good.x as string}\u0000` }, 'keys[0].x'],
      [{ ...good, y: `${(good.y as string).slice(0, 5)}\u0000${(good.y as string).slice(5)}` }, 'keys[0].y'],
      [{ ...rsaKey('rsa'), e: 'AQAB\u0000' }, 'keys[0].e'],
    ];
    for (const [key, field] of cases) {
      const created = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [key] } });
      expect(created.status, field).toBe(422);
      expect(created.body, field).toMatchObject({ code: 'validation_error', field: `jwks.${field}` });
      const replaced = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [good, key] });
      expect(replaced.status, field).toBe(422);
      expect(replaced.body, field).toMatchObject({ code: 'validation_error', field: field.replace('keys[0]', 'keys[1]') });
    }
    // Members nothing applies (certificates, extensions) are refused, naming the member; nothing is stored.
    const refusedMembers: [Record<string, unknown>, string][] = [
      [{ x5c: ['MIIB'] }, 'keys[0].x5c'],
      [{ x5u: 'https://a.example.com/keys' }, 'keys[0].x5u'],
      [{ x5t: 'AAAA' }, 'keys[0].x5t'],
      [{ 'x5t#S256': 'AAAA' }, 'keys[0].x5t#S256'],
      [{ custom: 'x' }, 'keys[0].custom'],
      [{ 'a\u0000': 'x' }, 'keys[0]'],
      // key_ops is applied by the verifier: only ["verify"] lets the key authenticate.
      [{ key_ops: ['sign'] }, 'keys[0].key_ops'],
      [{ key_ops: ['verify', 'sign'] }, 'keys[0].key_ops'],
      [{ key_ops: [] }, 'keys[0].key_ops'],
      [{ key_ops: 'verify' }, 'keys[0].key_ops'],
      [{ ext: 'true' }, 'keys[0].ext'],
    ];
    for (const [members, field] of refusedMembers) {
      const key = { ...good, kid: 'extras', ...members };
      const replaced = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [key] });
      expect(replaced.status, field).toBe(422);
      expect(replaced.body, field).toMatchObject({ code: 'validation_error', field });
      const created = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [key] } });
      expect(created.status, field).toBe(422);
      expect(created.body, field).toMatchObject({ code: 'validation_error', field: `jwks.${field}` });
    }
    expect((await app.http.get(`/m2m-credentials/${credential.id}`)).body.jwks).toEqual({ keys: [good] });
    // key_ops ["verify"] and a boolean ext (as WebCrypto exports a public key) are kept as given.
    const exported = { ...good, kid: 'exported', key_ops: ['verify'], ext: true };
    const kept = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [exported] });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.jwks).toEqual({ keys: [exported] });
    expect((await app.http.get(`/m2m-credentials/${credential.id}`)).body.jwks).toEqual({ keys: [exported] });

    // GraphQL: the same refusal, from a variable and from a literal of the document.
    const variable = await app.http.graphql('mutation($i: CreateM2MCredentialInput!) { createM2MCredential(input: $i) { id } }', {
      i: { name: 'n', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [{ ...good, kid: 'k\u0000' }] } },
    });
    expect(variable.status).toBe(422);
    expect(variable.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422, field: 'jwks.keys[0].kid' });
    const literal = await app.http.graphql(
      `mutation { createM2MCredential(input: { name: "n", permissions: ["users:read"], authMethod: private_key_jwt, jwks: { keys: [{ kty: "EC", crv: "P-256", kid: "k\\u0000", x: "${good.x as string}", y: "${good.y as string}" }] } }) { id } }`,
    );
    expect(literal.status).toBe(422);
    expect(literal.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', status: 422, field: 'jwks.keys[0].kid' });
  });

  it('replaces a private_key_jwt credential’s keys with PUT …/jwks', async () => {
    const first = ecKey('first');
    const credential = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [first.public] } });
    const second = ecKey('second');
    const both = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [first.public, second.public] });
    expect(both.status).toBe(200);
    expect(both.body.jwks).toEqual({ keys: [first.public, second.public] });
    expect(both.body).not.toHaveProperty('clientSecret');
    const only = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [second.public] });
    expect((await app.http.get(`/m2m-credentials/${credential.id}`)).body).toEqual(only.body);

    const privateKey = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [second.private] });
    expect(privateKey.status).toBe(422);
    expect(privateKey.body).toMatchObject({ code: 'validation_error', field: 'keys[0].d' });
    const extra = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { keys: [second.public], secret: 'x' });
    expect(extra.status).toBe(422);
    expect(extra.body.field).toBe('secret');
    const notAJwks = await app.http.put(`/m2m-credentials/${credential.id}/jwks`, { kty: 'EC' });
    expect(notAJwks.status).toBe(422);
    expect((await app.http.get(`/m2m-credentials/${credential.id}`)).body.jwks).toEqual({ keys: [second.public] });

    const secretOne = await createCredential({});
    const refused = await app.http.put(`/m2m-credentials/${secretOne.id}/jwks`, { keys: [second.public] });
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe('credentialId');
    expect((await app.http.put(`/m2m-credentials/${newId()}/jwks`, { keys: [second.public] })).status).toBe(404);
    const audit = await app.sql<{ action: string; after: { jwksKids: string[] } }>('select action, after from audit_log where target_id = ? order by id', [credential.id]);
    expect(audit.map((r) => r.action)).toEqual(['m2m_credential.created', 'm2m_credential.jwks_updated', 'm2m_credential.jwks_updated']);
    expect(audit[1]?.after.jwksKids).toEqual(['first', 'second']);
  });

  it('refuses unknown permissions, an empty list and grants wider than the caller', async () => {
    for (const permissions of [['users:fly'], ['nonsense'], []]) {
      const response = await app.http.post('/m2m-credentials', { name: 'bad', permissions });
      expect(response.status, JSON.stringify(permissions)).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'permissions' });
    }
    const noName = await app.http.post('/m2m-credentials', { permissions: ['users:read'] });
    expect(noName.body.field).toBe('name');

    const narrow = await clientWithKey(app, ['users:*', 'm2m_credentials:read', 'm2m_credentials:write']);
    const within = await narrow.post('/m2m-credentials', { name: 'narrower', permissions: ['users:read'] });
    expect(within.status).toBe(201);
    for (const permissions of [['*'], ['tenants:read'], ['m2m_credentials:*'], ['users:read', 'api_keys:write']]) {
      const wider = await narrow.post('/m2m-credentials', { name: 'wider', permissions });
      expect(wider.status, JSON.stringify(permissions)).toBe(403);
      expect(wider.body.code).toBe('forbidden');
    }
    const admin = await createCredential({ permissions: ['*'] });
    expect((await narrow.post(`/m2m-credentials/${admin.id}/rotate`)).status).toBe(403);
    expect((await storedSecrets(admin.id)).current).toBe(admin.clientSecret);
    expect((await narrow.post(`/m2m-credentials/${within.body.id}/rotate`)).status).toBe(200);
  });

  // A credential acts with its own list ∪ its roles' (API.md): a new secret or new keys hand out all of that.
  it('a caller cannot rotate or replace the keys of a credential that is wider than itself through its roles', async () => {
    const roles = new TestRoles(app);
    const secretOne = await createCredential({});
    const keyOne = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [ecKey('kept').public] } });
    for (const { id } of [secretOne, keyOne]) await roles.assign({ type: 'm2m_credential', id }, 'app_admin');
    const narrow = await clientWithKey(app, ['m2m_credentials:write', 'users:read']);
    expect((await narrow.post('/m2m-credentials', { name: 'wide', permissions: ['*'] })).status).toBe(403);

    const rotate = await narrow.post(`/m2m-credentials/${secretOne.id}/rotate`);
    expect(rotate.status, JSON.stringify(rotate.body)).toBe(403);
    expect(rotate.body.code).toBe('forbidden');
    const replace = await narrow.put(`/m2m-credentials/${keyOne.id}/jwks`, { keys: [ecKey('taken').public] });
    expect(replace.status, JSON.stringify(replace.body)).toBe(403);
    // Nothing changed: the secret still gets a token, the keys are the old ones.
    expect(await storedSecrets(secretOne.id)).toEqual({ current: secretOne.clientSecret, previous: null });
    const token = () => postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' }, { authorization: basicAuth(secretOne.clientId, secretOne.clientSecret) });
    expect((await token()).status).toBe(200);
    expect((await app.http.get(`/m2m-credentials/${keyOne.id}`)).body.jwks).toEqual(keyOne.jwks);

    // A caller that holds as much application-wide, here through the same role, may.
    const peer = await app.http.post('/api-keys', { name: 'peer', permissions: ['users:read'] });
    await roles.assign({ type: 'api_key', id: peer.body.key.id }, 'app_admin');
    const admin = app.as({ apiKey: peer.body.secret });
    const rotated = await admin.post(`/m2m-credentials/${secretOne.id}/rotate`, { gracePeriodSeconds: 0 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect((await token()).status).toBe(401);
    const replaced = await admin.put(`/m2m-credentials/${keyOne.id}/jwks`, { keys: [ecKey('new').public] });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.jwks.keys.map((key: { kid: string }) => key.kid)).toEqual(['new']);
  });

  it('rotates the secret: the new one at once, the previous one for the grace period; replays return the same secret', async () => {
    const credential = await createCredential({});
    const idempotencyKey = crypto.randomUUID();
    const rotated = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: credential.id, permissions: ['users:read'], clientSecret: expect.stringMatching(/^ghs_/) });
    expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 86_400_000 - 60_000);
    expect(await storedSecrets(credential.id)).toEqual({ current: rotated.body.clientSecret, previous: credential.clientSecret });
    const replay = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, undefined, { headers: { 'idempotency-key': idempotencyKey } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(rotated.body);
    expect(JSON.stringify(await app.sql('select * from idempotency_record'))).not.toContain(rotated.body.clientSecret);

    const immediate = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 0 });
    expect(immediate.body.previousSecretExpiresAt).toBeNull();
    expect(await storedSecrets(credential.id)).toEqual({ current: immediate.body.clientSecret, previous: null });
    const tooLong = await app.http.post(`/m2m-credentials/${credential.id}/rotate`, { gracePeriodSeconds: 30 * 86_400 + 1 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.field).toBe('gracePeriodSeconds');

    const keyBased = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [ecKey('k').public] } });
    const noSecret = await app.http.post(`/m2m-credentials/${keyBased.id}/rotate`);
    expect(noSecret.status).toBe(422);
    expect(noSecret.body).toMatchObject({ code: 'validation_error', field: 'credentialId' });
    expect((await app.http.post(`/m2m-credentials/${newId()}/rotate`)).status).toBe(404);
    const audit = JSON.stringify(await app.sql('select * from audit_log where target_id = ?', [credential.id]));
    for (const secret of [credential.clientSecret, rotated.body.clientSecret, immediate.body.clientSecret]) expect(audit).not.toContain(secret);
  });

  it('revokes: 204, secrets erased, listed with revokedAt; again changes nothing; no rotation or new keys after', async () => {
    const credential = await createCredential({});
    await app.http.post(`/m2m-credentials/${credential.id}/rotate`);
    const revoked = await app.http.delete(`/m2m-credentials/${credential.id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBe('');
    const read = (await app.http.get(`/m2m-credentials/${credential.id}`)).body;
    expect(read).toMatchObject({ hasSecret: false, previousSecretExpiresAt: null });
    expect(Date.parse(read.revokedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(await storedSecrets(credential.id)).toEqual({ current: null, previous: null });
    expect((await app.http.get('/m2m-credentials?pageSize=100')).body.data).toContainEqual(read);
    expect((await app.http.delete(`/m2m-credentials/${credential.id}`)).status).toBe(204);
    expect((await app.http.get(`/m2m-credentials/${credential.id}`)).body.revokedAt).toBe(read.revokedAt);
    const rotate = await app.http.post(`/m2m-credentials/${credential.id}/rotate`);
    expect(rotate.status).toBe(422);
    expect(rotate.body.field).toBe('credentialId');
    const keyBased = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [ecKey('k').public] } });
    await app.http.delete(`/m2m-credentials/${keyBased.id}`);
    const jwks = await app.http.put(`/m2m-credentials/${keyBased.id}/jwks`, { keys: [ecKey('k2').public] });
    expect(jwks.status).toBe(422);
    expect(jwks.body.field).toBe('credentialId');
    expect((await app.http.delete(`/m2m-credentials/${newId()}`)).status).toBe(404);
    const audit = await app.sql<{ action: string }>('select action from audit_log where target_id = ? order by id', [credential.id]);
    expect(audit.map((r) => r.action)).toEqual(['m2m_credential.created', 'm2m_credential.rotated', 'm2m_credential.revoked']);
  });

  it('a tenant scope manages only its own tenant’s credentials', async () => {
    const tenantKey = await clientWithKey(app, ['m2m_credentials:*', 'users:read'], tenantA);
    const own = await tenantKey.post('/m2m-credentials', { name: 'for A', permissions: ['users:read'] });
    expect(own.status).toBe(201);
    expect(own.body.tenantId).toBe(tenantA);
    const inB = await createCredential({ tenantId: tenantB });
    expect(inB.tenantId).toBe(tenantB);
    const viaPath = await createCredential({}, `${appPath}/tenants/${tenantB}/m2m-credentials`);
    expect(viaPath.tenantId).toBe(tenantB);
    const appWide = await createCredential({});
    expect((await tenantKey.post('/m2m-credentials', { name: 'for B', permissions: ['users:read'], tenantId: tenantB })).status).toBe(403);
    expect((await tenantKey.get(`${appPath}/tenants/${tenantB}/m2m-credentials`)).status).toBe(403);
    const unknownTenant = await app.http.post('/m2m-credentials', { name: 'x', permissions: ['users:read'], tenantId: newId() });
    expect(unknownTenant.status).toBe(404);
    expect(unknownTenant.body.field).toBe('tenantId');
    const listed = (await tenantKey.get('/m2m-credentials?pageSize=100')).body.data as { id: string; tenantId: string }[];
    expect(listed.map((c) => c.id)).toContain(own.body.id);
    expect(listed.every((c) => c.tenantId === tenantA)).toBe(true);
    for (const id of [inB.id, appWide.id]) {
      expect((await tenantKey.get(`/m2m-credentials/${id}`)).status).toBe(404);
      expect((await tenantKey.delete(`/m2m-credentials/${id}`)).status).toBe(404);
      expect((await tenantKey.post(`/m2m-credentials/${id}/rotate`)).status).toBe(404);
    }
    expect((await app.http.get(`/m2m-credentials/${inB.id}`)).body.revokedAt).toBeNull();
    const all = (await app.http.get('/m2m-credentials?pageSize=100')).body.data.map((c: { id: string }) => c.id);
    expect(all).toEqual(expect.arrayContaining([own.body.id, inB.id, appWide.id]));
  });

  it('enforces m2m_credentials:read, m2m_credentials:write and m2m_credentials:delete', async () => {
    const target = await createCredential({ authMethod: 'private_key_jwt', jwks: { keys: [ecKey('k').public] } });
    const secretTarget = await createCredential({});
    const reader = await clientWithKey(app, ['m2m_credentials:read', 'users:read']);
    expect((await reader.get('/m2m-credentials')).status).toBe(200);
    expect((await reader.get(`/m2m-credentials/${target.id}`)).status).toBe(200);
    expect((await reader.post('/m2m-credentials', { name: 'x', permissions: ['users:read'] })).status).toBe(403);
    expect((await reader.post(`/m2m-credentials/${secretTarget.id}/rotate`)).status).toBe(403);
    expect((await reader.put(`/m2m-credentials/${target.id}/jwks`, { keys: [ecKey('k2').public] })).status).toBe(403);
    expect((await reader.delete(`/m2m-credentials/${target.id}`)).status).toBe(403);
    expect((await app.http.get(`/m2m-credentials/${target.id}`)).body).toMatchObject({ revokedAt: null, jwks: target.jwks });
    const deleter = await clientWithKey(app, ['m2m_credentials:delete']);
    expect((await deleter.get('/m2m-credentials')).status).toBe(403);
    expect((await deleter.delete(`/m2m-credentials/${target.id}`)).status).toBe(204);
    const refused = await (await clientWithKey(app, ['oauth_clients:*'])).get('/m2m-credentials');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
  });

  it('another application’s credential is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirs = (await app.as({ apiKey: other.apiKey }).post('/m2m-credentials', { name: 'theirs', permissions: ['users:read'] })).body;
    expect((await app.http.get(`/m2m-credentials/${theirs.id}`)).status).toBe(404);
    expect((await app.http.delete(`/m2m-credentials/${theirs.id}`)).status).toBe(404);
    expect((await app.http.post(`/m2m-credentials/${theirs.id}/rotate`)).status).toBe(404);
    expect((await app.http.put(`/m2m-credentials/${theirs.id}/jwks`, { keys: [ecKey('k').public] })).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/m2m-credentials`)).status).toBe(404);
    expect(await storedSecrets(theirs.id)).toEqual({ current: theirs.clientSecret, previous: null });
  });

  it('paginates with signed cursors', async () => {
    const ownApp = await app.bootstrapAnother();
    const http = app.as({ apiKey: ownApp.apiKey });
    for (let i = 0; i < 3; i += 1) await http.post('/m2m-credentials', { name: `m${i}`, permissions: ['users:read'] });
    await http.post('/oauth-clients', { name: 'not listed', type: 'device' });
    const first = await http.get('/m2m-credentials?pageSize=2');
    expect(first.body.data.map((c: { name: string }) => c.name)).toEqual(['m0', 'm1']);
    const second = await http.get(`/m2m-credentials?pageSize=2&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ name: 'm2' })], next: null });
    const wrongList = await http.get(`/oauth-clients?cursor=${encodeURIComponent(first.body.next)}`);
    expect(wrongList.status).toBe(422);
    expect(wrongList.body.field).toBe('cursor');
  });

  it('serves the same operations over GraphQL', async () => {
    const created = await app.http.graphql(
      'mutation($input: CreateM2MCredentialInput!) { createM2MCredential(input: $input) { id clientId clientSecret authMethod } }',
      { input: { name: 'gql', permissions: ['users:read'], authMethod: 'client_secret_post' } },
    );
    expect(created.body.errors).toBeUndefined();
    const { id, clientSecret } = created.body.data.createM2MCredential;
    expect(clientSecret).toMatch(/^ghs_/);
    const rotated = await app.http.graphql('mutation($id: UUID!) { rotateM2MCredential(credentialId: $id) { clientSecret previousSecretExpiresAt } }', { id });
    expect(rotated.body.data.rotateM2MCredential.previousSecretExpiresAt).not.toBeNull();
    const revoked = await app.http.graphql('mutation($id: UUID!) { revokeM2MCredential(credentialId: $id) { revokedAt hasSecret } }', { id });
    expect(revoked.body.data.revokeM2MCredential).toMatchObject({ hasSecret: false, revokedAt: expect.any(String) });
    const key = ecKey('gql');
    const bad = await app.http.graphql(
      'mutation($input: CreateM2MCredentialInput!) { createM2MCredential(input: $input) { id } }',
      { input: { name: 'x', permissions: ['users:read'], authMethod: 'private_key_jwt', jwks: { keys: [key.private] } } },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'jwks.keys[0].d' });
    const list = await app.http.graphql('{ m2mCredentials(pageSize: 100) { data { id } next } }');
    expect(list.body.data.m2mCredentials.data).toContainEqual({ id });
  });
});
