import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { certificatePem, samlSpKey } from '../../src/domain/sign-in/saml-keys.ts';
import { EC_CERTIFICATE, IDP_CERTIFICATE } from '../support/saml-idp.ts';
import { passwordProviderId } from '../support/auth-providers.ts';

/**
 * SAML providers through the management API: what to register at the IdP (`acsUrl`, `metadataUrl`, read-only, for the
 * provider's scope), the SP metadata document at `metadataUrl`, and the settings refused before they could fail at
 * sign-in time (no certificate, an http upstream).
 */
let app: TestApp;
let publicUrl: string;
let appPath: string;

const samlConfig = (extra: Record<string, unknown> = {}) => ({ entityId: 'https://idp.example.com/entity', ssoUrl: 'https://idp.example.com/sso', certificate: IDP_CERTIFICATE, ...extra });

/** The certificate an SP metadata document publishes (each of its KeyDescriptors names the one key). */
function spCertificate(metadata: string): X509Certificate {
  const base64 = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata)?.[1];
  if (base64 === undefined) throw new Error(`no certificate in ${metadata}`);
  return new X509Certificate(Buffer.from(base64.replace(/\s/g, ''), 'base64'));
}

beforeAll(async () => {
  app = await startTestApp();
  publicUrl = app.gatehouse.services.config.publicUrl;
  appPath = `/applications/${app.root.applicationId}`;
});
afterAll(async () => app?.close());

