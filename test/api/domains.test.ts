import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/db/entities/index.ts';
import type { ResolveTxt } from '../../src/domain/domains/verification.ts';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { publishing, verifyWith } from '../support/domains.ts';
import { issueTestKey } from '../support/keys.ts';
import { TestRoles } from '../support/roles.ts';

let app: TestApp;
let appPath: string;
let domains: string;
let acme: string;
let globex: string;
let dnsServer: TestDnsServer;

beforeAll(async () => {
  // The service asks DNS_SERVERS: a real DNS server of the test's, as an operator's resolver would answer.
  dnsServer = await startDnsServer();
  app = await startTestApp({ email: { ...loadConfig({}).email, dnsServers: [dnsServer.address] } });
  appPath = `/applications/${app.root.applicationId}`;
  domains = `${appPath}/domains`;
  acme = await app.createTenant('Acme');
  globex = await app.createTenant('Globex');
});
afterAll(async () => {
  await app?.close();
  await dnsServer?.close();
});

describe('application domains', () => {
  let login: { id: string; verificationToken: string };

  it('adds a domain, unverified, with the TXT record to publish', async () => {
    const created = await app.http.post(domains, { hostname: 'Login.Example.com' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      applicationId: app.root.applicationId,
      tenantId: null,
      hostname: 'login.example.com',
      verified: false,
      verifiedAt: null,
      verificationToken: expect.stringMatching(/^gatehouse-verification=/),
    });
    expect(created.body.verificationRecord).toEqual({ type: 'TXT', name: '_gatehouse-challenge.login.example.com', value: created.body.verificationToken });
    login = created.body;
    const list = await app.http.get(domains);
    expect(list.body).toEqual({ data: [created.body], next: null });
  });

  it('refuses a duplicate hostname (409) and anything but a bare FQDN (422)', async () => {
    const duplicate = await app.http.post(domains, { hostname: 'LOGIN.example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'already_exists', field: 'hostname' });
    for (const hostname of ['https://auth.example.com', 'auth.example.com:443', 'auth.example.com/x', '10.0.0.1', 'localhost', 'app.localhost', 'A.B.LOCALHOST', '']) {
      const response = await app.http.post(domains, { hostname });
      expect(response.status, hostname).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'hostname' });
    }
    expect((await app.http.post(domains, {})).body.field).toBe('hostname');
    expect((await app.http.get(domains)).body.data).toHaveLength(1);
  });

  it('refuses a name that is not ASCII (422), saying its IDNA form, and folds none into ASCII', async () => {
    const idn = await app.http.post(domains, { hostname: 'Login.Bücher.example' });
    expect(idn.status).toBe(422);
    expect(idn.body).toMatchObject({ code: 'validation_error', field: 'hostname' });
    expect(idn.body.message).toBe('hostname must be ASCII: write an internationalized name in its IDNA form (login.xn--bcher-kva.example)');
    // U+212A KELVIN SIGN lower-cases to "k": it was stored as login.kelvin.example.
    const kelvin = await app.http.post(domains, { hostname: 'login.\u212Aelvin.example' });
    expect(kelvin.status).toBe(422);
    expect(kelvin.body.message).toBe('hostname must be ASCII: write an internationalized name in its IDNA form');
    expect((await app.http.get(domains)).body.data.map((d: { hostname: string }) => d.hostname)).toEqual(['login.example.com']);
  });

  it('refuses a hostname too long for its verification record to be a DNS name (422): it could never be verified', async () => {
    // 200 + `extra` characters; `_gatehouse-challenge.` adds 21, and a DNS name has at most 253.
    const named = (extra: number) => `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(extra)}.example`;
    const refused = await app.http.post(domains, { hostname: named(33) });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'validation_error', field: 'hostname' });
    expect(refused.body.message).toBe('hostname may have at most 232 characters, so that its verification record _gatehouse-challenge.<hostname> is a DNS name');
    expect((await app.http.get(domains)).body.data).toHaveLength(1);
    const longest = await app.http.post(domains, { hostname: named(32) });
    expect(longest.status).toBe(201);
    expect(longest.body.verificationRecord.name).toHaveLength(253);
    expect((await app.http.delete(`${domains}/${longest.body.id}`)).status).toBe(204);
  });

  it('refuses the service’s own hostname and names under it (422): they are the service’s, not a customer’s', async () => {
    // The test app's PUBLIC_URL is http://gatehouse.test.
    for (const hostname of ['gatehouse.test', 'GATEHOUSE.test', 'login.gatehouse.test', 'a.b.gatehouse.test']) {
      const response = await app.http.post(domains, { hostname });
      expect(response.status, hostname).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', field: 'hostname' });
    }
    expect((await app.http.post(domains, { hostname: 'gatehouse.test.example.com' })).status).toBe(201);
    expect((await app.http.post(domains, { hostname: 'notgatehouse.test' })).status).toBe(201);
    for (const domain of (await app.http.get(domains)).body.data.filter((d: { id: string }) => d.id !== login.id)) {
      expect((await app.http.delete(`${domains}/${domain.id}`)).status).toBe(204);
    }
  });

  it('verify without the record published answers verified: false with the reason, and changes nothing', async () => {
    const response = await app.http.post(`${domains}/${login.id}/verify`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ verified: false, reason: 'No TXT record found at _gatehouse-challenge.login.example.com' });
    expect(response.body.domain).toMatchObject({ id: login.id, verified: false, verifiedAt: null });
    const audit = await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: 'domain.verified' }, { filters: false });
    expect(audit).toEqual([]);
  });

  it('verify with the record published at DNS_SERVERS verifies the domain, once', async () => {
    const record = '_gatehouse-challenge.login.example.com';
    dnsServer.zone.set(record, { txt: ['something else'] });
    const wrong = await app.http.post(`${domains}/${login.id}/verify`);
    expect(wrong.body).toMatchObject({ verified: false, reason: `The TXT record at ${record} does not hold this domain's verification token` });
    dnsServer.zone.set(record, { txt: ['something else', login.verificationToken] });
    const result = await app.http.post(`${domains}/${login.id}/verify`);
    expect(result.body).toMatchObject({ verified: true, reason: null, domain: { id: login.id, verified: true } });
    const listed = (await app.http.get(domains)).body.data[0];
    expect(listed).toMatchObject({ verified: true, verifiedAt: expect.any(String) });
    // Verified stays verified: a later check answers without a lookup.
    const again = await app.http.post(`${domains}/${login.id}/verify`);
    expect(again.body).toMatchObject({ verified: true, reason: null, domain: { verifiedAt: listed.verifiedAt } });
    const audit = await app.gatehouse.services.orm.em.fork().find(AuditLog, { action: 'domain.verified' }, { filters: false });
    expect(audit).toHaveLength(1);
  });

  it('a lookup that fails (SERVFAIL) or a verification racing the deletion verifies nothing: 200 with the reason, then 404', async () => {
    const created = (await app.http.post(domains, { hostname: 'flaky.example.com' })).body;
    const record = '_gatehouse-challenge.flaky.example.com';
    dnsServer.zone.set(record, { rcode: 2 });
    const failed = await app.http.post(`${domains}/${created.id}/verify`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ verified: false, reason: `The DNS lookup of ${record} failed (ESERVFAIL); try again later`, domain: { verified: false } });
    // The record arrives while the domain is being deleted: the check passes, the domain is gone (404), nothing written.
    const verifying = verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId }, created.id, async () => {
      expect((await app.http.delete(`${domains}/${created.id}`)).status).toBe(204);
      return [[created.verificationToken]];
    });
    await expect(verifying).rejects.toMatchObject({ code: 'not_found', field: 'domainId' });
    expect(await app.sql('select id from domain where hostname = ?', ['flaky.example.com'])).toEqual([]);
    const audit = await app.sql(`select action from audit_log where target_id = ? order by seq`, [created.id]);
    expect(audit).toEqual([{ action: 'domain.created' }, { action: 'domain.deleted' }]);
  });

  it('a hostname verified by one application cannot be verified by another (409)', async () => {
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    const theirs = await foreign.post(`/applications/${other.applicationId}/domains`, { hostname: 'login.example.com' });
    expect(theirs.status).toBe(201);
    const dns = publishing({ '_gatehouse-challenge.login.example.com': theirs.body.verificationToken });
    await expect(verifyWith(app, other.apiKey, { applicationId: other.applicationId }, theirs.body.id, dns)).rejects.toMatchObject({
      code: 'already_exists',
      field: 'hostname',
    });
  });

  it('two applications verifying one hostname at once: one verifies it, the other gets 409', async () => {
    const hostname = 'race.example.com';
    const sides = await Promise.all([app.bootstrapAnother(), app.bootstrapAnother()]);
    const created = await Promise.all(
      sides.map(async (side) => (await app.as({ apiKey: side.apiKey }).post(`/applications/${side.applicationId}/domains`, { hostname })).body),
    );
    // DNS holds both tokens, as a zone may while it moves from one application to another.
    const dns: ResolveTxt = async () => created.map((domain) => [domain.verificationToken]);
    const outcomes = await Promise.allSettled(
      sides.map((side, i) => verifyWith(app, side.apiKey, { applicationId: side.applicationId }, created[i].id, dns)),
    );
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: { code: 'already_exists', field: 'hostname' } });
    const verified = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ id: string }[]>('select id from domain where hostname = ? and verified_at is not null', [hostname]);
    expect(verified).toHaveLength(1);
  });

  it('deletes a domain; a repeat is 404, and the Idempotency-Key replays', async () => {
    const created = await app.http.post(domains, { hostname: 'old.example.com' });
    const key = randomUUID();
    expect((await app.http.delete(`${domains}/${created.body.id}`, { headers: { 'idempotency-key': key } })).status).toBe(204);
    const replay = await app.http.delete(`${domains}/${created.body.id}`, { headers: { 'idempotency-key': key } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await app.http.delete(`${domains}/${created.body.id}`)).status).toBe(404);
    expect((await app.http.post(`${domains}/${created.body.id}/verify`)).status).toBe(404);
  });

  it('refuses missing credentials (401), missing permissions (403) and another application (404)', async () => {
    expect((await app.as({}).get(domains)).status).toBe(401);
    const reader = await issueTestKey(app, { permissions: ['domains:read'] });
    expect((await reader.get(domains)).status).toBe(200);
    expect((await reader.post(domains, { hostname: 'r.example.com' })).status).toBe(403);
    expect((await reader.post(`${domains}/${login.id}/verify`)).status).toBe(403);
    expect((await reader.delete(`${domains}/${login.id}`)).body.code).toBe('forbidden');
    const other = await app.bootstrapAnother();
    const foreign = app.as({ apiKey: other.apiKey });
    expect((await foreign.get(domains)).status).toBe(404);
    expect((await foreign.delete(`${domains}/${login.id}`)).status).toBe(404);
    expect((await foreign.delete(`/applications/${other.applicationId}/domains/${login.id}`)).status).toBe(404);
    expect((await app.http.get(`/applications/${other.applicationId}/domains`)).status).toBe(404);
    expect((await app.http.get(domains)).body.data.map((d: { id: string }) => d.id)).toContain(login.id);
  });
});

