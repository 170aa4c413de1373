import { X509Certificate } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { auditRecordsOf, traced } from '../support/audit.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import type { HttpClient, HttpResponse } from '../support/http.ts';
import { issueTestKey } from '../support/keys.ts';
import { createTestClient, decodeJwt, discover, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';
import { LOOPBACK_UPSTREAMS, TestIdp } from '../support/saml-idp.ts';
import { certificatePem } from '../../src/domain/sign-in/saml-keys.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';

/**
 * Rotating a `saml` provider's SP key (POST …/auth-providers/{id}/rotate-sp-key, rotateSamlSpKey): the new key signs
 * the AuthnRequests at once; the previous one still decrypts assertions and stays in the metadata for the grace period,
 * then is neither used nor published. Refusals change nothing; a retry with the same Idempotency-Key rotates once.
 * Time is vitest's fake Date, as the service and the OP read it.
 */
const REDIRECT_URI = 'https://app.example/callback';
const EMAIL = 'rotation@saml.test';
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_GRACE_SECONDS = 7 * 24 * 60 * 60;

let app: TestApp;
let config: oidc.Configuration;
const idp = new TestIdp();
let provider: { id: string; acsUrl: string; metadataUrl: string };
let userId: string;
let tenantId: string;

beforeAll(async () => {
  app = await startTestApp({ upstreams: LOOPBACK_UPSTREAMS }, { reachablePublicUrl: true });
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  const created = await app.http.post('/auth-providers', {
    type: 'saml',
    name: 'Rotating IdP',
    config: idp.providerConfig({ signRequests: true, allowSignup: false }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  provider = created.body as typeof provider;
  tenantId = await app.createTenant('Rotation');
  userId = await app.createUser(EMAIL, tenantId);
});
afterAll(async () => app?.close());
/**
 * The previous key's end moved to `at` in storage, rather than the clock to it: a faked Date ahead would leave uuid's
 * v7 generator ahead for the test files after this one in the worker (its ids stay monotonic).
 */
async function previousKeyEndsAt(at: number): Promise<void> {
  await app.sql('update saml_sp_key set previous_expires_at = ? where provider_id = ?', [new Date(at), provider.id]);
}

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

/** The metadata's KeyDescriptors in order: each one's use and its certificate's fingerprint. */
async function published(metadataUrl = provider.metadataUrl): Promise<{ use: string; certificate: string }[]> {
  const answer = await fetch(metadataUrl);
  expect(answer.status).toBe(200);
  const xml = await answer.text();
  return [...xml.matchAll(/<KeyDescriptor use="(\w+)">[\s\S]*?<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/g)].map((match) => ({
    use: match[1]!,
    certificate: fingerprint(certificatePem(Buffer.from(match[2]!.replace(/\s/g, ''), 'base64'))),
  }));
}

/** What the metadata shows for `certificates` (PEM, current first), with signRequests on. */
const descriptors = (...certificates: string[]) => [
  ...certificates.map((certificate) => ({ use: 'signing', certificate: fingerprint(certificate) })),
  ...certificates.map((certificate) => ({ use: 'encryption', certificate: fingerprint(certificate) })),
];

/** The stored key row, sealed keys included: what a refusal must leave as it was. */
async function keyRow(id = provider.id, applicationId = app.root.applicationId) {
  const [row] = await app.gatehouse.services.orm.em
    .getConnection()
    .execute<Record<string, unknown>[]>(
      'select private_key, certificate, previous_private_key, previous_certificate, previous_expires_at from saml_sp_key where application_id = ? and provider_id = ?',
      [applicationId, id],
    );
  return row ?? null;
}

/** The current certificate, as the metadata publishes it (first use makes the key). */
async function currentCertificate(metadataUrl = provider.metadataUrl): Promise<string> {
  const xml = await (await fetch(metadataUrl)).text();
  const base64 = /<KeyDescriptor use="encryption">[\s\S]*?<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(xml)?.[1];
  if (base64 === undefined) throw new Error(`no certificate in ${xml}`);
  return certificatePem(Buffer.from(base64.replace(/\s/g, ''), 'base64'));
}

const rotate = (body: unknown = {}, client: HttpClient = app.http, headers: Record<string, string> = {}, path = `/auth-providers/${provider.id}/rotate-sp-key`) =>
  client.post(path, body, { headers });

const authorize = (jar?: CookieJar) => startAuthorization(config, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid email' }, jar);

/** The login page's SAML button followed: the redirect to the IdP and the AuthnRequest it carries. */
async function toIdp(flow: AuthorizationFlow) {
  const link = /<a class="upstream" href="([^"]+)">Sign in with Rotating IdP<\/a>/.exec(flow.page.body)?.[1];
  expect(link, flow.page.body).toBeDefined();
  const redirect = await flow.jar.visit(new URL(link!.replaceAll('&#38;', '&'), flow.page.url).href);
  expect(redirect.status, redirect.body).toBe(303);
  return { ...idp.readRequest(redirect.location!), location: redirect.location! };
}

const postToAcs = (samlResponse: string, relayState: string | null) =>
  new CookieJar().visit(provider.acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse, ...(relayState === null ? {} : { RelayState: relayState }) } });

async function subjectOf(flow: AuthorizationFlow, answer: Visit): Promise<unknown> {
  const callback = await flow.jar.followOut(answer, config.serverMetadata().issuer);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return decodeJwt(tokens.id_token!).payload['sub'];
}

/**
 * An SP-initiated sign-in whose assertion the IdP encrypts to `certificate`: the signed-in subject, or the ACS's
 * refusal status.
 */
async function signInEncryptedTo(certificate: string): Promise<{ subject: unknown } | { refused: number }> {
  const flow = await authorize();
  const request = await toIdp(flow);
  const response = await idp.encryptedResponse({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: EMAIL, inResponseTo: request.id }, certificate);
  const acs = await postToAcs(response, request.relayState);
  if (acs.status !== 303) return { refused: acs.status };
  return { subject: await subjectOf(flow, await flow.jar.visit(acs.location!)) };
}

async function rotationsRecorded(): Promise<number> {
  const [row] = await app.gatehouse.services.orm.em
    .getConnection()
    .execute<{ count: number }[]>(`select count(*)::int as count from audit_log where action = 'auth_provider.sp_key_rotated' and target_id = ?`, [provider.id]);
  return row!.count;
}

async function lastSignInFailure(): Promise<string> {
  const records = (await app.http.get('/audit-logs?action=user.sign_in_failed&pageSize=1')).body.data as unknown[];
  return JSON.stringify(records[0]);
}

describe('rotation', () => {
  it('the new key is current at once; the previous one decrypts and is published during the grace period, and neither after', async () => {
    const start = Date.now();
    const old = await currentCertificate();
    expect(await published()).toEqual(descriptors(old));

    const rotated = await rotate();
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const { certificate, previousCertificateExpiresAt } = rotated.body as { certificate: string; previousCertificateExpiresAt: string };
    expect(rotated.body).toMatchObject({ providerId: provider.id, metadataUrl: provider.metadataUrl });
    expect(fingerprint(certificate)).not.toBe(fingerprint(old));
    expect(new X509Certificate(certificate).subject).toBe(`CN=Gatehouse SAML SP ${provider.id}`);
    const expiresAt = Date.parse(previousCertificateExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(start + DEFAULT_GRACE_SECONDS * 1000);
    expect(expiresAt).toBeLessThan(Date.now() + DEFAULT_GRACE_SECONDS * 1000 + 1000);
    expect(JSON.stringify(rotated.body)).not.toMatch(/PRIVATE KEY|privateKey/);

    // Both certificates, the current one first, for signing and for encryption.
    expect(await published()).toEqual(descriptors(certificate, old));
    // AuthnRequests are signed by the new key from now on.
    const request = await toIdp(await authorize());
    expect(idp.redirectSignature(request.location, certificate)).toBe('valid');
    expect(idp.redirectSignature(request.location, old)).toBe('invalid');
    // An IdP that still encrypts to the old certificate signs users in, as one that read the new one does.
    expect(await signInEncryptedTo(old)).toEqual({ subject: userId });
    expect(await signInEncryptedTo(certificate)).toEqual({ subject: userId });

    // A day before the end the old key still works; past it, it is neither used nor published.
    await previousKeyEndsAt(Date.now() + DAY_MS);
    expect(await signInEncryptedTo(old)).toEqual({ subject: userId });
    await previousKeyEndsAt(Date.now() - 60_000);
    expect(await published()).toEqual(descriptors(certificate));
    expect(await signInEncryptedTo(old)).toEqual({ refused: 400 });
    expect(await lastSignInFailure()).toContain('"reason":"invalid_assertion"');
    expect(await signInEncryptedTo(certificate)).toEqual({ subject: userId });
    // Its sealed copy went with the first use past its end.
    expect(await keyRow()).toMatchObject({ certificate, previous_private_key: null, previous_certificate: null, previous_expires_at: null });
  });

  it('a second rotation during the grace period replaces the previous key: two at most; a grace period of 0 keeps none', async () => {
    const first = await currentCertificate();
    const second = (await rotate({ gracePeriodSeconds: 3600 })).body.certificate as string;
    const third = await rotate({ gracePeriodSeconds: 600 });
    expect(third.status).toBe(200);
    const current = third.body.certificate as string;
    expect(await published()).toEqual(descriptors(current, second));
    expect(await signInEncryptedTo(second)).toEqual({ subject: userId });
    expect(await signInEncryptedTo(first)).toEqual({ refused: 400 });

    // Over GraphQL too; 0 drops the replaced key at once (a leak).
    const dropped = await app.http.graphql(
      'mutation ($id: UUID!) { rotateSamlSpKey(providerId: $id, input: { gracePeriodSeconds: 0 }) { providerId certificate previousCertificateExpiresAt metadataUrl } }',
      { id: provider.id },
    );
    expect(dropped.body.errors).toBeUndefined();
    const latest = dropped.body.data.rotateSamlSpKey as { certificate: string; previousCertificateExpiresAt: string | null };
    expect(latest.previousCertificateExpiresAt).toBeNull();
    expect(await published()).toEqual(descriptors(latest.certificate));
    expect(await signInEncryptedTo(current)).toEqual({ refused: 400 });
    expect(await signInEncryptedTo(latest.certificate)).toEqual({ subject: userId });
  });

  it('two rotations at once lose no key: one is current, the other previous', async () => {
    const [one, two] = await Promise.all([rotate(), rotate()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const made = [one.body.certificate as string, two.body.certificate as string].map(fingerprint);
    const shown = await published();
    expect(shown).toHaveLength(4);
    expect(new Set(shown.map((descriptor) => descriptor.certificate))).toEqual(new Set(made));
    const row = await keyRow();
    expect(new Set([fingerprint(row!['certificate'] as string), fingerprint(row!['previous_certificate'] as string)])).toEqual(new Set(made));
  });

  it('a retry with the same Idempotency-Key answers the same and rotates once', async () => {
    const before = await currentCertificate();
    const rotations = await rotationsRecorded();
    const idempotencyKey = crypto.randomUUID();
    const first = await rotate({ gracePeriodSeconds: 3600 }, app.http, { 'idempotency-key': idempotencyKey });
    expect(first.status).toBe(200);
    const again = await rotate({ gracePeriodSeconds: 3600 }, app.http, { 'idempotency-key': idempotencyKey });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await published()).toEqual(descriptors(first.body.certificate as string, before));
    expect(await rotationsRecorded()).toBe(rotations + 1);
    // Another body under the same key is another request.
    const other = await rotate({ gracePeriodSeconds: 0 }, app.http, { 'idempotency-key': idempotencyKey });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_conflict');
    expect(await published()).toEqual(descriptors(first.body.certificate as string, before));
    expect(await rotationsRecorded()).toBe(rotations + 1);
  });

  it('is recorded as auth_provider.sp_key_rotated, the certificates by fingerprint, no key material', async () => {
    const before = await currentCertificate();
    const { requestId, headers } = traced();
    const rotated = await rotate({ gracePeriodSeconds: 120 }, app.http, headers);
    expect(rotated.status).toBe(200);
    const [record, ...others] = await auditRecordsOf(app, requestId);
    expect(others).toEqual([]);
    expect(record).toMatchObject({
      applicationId: app.root.applicationId,
      tenantId: null,
      action: 'auth_provider.sp_key_rotated',
      targetType: 'auth_provider',
      targetId: provider.id,
      outcome: 'success',
    });
    expect(record!.before).toMatchObject({ certificateSha256: fingerprint(before) });
    expect(record!.after).toEqual({
      certificateSha256: fingerprint(rotated.body.certificate as string),
      previousCertificateSha256: fingerprint(before),
      previousCertificateExpiresAt: rotated.body.previousCertificateExpiresAt,
      gracePeriodSeconds: 120,
    });
    const row = await keyRow();
    const text = JSON.stringify(record);
    expect(text).not.toMatch(/BEGIN|PRIVATE/);
    for (const sealed of [row!['private_key'], row!['previous_private_key']]) expect(text).not.toContain(sealed as string);
    // Through the audit API as well.
    const listed = await app.http.get(`/audit-logs/${record!.id}`);
    expect(listed.body).toMatchObject({ action: 'auth_provider.sp_key_rotated', target: { id: provider.id }, changes: { after: { gracePeriodSeconds: 120 } } });
  });
});

describe('refusals change nothing', () => {
  let other: BootstrapResult;
  let tenantA: string;
  let tenantB: string;
  let providerA: { id: string; metadataUrl: string };

  /** Another application, isolated, whose tenant A has a saml provider of its own. */
  beforeAll(async () => {
    other = await app.bootstrapAnother();
    const otherHttp = app.as({ apiKey: other.apiKey });
    tenantA = await app.createTenant('Own A', other);
    tenantB = await app.createTenant('Own B', other);
    expect((await otherHttp.patch(`/applications/${other.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const created = await otherHttp.post(`/applications/${other.applicationId}/tenants/${tenantA}/auth-providers`, {
      type: 'saml',
      config: { entityId: idp.entityId, ssoUrl: 'https://idp.test/sso', certificate: idp.certificate },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    providerA = created.body as typeof providerA;
    await currentCertificate(providerA.metadataUrl);
  });

  /** Runs `refused` and expects its answer, no audit record of it, and both providers' keys as they were. */
  async function expectRefused(refused: (headers: Record<string, string>) => Promise<HttpResponse>, status: number, body: Record<string, unknown>) {
    const keys = [await keyRow(), await keyRow(providerA.id, other.applicationId)];
    const { requestId, headers } = traced();
    const answer = await refused(headers);
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body).toMatchObject(body);
    expect(JSON.stringify(answer.body)).not.toContain('CERTIFICATE');
    expect(await auditRecordsOf(app, requestId)).toEqual([]);
    expect([await keyRow(), await keyRow(providerA.id, other.applicationId)]).toEqual(keys);
  }

  it('a provider of another type: 422 naming providerId, over REST and GraphQL', async () => {
    const password = (await app.http.get('/auth-providers')).body.data.find((candidate: { type: string }) => candidate.type === 'password') as { id: string; updatedAt: string };
    await expectRefused((headers) => rotate({}, app.http, headers, `/auth-providers/${password.id}/rotate-sp-key`), 422, { code: 'validation_error', field: 'providerId' });
    const gql = await app.http.graphql('mutation ($id: UUID!) { rotateSamlSpKey(providerId: $id) { certificate } }', { id: password.id });
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', field: 'providerId', status: 422 });
    expect((await app.http.get(`/auth-providers/${password.id}`)).body.updatedAt).toBe(password.updatedAt);
    expect(await keyRow(password.id)).toBeNull();
  });

  it.each([-1, 2_592_001, 1.5])('a grace period of %s: 422 naming gracePeriodSeconds', async (gracePeriodSeconds) => {
    await expectRefused((headers) => rotate({ gracePeriodSeconds }, app.http, headers), 422, { code: 'validation_error', field: 'gracePeriodSeconds' });
  });

  it('an unknown provider, or another application’s: 404', async () => {
    await expectRefused((headers) => rotate({}, app.http, headers, '/auth-providers/01890a5d-ac96-774b-bcce-b302099a8057/rotate-sp-key'), 404, { code: 'not_found' });
    const otherApplication = app.as({ apiKey: other.apiKey });
    await expectRefused((headers) => rotate({}, otherApplication, headers), 404, { code: 'not_found' });
    await expectRefused((headers) => rotate({}, app.http, headers, `/applications/${app.root.applicationId}/auth-providers/${providerA.id}/rotate-sp-key`), 404, { code: 'not_found' });
  });

  it('a tenant-scoped key on another tenant’s provider: 404 on its own paths, 403 on the other tenant’s; the application’s provider it inherits is not its to rotate (403)', async () => {
    const keyOfB = await issueTestKey(app, { applicationId: other.applicationId, tenantId: tenantB });
    await expectRefused((headers) => rotate({}, keyOfB, headers, `/auth-providers/${providerA.id}/rotate-sp-key`), 404, { code: 'not_found' });
    await expectRefused(
      (headers) => rotate({}, keyOfB, headers, `/applications/${other.applicationId}/tenants/${tenantB}/auth-providers/${providerA.id}/rotate-sp-key`),
      404,
      { code: 'not_found' },
    );
    await expectRefused(
      (headers) => rotate({}, keyOfB, headers, `/applications/${other.applicationId}/tenants/${tenantA}/auth-providers/${providerA.id}/rotate-sp-key`),
      403,
      { code: 'forbidden' },
    );
    // A tenant key of the root application on the application's provider it inherits: its to read, not to rotate.
    const tenantKey = await issueTestKey(app, { tenantId });
    await expectRefused((headers) => rotate({}, tenantKey, headers), 403, { code: 'forbidden' });
  });

  it('without auth_providers:write (or, in a tenant scope, tenant_overrides:write): 403', async () => {
    const reader = await issueTestKey(app, { permissions: ['auth_providers:read', 'tenant_overrides:write'] });
    await expectRefused((headers) => rotate({}, reader, headers), 403, { code: 'forbidden', message: 'Missing permission auth_providers:write' });
    const tenantWriter = await issueTestKey(app, { applicationId: other.applicationId, tenantId: tenantA, permissions: ['auth_providers:write'] });
    await expectRefused((headers) => rotate({}, tenantWriter, headers, `/auth-providers/${providerA.id}/rotate-sp-key`), 403, { code: 'forbidden' });
  });

  it('a tenant’s own provider, with the tenant’s key on either of its paths', async () => {
    const old = await currentCertificate(providerA.metadataUrl);
    const keyOfA = await issueTestKey(app, { applicationId: other.applicationId, tenantId: tenantA, permissions: ['auth_providers:write', 'tenant_overrides:write'] });
    const rotated = await rotate({}, keyOfA, {}, `/applications/${other.applicationId}/tenants/${tenantA}/auth-providers/${providerA.id}/rotate-sp-key`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.metadataUrl).toBe(providerA.metadataUrl);
    expect(providerA.metadataUrl).toContain(`/t/${tenantA}/saml/`);
    const shown = (await published(providerA.metadataUrl)).map((descriptor) => descriptor.certificate);
    expect(shown).toEqual([fingerprint(rotated.body.certificate as string), fingerprint(old)]);
    const again = await rotate({ gracePeriodSeconds: 0 }, keyOfA, {}, `/auth-providers/${providerA.id}/rotate-sp-key`);
    expect(again.status).toBe(200);
    expect((await published(providerA.metadataUrl)).map((descriptor) => descriptor.certificate)).toEqual([fingerprint(again.body.certificate as string)]);
  });
});