describe('acsUrl and metadataUrl', () => {
  it('an application provider shows them on the service’s surface, in REST and GraphQL; other types show null', async () => {
    const created = await app.http.post('/auth-providers', { type: 'saml', name: 'Okta', config: samlConfig() });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    const expected = { acsUrl: `${publicUrl}/saml/${id}/acs`, metadataUrl: `${publicUrl}/saml/${id}/metadata` };
    expect(created.body).toMatchObject(expected);
    expect((await app.http.get(`/auth-providers/${id}`)).body).toMatchObject(expected);
    const query = await app.http.graphql('query ($id: UUID!) { authProvider(providerId: $id) { acsUrl metadataUrl } }', { id });
    expect(query.body.data.authProvider).toEqual(expected);
    const password = await app.http.get(`/auth-providers/${await passwordProviderId(app.http)}`);
    expect(password.body).toMatchObject({ acsUrl: null, metadataUrl: null });
    // Read-only: not a setting.
    const written = await app.http.patch(`/auth-providers/${id}`, { acsUrl: 'https://evil.example/acs' });
    expect(written.status).toBe(422);
    await app.http.delete(`/auth-providers/${id}`);
  });

  it('a tenant’s own provider (isolated) shows them on the tenant’s surface, by tenant id', async () => {
    const tenantId = await app.createTenant('Saml Isolated');
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const created = await app.http.post(`${appPath}/tenants/${tenantId}/auth-providers`, { type: 'saml', config: samlConfig() });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect(created.body).toMatchObject({ acsUrl: `${publicUrl}/t/${tenantId}/saml/${id}/acs`, metadataUrl: `${publicUrl}/t/${tenantId}/saml/${id}/metadata` });
    const metadata = await fetch(`${app.baseUrl}/t/${tenantId}/saml/${id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain(`entityID="${publicUrl}/t/${tenantId}/saml/${id}/metadata"`);
    // Not at the application's path, nor under another tenant's.
    expect((await fetch(`${app.baseUrl}/saml/${id}/metadata`)).status).toBe(404);
    const other = await app.createTenant('Saml Other');
    expect((await fetch(`${app.baseUrl}/t/${other}/saml/${id}/metadata`)).status).toBe(404);
    expect((await app.http.delete(`${appPath}/tenants/${tenantId}/auth-providers/${id}`)).status).toBeLessThan(300);
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'shared' } })).status).toBe(200);
  });
});

describe('the SP metadata document', () => {
  it('names the SP’s entity id, its ACS (HTTP-POST) and its certificate for encryption; with signRequests, for signing too', async () => {
    const created = await app.http.post('/auth-providers', { type: 'saml', config: samlConfig() });
    const { id, acsUrl, metadataUrl } = created.body as { id: string; acsUrl: string; metadataUrl: string };
    const answer = await fetch(`${app.baseUrl}/saml/${id}/metadata`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/samlmetadata\+xml/);
    const xml = await answer.text();
    expect(xml).toContain(`entityID="${metadataUrl}"`);
    expect(xml).toMatch(new RegExp(`<AssertionConsumerService[^>]+Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]+Location="${acsUrl}"`));
    expect(xml).toContain('AuthnRequestsSigned="false"');
    const uses = [...xml.matchAll(/<KeyDescriptor use="(\w+)"/g)].map((match) => match[1]);
    expect(uses).toEqual(['encryption']);
    const certificate = spCertificate(xml);
    expect(certificate.subject).toBe(`CN=Gatehouse SAML SP ${id}`);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(Date.parse(certificate.validTo)).toBeGreaterThan(Date.now() + 9 * 365 * 864e5);
    // One key per provider, kept: the metadata shows the same certificate again; it goes with its provider, and
    // another provider (the application holds one `saml` at a time) has its own.
    expect(spCertificate(await (await fetch(`${app.baseUrl}/saml/${id}/metadata`)).text()).fingerprint256).toBe(certificate.fingerprint256);
    expect((await app.http.delete(`/auth-providers/${id}`)).status).toBe(204);
    const other = await app.http.post('/auth-providers', { type: 'saml', config: samlConfig({ signRequests: true }) });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const signing = await (await fetch(`${app.baseUrl}/saml/${other.body.id as string}/metadata`)).text();
    expect(signing).toContain('AuthnRequestsSigned="true"');
    expect([...signing.matchAll(/<KeyDescriptor use="(\w+)"/g)].map((match) => match[1]).sort()).toEqual(['encryption', 'signing']);
    expect(spCertificate(signing).fingerprint256).not.toBe(certificate.fingerprint256);
    expect((await app.http.delete(`/auth-providers/${other.body.id as string}`)).status).toBe(204);
    const [left] = await app.sql<{ keys: number }>(
      'select count(*)::int as keys from saml_sp_key where application_id = ? and provider_id in (?, ?)',
      [app.root.applicationId, id, other.body.id],
    );
    expect(left?.keys).toBe(0);
  });

  it('a stored certificate OpenSSL cannot read (a serial with padding) is certified again, for the same key', async () => {
    const created = await app.http.post('/auth-providers', { type: 'saml', config: samlConfig() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const first = spCertificate(await (await fetch(`${app.baseUrl}/saml/${id}/metadata`)).text());
    // Its serial's INTEGER (16 bytes) begun with two zero bytes: an encoding with padding.
    const der = Buffer.from(first.raw);
    const serialAt = der.indexOf(Buffer.from(`0210${first.serialNumber}`, 'hex'));
    expect(serialAt).toBeGreaterThan(0);
    der.fill(0, serialAt + 2, serialAt + 4);
    const padded = certificatePem(der);
    expect(() => new X509Certificate(padded)).toThrow(/padding/);
    const connection = app.gatehouse.services.orm.em.getConnection();
    const where = 'where application_id = ? and provider_id = ?';
    await connection.execute(`update saml_sp_key set certificate = ? ${where}`, [padded, app.root.applicationId, id]);

    const again = spCertificate(await (await fetch(`${app.baseUrl}/saml/${id}/metadata`)).text());
    const spki = (certificate: X509Certificate) => certificate.publicKey.export({ type: 'spki', format: 'der' }).toString('hex');
    expect(spki(again)).toBe(spki(first));
    expect(again.verify(again.publicKey)).toBe(true);
    expect(again.subject).toBe(`CN=Gatehouse SAML SP ${id}`);
    const [stored] = await connection.execute<{ certificate: string }[]>(`select certificate from saml_sp_key ${where}`, [app.root.applicationId, id]);
    expect(new X509Certificate(stored!.certificate).fingerprint256).toBe(again.fingerprint256);
    expect(spCertificate(await (await fetch(`${app.baseUrl}/saml/${id}/metadata`)).text()).fingerprint256).toBe(again.fingerprint256);

    // Two uses at once certify it again once: the one whose update lands, which both then answer.
    await connection.execute(`update saml_sp_key set certificate = ? ${where}`, [padded, app.root.applicationId, id]);
    const { orm, storedSecrets } = app.gatehouse.services;
    const provider = { id, applicationId: app.root.applicationId };
    const [one, two] = await Promise.all([samlSpKey(orm, storedSecrets, provider), samlSpKey(orm, storedSecrets, provider)]);
    expect(two.certificate).toBe(one.certificate);
    expect(spki(new X509Certificate(one.certificate))).toBe(spki(first));
    const [raced] = await connection.execute<{ certificate: string }[]>(`select certificate from saml_sp_key ${where}`, [app.root.applicationId, id]);
    expect(raced!.certificate).toBe(one.certificate);
    expect((await app.http.delete(`/auth-providers/${id}`)).status).toBe(204);
  });

  it('an unknown or malformed provider id, or another type’s, is 404', async () => {
    for (const id of ['00000000-0000-7000-8000-000000000000', 'not-a-uuid', await passwordProviderId(app.http)]) {
      expect((await fetch(`${app.baseUrl}/saml/${id}/metadata`)).status).toBe(404);
    }
  });
  it('two first uses at once keep one key: both get the one stored, which the metadata then publishes', async () => {
    const created = await app.http.post('/auth-providers', { type: 'saml', config: samlConfig() });
    const provider = { id: created.body.id as string, applicationId: app.root.applicationId };
    const { orm, storedSecrets } = app.gatehouse.services;
    const [one, two] = await Promise.all([samlSpKey(orm, storedSecrets, provider), samlSpKey(orm, storedSecrets, provider)]);
    expect(two).toEqual(one);
    expect(new X509Certificate(one.certificate).checkPrivateKey(createPrivateKey(one.privateKey))).toBe(true);
    const published = spCertificate(await (await fetch(`${app.baseUrl}/saml/${provider.id}/metadata`)).text());
    expect(published.fingerprint256).toBe(new X509Certificate(one.certificate).fingerprint256);
    await app.http.delete(`/auth-providers/${provider.id}`);
  });
});

describe('settings refused before sign-in time', () => {
  it.each([
    ['no certificate', { certificate: null }, 'config.certificate'],
    ['an EC certificate, whose key verifies no SAML signature (RSA only)', { certificate: EC_CERTIFICATE }, 'config.certificate'],
    ['an http SSO URL', { ssoUrl: 'http://idp.example.com/sso' }, 'config.ssoUrl'],
    ['an http SSO URL on loopback without GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS', { ssoUrl: 'http://127.0.0.1:8080/sso' }, 'config.ssoUrl'],
    ['an http IdP-initiated login URL', { idpInitiatedLoginUrl: 'http://app.example.com/login' }, 'config.idpInitiatedLoginUrl'],
  ])('%s: 422 naming the field, nothing stored', async (_name, extra, field) => {
    const before = (await app.http.get('/auth-providers')).body.data.length as number;
    const refused = await app.http.post('/auth-providers', { type: 'saml', config: samlConfig(extra) });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field });
    expect((await app.http.get('/auth-providers')).body.data).toHaveLength(before);
  });

  it('an EC certificate in a PATCH: 422 naming it, the provider keeps its RSA one', async () => {
    const created = await app.http.post('/auth-providers', { type: 'saml', name: 'Patched', config: samlConfig() });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const refused = await app.http.patch(`/auth-providers/${id}`, { config: { certificate: EC_CERTIFICATE } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'config.certificate' });
    expect(refused.body.message).toContain('RSA');
    expect((await app.http.get(`/auth-providers/${id}`)).body.config.certificate).toBe(IDP_CERTIFICATE.trim());
    await app.http.delete(`/auth-providers/${id}`);
  });

  it('with GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS=true, http on loopback is accepted, and nowhere else', async () => {
    const loopback = await startTestApp({ upstreams: { allowLoopback: true, allowPrivateHosts: false, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' } });
    try {
      for (const ssoUrl of ['http://127.0.0.1:8080/sso', 'http://localhost/sso', 'http://[::1]:9000/sso']) {
        const created = await loopback.http.post('/auth-providers', { type: 'saml', config: samlConfig({ ssoUrl }) });
        expect(created.status, ssoUrl).toBe(201);
        await loopback.http.delete(`/auth-providers/${created.body.id as string}`);
      }
      const refused = await loopback.http.post('/auth-providers', { type: 'saml', config: samlConfig({ ssoUrl: 'http://idp.example.com/sso' }) });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ field: 'config.ssoUrl' });
    } finally {
      await loopback.close();
    }
  });
});