describe('tenant domains', () => {
  const tenantDomains = (tenantId: string) => `${appPath}/tenants/${tenantId}/domains`;

  it('while shared: a tenant may not have its own domain (409)', async () => {
    const refused = await app.http.post(tenantDomains(acme), { hostname: 'acme.example.com' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'tenant_customization_disabled', field: 'tenancyConfig.authIsolation' });
    expect((await app.http.get(tenantDomains(acme))).body).toEqual({ data: [], next: null });
  });

  it('while isolated: each tenant has its own domains, apart from the application’s', async () => {
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const created = await app.http.post(tenantDomains(acme), { hostname: 'auth.acme.example' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tenantId: acme, hostname: 'auth.acme.example', verified: false });
    expect((await app.http.get(tenantDomains(acme))).body.data.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    expect((await app.http.get(tenantDomains(globex))).body.data).toEqual([]);
    expect((await app.http.get(domains)).body.data.map((d: { id: string }) => d.id)).not.toContain(created.body.id);
    // An unverified claim blocks no one: another tenant claims the hostname too, and the first to verify holds it. A
    // hostname verified in the application is not claimed again.
    const rival = await app.http.post(tenantDomains(globex), { hostname: 'auth.acme.example' });
    expect(rival.status).toBe(201);
    expect((await app.http.post(tenantDomains(globex), { hostname: 'login.example.com' })).body).toMatchObject({ code: 'already_exists', field: 'hostname' });
    expect((await app.http.post(tenantDomains(acme), { hostname: 'auth.acme.example' })).status).toBe(409);

    const unpublished = await app.http.post(`${tenantDomains(acme)}/${created.body.id}/verify`);
    expect(unpublished.body).toMatchObject({ verified: false, domain: { id: created.body.id } });
    const dns = publishing({ '_gatehouse-challenge.auth.acme.example': created.body.verificationToken });
    const verified = await verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId, tenantId: acme }, created.body.id, dns);
    expect(verified.domain).toMatchObject({ tenantId: acme, verified: true });
    const late = publishing({ '_gatehouse-challenge.auth.acme.example': rival.body.verificationToken });
    await expect(verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId, tenantId: globex }, rival.body.id, late)).rejects.toMatchObject({
      code: 'already_exists',
    });
    // The application's form does not reach a tenant's domain.
    expect((await app.http.delete(`${domains}/${created.body.id}`)).status).toBe(404);
    expect((await app.http.post(`${tenantDomains(globex)}/${created.body.id}/verify`)).status).toBe(404);
  });

  it('a tenant’s unverified claim does not keep the application from its own hostname', async () => {
    const squatter = await issueTestKey(app, { tenantId: globex });
    expect((await squatter.post(domains, { hostname: 'sso.victim-app.example' })).status).toBe(201);
    const own = await app.http.post(domains, { hostname: 'sso.victim-app.example' });
    expect(own.status).toBe(201);
    const dns = publishing({ '_gatehouse-challenge.sso.victim-app.example': own.body.verificationToken });
    expect((await verifyWith(app, app.root.apiKey, { applicationId: app.root.applicationId }, own.body.id, dns)).domain).toMatchObject({ verified: true });
  });

  it('a tenant-scoped key manages its own tenant’s domains and is refused another’s (403)', async () => {
    const acmeKey = await issueTestKey(app, { tenantId: acme });
    const own = await acmeKey.get(domains);
    expect(own.body.data.every((d: { tenantId: string }) => d.tenantId === acme)).toBe(true);
    const created = await acmeKey.post(domains, { hostname: 'sso.acme.example' });
    expect(created.body).toMatchObject({ tenantId: acme });
    const globexKey = await issueTestKey(app, { tenantId: globex });
    expect((await globexKey.get(tenantDomains(acme))).status).toBe(403);
    expect((await globexKey.post(tenantDomains(acme), { hostname: 'evil.example.com' })).status).toBe(403);
    expect((await globexKey.delete(`${tenantDomains(acme)}/${created.body.id}`)).status).toBe(403);
    expect((await globexKey.post(`${tenantDomains(acme)}/${created.body.id}/verify`)).status).toBe(403);
    expect((await globexKey.delete(`${domains}/${created.body.id}`)).status).toBe(404);
    expect((await acmeKey.delete(`${tenantDomains(acme)}/${created.body.id}`)).status).toBe(204);
  });

  it('a tenant scope adds, verifies or removes a domain only with tenant_overrides:write, as its own auth providers (403, nothing changed)', async () => {
    const narrow = await issueTestKey(app, { tenantId: acme, permissions: ['domains:read', 'domains:write', 'domains:delete'] });
    const refused = await narrow.post(domains, { hostname: 'narrow.acme.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Missing permission tenant_overrides:write');
    expect((await narrow.get(domains)).body.data.some((d: { hostname: string }) => d.hostname === 'narrow.acme.example')).toBe(false);
    const created = await app.http.post(tenantDomains(acme), { hostname: 'narrow.acme.example' });
    expect(created.status).toBe(201);
    expect((await narrow.post(`${domains}/${created.body.id}/verify`)).status).toBe(403);
    // Removing one ends sign-in at that host and the tokens issued there: the tenant's auth data, as a provider is.
    expect((await narrow.delete(`${domains}/${created.body.id}`)).status).toBe(403);
    expect((await narrow.get(domains)).body.data.some((d: { id: string }) => d.id === created.body.id)).toBe(true);
    const overrides = await issueTestKey(app, { tenantId: acme, permissions: ['domains:delete', 'tenant_overrides:write'] });
    expect((await overrides.delete(`${domains}/${created.body.id}`)).status).toBe(204);
  });

  it('is added only with credentials holding all the accounts its links would reach hold: an app_admin’s tenant refuses its administrator (403, nothing stored)', async () => {
    const other = await app.bootstrapAnother();
    const admin = app.as({ apiKey: other.apiKey });
    const path = `/applications/${other.applicationId}`;
    expect((await admin.patch(path, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const tenantOf = async (slug: string) => (await admin.post(`${path}/tenants`, { name: slug, slug })).body.id as string;
    const [withBoss, plain] = [await tenantOf('with-boss'), await tenantOf('plain')];
    const boss = (await admin.post(`${path}/tenants/${withBoss}/users`, { email: 'boss@with-boss.example' })).body.id as string;
    await new TestRoles(app, other.applicationId).assign({ type: 'user', id: boss }, 'app_admin');
    const tenantAdmin = async (tenantId: string) => {
      const key = await admin.post('/api-keys', { name: 'tenant admin', permissions: ['domains:read', 'domains:write', 'tenant_overrides:write'], tenantId });
      return app.as({ apiKey: key.body.secret as string });
    };
    const refused = await (await tenantAdmin(withBoss)).post(`${path}/tenants/${withBoss}/domains`, { hostname: 'login.with-boss.example' });
    expect(refused.status).toBe(403);
    expect((await admin.get(`${path}/tenants/${withBoss}/domains`)).body.data).toEqual([]);
    expect((await (await tenantAdmin(plain)).post(`${path}/tenants/${plain}/domains`, { hostname: 'login.plain.example' })).status).toBe(201);
    // A key of the application holding only domains:write, beside that app_admin: refused as well.
    const narrow = await admin.post('/api-keys', { name: 'domains', permissions: ['domains:read', 'domains:write'] });
    expect((await app.as({ apiKey: narrow.body.secret as string }).post(`${path}/domains`, { hostname: 'login.other.example' })).status).toBe(403);
    expect((await admin.post(`${path}/domains`, { hostname: 'login.other.example' })).status).toBe(201);
  });

  it('an unknown tenant or one of another application is not found', async () => {
    const other = await app.bootstrapAnother();
    const theirTenant = await app.createTenant('Theirs', other);
    expect((await app.http.get(tenantDomains(theirTenant))).status).toBe(404);
    expect((await app.http.post(tenantDomains(theirTenant), { hostname: 'x.example.com' })).status).toBe(404);
  });
});

describe('domains over GraphQL', () => {
  it('adds, lists and verifies with the same rules', async () => {
    const created = await app.http.graphql(
      `mutation($appId: UUID!, $t: UUID) { createDomain(appId: $appId, tenantId: $t, input: { hostname: "id.globex.example" }) { id hostname tenantId verified verificationRecord { name } } }`,
      { appId: app.root.applicationId, t: globex },
    );
    expect(created.body.data.createDomain).toMatchObject({ hostname: 'id.globex.example', tenantId: globex, verified: false, verificationRecord: { name: '_gatehouse-challenge.id.globex.example' } });
    const verify = await app.http.graphql(
      `mutation($appId: UUID!, $t: UUID, $id: UUID!) { verifyDomain(appId: $appId, tenantId: $t, domainId: $id) { verified reason domain { id } } }`,
      { appId: app.root.applicationId, t: globex, id: created.body.data.createDomain.id },
    );
    expect(verify.body.data.verifyDomain).toMatchObject({ verified: false, reason: expect.any(String) });
    const invalid = await app.http.graphql(`mutation($appId: UUID!) { createDomain(appId: $appId, input: { hostname: "nope" }) { id } }`, { appId: app.root.applicationId });
    expect(invalid.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'hostname', status: 422 });
  });
});
