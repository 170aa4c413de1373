import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { CookieJar, readForm, type Visit } from '../support/cookie-jar.ts';
import { cookieLinesOf, recordingJar } from '../support/set-cookies.ts';
import { certificatePem, selfSignedCertificate } from '../../src/domain/sign-in/saml-keys.ts';
import { addDomain } from '../support/domains.ts';
import { accountPageUrl, settleWithin } from '../support/account-page.ts';
import { fetchVia } from '../support/host-fetch.ts';
import { createTestClient, decodeJwt, discover, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';
import { LOOPBACK_UPSTREAMS, TestIdp, type ResponseOptions } from '../support/saml-idp.ts';
import type { HttpClient } from '../support/http.ts';
import { clientWithKey } from '../support/keys.ts';
import { failuresAt, leaveAddress } from '../support/lockout.ts';
import { TestRoles } from '../support/roles.ts';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';

/**
 * SAML sign-in on the hosted pages against a test IdP that signs real assertions: SP-initiated (the page's button, an
 * AuthnRequest, the response posted to the ACS) and IdP-initiated (an unsolicited response, then the application's
 * own authorization request), each refusal beside the successes, and the audit records.
 */
const REDIRECT_URI = 'https://app.example/callback';
const IDP_LOGIN_URL = 'https://app.example/login';
/** The root application's verified custom domain, reached through the test service (host-fetch.ts). */
const DOMAIN = 'login.saml.example';

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;
let domainConfig: oidc.Configuration;
const idp = new TestIdp();
let provider: { id: string; acsUrl: string; metadataUrl: string };
let tenantId: string;
let userId: string;
const EMAIL = 'ann@saml.test';

beforeAll(async () => {
  app = await startTestApp({ upstreams: LOOPBACK_UPSTREAMS }, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  await addDomain(app, app.root, DOMAIN);
  domainConfig = await oidc.discovery(new URL(`http://${DOMAIN}`), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
    [oidc.customFetch]: fetchVia(app.baseUrl),
    execute: [oidc.allowInsecureRequests],
  });
  const created = await app.http.post('/auth-providers', {
    type: 'saml',
    name: 'Acme Okta',
    config: idp.providerConfig({ idpInitiatedLoginUrl: IDP_LOGIN_URL, allowSignup: false }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  provider = created.body as typeof provider;
  tenantId = await app.createTenant('Acme');
  userId = await app.createUser(EMAIL, tenantId);
});
afterAll(async () => app?.close());

const authorize = (parameters: Record<string, string> = {}, jar?: CookieJar, configuration = config) =>
  startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid email', ...parameters }, jar);

/** The page's SAML button followed: the redirect to the IdP (`location`), and the AuthnRequest it carries. */
async function toIdp(flow: Pick<AuthorizationFlow, 'page' | 'jar'>, name = 'Acme Okta') {
  const link = new RegExp(`<a class="upstream" href="([^"]+)">Sign in with ${name}</a>`).exec(flow.page.body)?.[1];
  expect(link, flow.page.body).toBeDefined();
  const redirect = await flow.jar.visit(new URL(link!.replaceAll('&#38;', '&'), flow.page.url).href);
  expect(redirect.status, redirect.body).toBe(303);
  expect(redirect.location).toMatch(/^https:\/\/idp\.test\/sso\?SAMLRequest=/);
  return { ...idp.readRequest(redirect.location!), location: redirect.location! };
}

const respond = (options: Partial<ResponseOptions> = {}) =>
  idp.response({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: EMAIL, ...options });

/** The IdP's form posted to the ACS, as the browser posts it (cross-site: the OP's cookies do not come). */
const postToAcs = (samlResponse: string, relayState?: string | null, jar = new CookieJar(), acsUrl = provider.acsUrl) =>
  jar.visit(acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse, ...(relayState == null ? {} : { RelayState: relayState }) } });

/** The SP's certificate (PEM), as its metadata publishes it to the IdP. */
async function spCertificate(): Promise<string> {
  const metadata = await (await fetch(provider.metadataUrl)).text();
  const base64 = /<ds:X509Certificate>([^<]+)<\/ds:X509Certificate>/.exec(metadata)?.[1];
  if (base64 === undefined) throw new Error(`no certificate in ${metadata}`);
  return certificatePem(Buffer.from(base64, 'base64'));
}

/** SP-initiated sign-in of `email`: the IdP answers the request, and the browser follows the ACS's redirect. */
async function signInAtIdp(email: string) {
  const flow = await authorize();
  const request = await toIdp(flow);
  const acs = await postToAcs(respond({ inResponseTo: request.id, email }), request.relayState);
  return { flow, answer: await flow.jar.visit(acs.location!) };
}

async function codeFor(flow: AuthorizationFlow, answer: Visit, configuration = config) {
  const callback = await flow.jar.followOut(answer, configuration.serverMetadata().issuer);
  const tokens = await oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return decodeJwt(tokens.id_token!).payload;
}

/** The newest sign-in record (succeeded or failed) since `since`. */
async function lastSignInRecord(action: 'user.signed_in' | 'user.sign_in_failed') {
  const records = (await app.http.get(`/audit-logs?action=${action}&pageSize=1`)).body.data as { actor: { type: string; id: string }; target: { id: string | null }; changes?: unknown; after?: unknown }[];
  return records[0] as Record<string, any>;
}

describe('SP-initiated', () => {
  it('the button sends an AuthnRequest to the IdP; the signed response signs the user in to their tenant, recorded with the method', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    expect(request.acsUrl).toBe(provider.acsUrl);
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect(acs.location).toMatch(new RegExp(`^${issuer}/interaction/[^/]+/saml\\?proof=`));
    // The browser goes back to its interaction (its cookies come again): the sign-in completes.
    const claims = await codeFor(flow, await flow.jar.visit(acs.location!));
    expect(claims).toMatchObject({ sub: userId, tenant_id: tenantId });
    const record = await lastSignInRecord('user.signed_in');
    expect(record).toMatchObject({ actor: { type: 'user', id: userId }, outcome: 'success' });
    expect(JSON.stringify(record)).toContain('"method":"saml"');
    expect(JSON.stringify(record)).toContain(provider.id);
    const sessions = (await app.http.get(`/users/${userId}/sessions`)).body.data as { tenantId: string; methods: string[] }[];
    expect(sessions.map(({ tenantId, methods }) => ({ tenantId, methods }))).toEqual([{ tenantId, methods: ['saml'] }]);
  });

  it('started on the application’s custom domain, the response posted to the provider’s one ACS goes back to the domain’s interaction', async () => {
    const flow = await authorize({}, new CookieJar(fetchVia(app.baseUrl)), domainConfig);
    expect(flow.page.url.startsWith(`http://${DOMAIN}/interaction/`), flow.page.url).toBe(true);
    const request = await toIdp(flow);
    // One ACS per provider, registered once at the IdP, whichever surface the sign-in started on.
    expect(request.acsUrl).toBe(provider.acsUrl);
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect(acs.location).toMatch(new RegExp(`^http://${DOMAIN.replaceAll('.', '\\.')}/interaction/[^/]+/saml\\?proof=`));
    const claims = await codeFor(flow, await flow.jar.visit(acs.location!), domainConfig);
    expect(claims).toMatchObject({ iss: `http://${DOMAIN}`, sub: userId, tenant_id: tenantId });
  });

  it('asks the IdP for a fresh sign-in (ForceAuthn) only when the client asked for one or named a max_age, which SAML cannot say', async () => {
    const cases: [label: string, parameters: Record<string, string>, forceAuthn: boolean][] = [
      ['neither', {}, false],
      ['prompt=consent', { prompt: 'consent' }, false],
      ['prompt=login', { prompt: 'login' }, true],
      ['max_age', { max_age: '600' }, true],
    ];
    for (const [label, parameters, forceAuthn] of cases) expect((await toIdp(await authorize(parameters))).forceAuthn, label).toBe(forceAuthn);
    // The forced sign-in's answer signs in as any other.
    const flow = await authorize({ prompt: 'login' });
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(await codeFor(flow, await flow.jar.visit(acs.location!))).toMatchObject({ sub: userId, tenant_id: tenantId });
  });

  it('asked for a fresh sign-in, an assertion whose AuthnInstant is before the request (past the skew), or states none, is refused; one since signs in', async () => {
    for (const [label, authnSeconds] of [['an old sign-in', -600], ['no AuthnInstant', null], ['just past the skew', -90]] as const) {
      const flow = await authorize({ prompt: 'login' });
      const request = await toIdp(flow);
      const signedIn = await lastSignInRecord('user.signed_in');
      const acs = await postToAcs(respond({ inResponseTo: request.id, authnSeconds }), request.relayState);
      expect(acs.status, label).toBe(400);
      expect(acs.body, label).toContain('could not be verified');
      const record = await lastSignInRecord('user.sign_in_failed');
      expect(JSON.stringify(record), label).toContain('"reason":"invalid_assertion"');
      expect(await lastSignInRecord('user.signed_in'), label).toEqual(signedIn);
      // The interaction was not completed: the browser's own sign-in page still shows.
      expect((await flow.jar.visit(flow.page.url)).body, label).toContain('Sign in with Acme Okta');
    }
    // Within the skew of the request's issue time, as IdPs' clocks drift.
    const flow = await authorize({ prompt: 'login' });
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id, authnSeconds: -45 }), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect(await codeFor(flow, await flow.jar.visit(acs.location!))).toMatchObject({ sub: userId });
  });

  it('asked for a max_age, an AuthnInstant since the request but older than the max_age is refused', async () => {
    const { orm } = app.gatehouse.services;
    const answer = async (authnSeconds: number) => {
      const flow = await authorize({ max_age: '120' });
      const request = await toIdp(flow);
      // The request waited ten minutes at the IdP, whose sign-in was five minutes ago.
      await orm.em.getConnection().execute(`update saml_request set created_at = created_at - interval '10 minutes' where id = ?`, [request.id]);
      return { flow, acs: await postToAcs(respond({ inResponseTo: request.id, authnSeconds }), request.relayState) };
    };
    const old = await answer(-300);
    expect(old.acs.status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
    const recent = await answer(-150);
    expect(recent.acs.status, recent.acs.body).toBe(303);
    expect(await codeFor(recent.flow, await recent.flow.jar.visit(recent.acs.location!))).toMatchObject({ sub: userId });
  });

  it('not asked for a fresh sign-in, the IdP may answer from its session: an old AuthnInstant, or none, signs in', async () => {
    for (const authnSeconds of [-86_400, null]) {
      const flow = await authorize();
      const request = await toIdp(flow);
      const acs = await postToAcs(respond({ inResponseTo: request.id, authnSeconds }), request.relayState);
      expect(acs.status, acs.body).toBe(303);
      expect(await codeFor(flow, await flow.jar.visit(acs.location!))).toMatchObject({ sub: userId });
    }
  });

  it('the account page’s sign-in asks a fresh one (prompt=login): the IdP gets ForceAuthn, and an answer from its old session is refused', async () => {
    const jar = new CookieJar();
    const url = accountPageUrl(issuer, config.clientMetadata().client_id);
    const signInPage = await settleWithin(jar, await jar.visit(url), issuer);
    expect(signInPage.status, signInPage.body).toBe(200);
    const stale = await toIdp({ page: signInPage, jar });
    expect(stale.forceAuthn).toBe(true);
    expect((await postToAcs(respond({ inResponseTo: stale.id, authnSeconds: -3600 }), stale.relayState)).status).toBe(400);
    const fresh = await toIdp({ page: signInPage, jar });
    const acs = await postToAcs(respond({ inResponseTo: fresh.id }), fresh.relayState);
    expect(acs.status, acs.body).toBe(303);
    const page = await settleWithin(jar, await jar.visit(acs.location!), issuer);
    expect(page.status, page.body).toBe(200);
    expect(page.url.startsWith(`${issuer}/account`), page.url).toBe(true);
    expect(page.body).toContain(EMAIL);
  });

  it('with signRequests, the AuthnRequest is signed (RSA-SHA256) by the key the metadata publishes; without, it is not', async () => {
    const certificate = await spCertificate();
    const unsigned = await toIdp(await authorize());
    expect(idp.redirectSignature(unsigned.location, certificate)).toBe('none');
    expect((await app.http.patch(`/auth-providers/${provider.id}`, { config: { signRequests: true } })).status).toBe(200);
    try {
      const flow = await authorize();
      const request = await toIdp(flow);
      expect(idp.redirectSignature(request.location, certificate)).toBe('valid');
      expect(idp.redirectSignature(request.location, idp.certificate)).toBe('invalid');
      // Spoiled in transit: the RelayState changed, the signature no longer holds.
      expect(idp.redirectSignature(request.location.replace(/RelayState=[^&]+/, 'RelayState=other'), certificate)).toBe('invalid');
      const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
      expect((await codeFor(flow, await flow.jar.visit(acs.location!))).sub).toBe(userId);
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { config: { signRequests: false } });
    }
  });

  it('an assertion encrypted to the SP’s certificate signs in; one encrypted to another key is refused', async () => {
    const certificate = await spCertificate();
    const flow = await authorize();
    const request = await toIdp(flow);
    const elsewhere = await idp.encryptedResponse({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: EMAIL, inResponseTo: request.id }, idp.certificate);
    expect((await postToAcs(elsewhere, request.relayState)).status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
    const again = await authorize();
    const answered = await toIdp(again);
    const encrypted = await idp.encryptedResponse({ acsUrl: provider.acsUrl, audience: provider.metadataUrl, email: EMAIL, inResponseTo: answered.id }, certificate);
    expect(Buffer.from(encrypted, 'base64').toString()).not.toContain(EMAIL);
    const acs = await postToAcs(encrypted, answered.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect((await codeFor(again, await again.jar.visit(acs.location!))).sub).toBe(userId);
  });

  it('a response signed as a whole (not its assertion) is accepted too', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id, sign: 'response' }), request.relayState);
    expect((await codeFor(flow, await flow.jar.visit(acs.location!))).sub).toBe(userId);
  });

  it.each([
    ['a bad signature', { wrongKey: true }],
    ['no signature', { sign: 'none' as const }],
    ['another audience', { audience: 'https://other-sp.example/metadata' }],
    ['another recipient', { recipient: 'https://other-sp.example/acs' }],
    ['an expired assertion', { shiftSeconds: -3600 }],
    ['an assertion not yet valid', { shiftSeconds: 3600 }],
    ['an assertion issued an hour ahead (its window open now)', { issuedSeconds: 3600 }],
    ['an assertion issued past the clock skew ahead', { issuedSeconds: 120 }],
    ['another issuer', { issuer: 'https://evil-idp.example' }],
  ])('%s: refused with a page, nothing signed in, the failure recorded with its reason', async (_name, spoiled) => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id, ...spoiled }), request.relayState);
    expect(acs.status).toBe(400);
    expect(acs.body).toContain('could not be verified');
    const record = await lastSignInRecord('user.sign_in_failed');
    expect(record).toMatchObject({ outcome: 'failure' });
    expect(JSON.stringify(record)).toContain('"reason":"invalid_assertion"');
    // The request was consumed: the same request answered properly afterwards is refused too (InResponseTo once).
    expect((await postToAcs(respond({ inResponseTo: request.id }), request.relayState)).status).toBe(400);
  });

  it.each([
    ['its signed assertion moved into the response’s Extensions, the Signature left on a forged one', 'extensions'],
    ['its signed assertion moved into the Advice of a forged, unsigned one', 'advice'],
    ['its signed response moved into the Extensions of a forged, unsigned one', 'response'],
  ] as const)('signature wrapping, %s naming another address: refused as invalid, nobody signed in', async (_name, wrapping) => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const mallory = 'mallory-wraps@saml.test';
    const signed = Buffer.from(respond({ inResponseTo: request.id, email: mallory, sign: wrapping === 'response' ? 'response' : 'assertion' }), 'base64').toString('utf8');
    const original = /<saml:Assertion [\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const assertionSignature = /<(?:ds:)?Signature [\s\S]*?<\/(?:ds:)?Signature>/.exec(original)?.[0] ?? '';
    const newId = () => `_forged${randomBytes(8).toString('hex')}`;
    const forged = (assertion: string) => assertion.replace(/ ID="[^"]+"/, ` ID="${newId()}"`).replace(`>${mallory}<`, `>${EMAIL}<`);
    const afterIssuer = (xml: string, inserted: string) => xml.replace('</saml:Issuer>', `</saml:Issuer>${inserted}`);
    let wrapped: string;
    if (wrapping === 'extensions') wrapped = afterIssuer(signed.replace(original, forged(original)), `<samlp:Extensions>${original}</samlp:Extensions>`);
    else if (wrapping === 'advice') {
      const outer = forged(original.replace(assertionSignature, '')).replace('<saml:AuthnStatement', `<saml:Advice>${original}</saml:Advice><saml:AuthnStatement`);
      wrapped = signed.replace(original, outer);
    } else {
      const responseSignature = /<(?:ds:)?Signature [\s\S]*?<\/(?:ds:)?Signature>/.exec(signed)![0];
      const outer = signed.replace(responseSignature, '').replace(/ ID="[^"]+"/, ` ID="${newId()}"`).replace(original, forged(original));
      wrapped = afterIssuer(outer, `<samlp:Extensions>${signed}</samlp:Extensions>`);
    }
    expect(wrapped).toContain(`>${EMAIL}<`);
    const acs = await postToAcs(Buffer.from(wrapped).toString('base64'), request.relayState);
    expect(acs.status, acs.body).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
  });

  it('a suspended user is refused (user_inactive) and signs nothing in; activated again, the same IdP signs them in', async () => {
    const email = 'suspended@saml.test';
    const sue = await app.createUser(email, tenantId);
    expect((await app.http.post(`/users/${sue}/suspend`, {})).status).toBe(200);
    const refused = await signInAtIdp(email);
    expect(refused.answer.status, refused.answer.body).toBe(403);
    expect(await lastSignInRecord('user.sign_in_failed')).toMatchObject({ target: { id: sue } });
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"user_inactive"');
    expect((await app.http.get(`/users/${sue}/sessions`)).body.data).toEqual([]);
    expect((await app.http.post(`/users/${sue}/activate`, {})).status).toBe(200);
    const accepted = await signInAtIdp(email);
    expect((await codeFor(accepted.flow, accepted.answer)).sub).toBe(sue);
  });

  it('a user at an address locked out of the account, or made to wait, is refused unheard (address_locked, address_waiting) as a suspended one is answered; unlocked, the same IdP signs them in', async () => {
    const email = 'locked-address@saml.test';
    const lou = await app.createUser(email, tenantId);
    for (const standing of ['locked', 'waiting'] as const) {
      await leaveAddress(app, lou, standing);
      // Answered after as long as a counted failure takes, as the other methods' uncounted refusals are.
      const pad = vi.spyOn(app.gatehouse.services.refusalTiming, 'pad');
      let padded = 0;
      const refused = await signInAtIdp(email).finally(() => {
        padded = pad.mock.calls.length;
        pad.mockRestore();
      });
      expect(padded).toBe(1);
      expect(refused.answer.status, refused.answer.body).toBe(403);
      expect(refused.answer.body).toContain('account cannot sign in to');
      expect(await lastSignInRecord('user.sign_in_failed')).toMatchObject({ target: { id: lou } });
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain(`"reason":"address_${standing}"`);
      expect(await failuresAt(app, lou)).toEqual([{ failures: standing === 'locked' ? 10 : 8, locked: standing === 'locked' }]);
      expect((await app.http.get(`/users/${lou}/sessions`)).body.data).toEqual([]);
      expect((await app.http.post(`/users/${lou}/unlock`, {})).status).toBe(200);
    }
    const accepted = await signInAtIdp(email);
    expect((await codeFor(accepted.flow, accepted.answer)).sub).toBe(lou);
  });

  it('an assertion issued ahead within the clock skew, or long enough ago, is accepted', async () => {
    for (const issuedSeconds of [45, -240]) {
      const flow = await authorize();
      const request = await toIdp(flow);
      const acs = await postToAcs(respond({ inResponseTo: request.id, issuedSeconds }), request.relayState);
      expect(acs.status, acs.body).toBe(303);
      expect((await codeFor(flow, await flow.jar.visit(acs.location!))).sub).toBe(userId);
    }
  });

  it('the IdP’s refusal (a status, no assertion: its user cancelled) sends the browser back to its sign-in page, recorded idp_refused; a forged one naming no request of ours is refused', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(idp.statusResponse(provider.acsUrl, request.id), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect(acs.location).toBe(`${issuer}/interaction/${request.relayState}`);
    const page = await flow.jar.visit(acs.location!);
    expect(page.status, page.body).toBe(200);
    expect(page.body).toContain('Sign in with Acme Okta');
    const record = JSON.stringify(await lastSignInRecord('user.sign_in_failed'));
    expect(record).toContain('"reason":"idp_refused"');
    expect(record).toContain('"method":"saml"');
    // Its request is spent; the page's button asks again, and that answer signs in.
    const again = await toIdp({ ...flow, page });
    const acsAgain = await postToAcs(respond({ inResponseTo: again.id }), again.relayState);
    expect((await codeFor(flow, await flow.jar.visit(acsAgain.location!))).sub).toBe(userId);
    const forged = await postToAcs(idp.statusResponse(provider.acsUrl, '_never-asked'));
    expect(forged.status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
  });

  it('a response to a request the service never made, or answered once already, is refused', async () => {
    expect((await postToAcs(respond({ inResponseTo: '_never-asked' }))).status).toBe(400);
    const flow = await authorize();
    const request = await toIdp(flow);
    const first = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(first.status).toBe(303);
    const second = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(second.status).toBe(400);
  });

  it('a NameID over 1,024 characters is refused as invalid (400), not kept (our 500 before); one of 1,024 signs in', async () => {
    const withNameId = async (nameId: string) => {
      const flow = await authorize();
      const request = await toIdp(flow);
      return { flow, acs: await postToAcs(respond({ inResponseTo: request.id, nameId }), request.relayState) };
    };
    // Random, as an IdP's opaque identifier: a repeated character compresses into the key and would pass.
    const opaque = (length: number) => randomBytes(length).toString('hex').slice(0, length);
    for (const length of [1025, 3000]) {
      expect((await withNameId(opaque(length))).acs.status).toBe(400);
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
    }
    const longest = await withNameId(opaque(1024));
    expect(longest.acs.status, longest.acs.body).toBe(303);
    expect((await codeFor(longest.flow, await longest.flow.jar.visit(longest.acs.location!))).sub).toBe(userId);
  });

  it('the same response posted again is recorded as replayed; a new one to an answered request, or to none, as invalid', async () => {
    const reason = async () => (await lastSignInRecord('user.sign_in_failed'))['changes']['after']['reason'];
    const flow = await authorize();
    const request = await toIdp(flow);
    const response = respond({ inResponseTo: request.id });
    expect((await postToAcs(response, request.relayState)).status).toBe(303);
    expect((await postToAcs(response, request.relayState)).status).toBe(400);
    expect(await reason()).toBe('replayed_assertion');
    expect((await postToAcs(respond({ inResponseTo: request.id }), request.relayState)).status).toBe(400);
    expect(await reason()).toBe('invalid_assertion');
    expect((await postToAcs(respond({ inResponseTo: '_never-asked' }))).status).toBe(400);
    expect(await reason()).toBe('invalid_assertion');
  });

  it('an assertion whose bearer confirmation names no request, posted in a response naming an open one, is refused: that request’s sign-in goes on', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    // An unsolicited assertion (anyone's own, from the IdP) wrapped in an unsigned response naming this browser's
    // request would skip the "Continue as …?" page: only the signed confirmation binds an assertion to a request.
    const wrapped = await postToAcs(respond({ email: 'mallory@saml.test', inResponseTo: request.id, confirmationInResponseTo: null }), request.relayState);
    expect(wrapped.status).toBe(400);
    expect(wrapped.headers.get('location')).toBeNull();
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
    // The request is still the IdP's to answer.
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    expect((await codeFor(flow, await flow.jar.visit(acs.location!))).sub).toBe(userId);
  });

  it('the proof is bound to its interaction: another browser, or another interaction, gets no sign-in', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    const elsewhere = await new CookieJar().visit(acs.location!);
    expect(elsewhere.status).toBe(400);
    const other = await authorize();
    const proof = new URL(acs.location!).searchParams.get('proof')!;
    const moved = await other.jar.visit(`${other.page.url}/saml?proof=${encodeURIComponent(proof)}`);
    expect(moved.status).toBe(403);
  });

  it('another proof of the interaction (a proven factor awaiting the tenant choice) is no SAML proof: refused as an expired one, not read', async () => {
    const email = 'two-tenants@saml.test';
    const second = await app.createTenant('Second of two');
    const user = await app.createUser(email, tenantId);
    expect((await app.http.patch(`/users/${user}`, { tenantIds: [tenantId, second] })).status).toBe(200);
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id, email }), request.relayState);
    const choice = await flow.jar.visit(acs.location!);
    expect(choice.location).toBe(`${flow.page.url}/tenant`);
    const sealed = flow.jar.all().find((cookie) => cookie.name === 'gh_signin')!.value;
    const refused = await flow.jar.visit(`${flow.page.url}/saml?proof=${encodeURIComponent(sealed)}`);
    expect(refused.status, refused.body).toBe(403);
  });

  it('on another tenant’s page, a user of a tenant only is refused, and that tenant’s log names no user: an unknown address', async () => {
    const other = await app.createTenant('Other');
    const flow = await authorize({ tenant: other });
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
    expect((await flow.jar.visit(acs.location!)).status).toBe(403);
    const records = await app.sql<{ action: string; target_id: string | null; after: Record<string, unknown> }>(
      `select action, target_id, after from audit_log where tenant_id = ? and action like 'user.%' order by seq`,
      [other],
    );
    expect(records).toEqual([{ action: 'user.sign_in_failed', target_id: null, after: expect.objectContaining({ method: 'saml', reason: 'unknown_user', email: EMAIL }) }]);
    expect(JSON.stringify(records)).not.toContain(userId);
  });

  it('takes the NameID as the address, without the e-mail attribute, only in a format that carries one', async () => {
    const formats = { emailAddress: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', unspecified: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', persistent: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', transient: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' };
    for (const [format, signsIn] of [['emailAddress', true], ['unspecified', true], ['persistent', false], ['transient', false]] as const) {
      const flow = await authorize();
      const request = await toIdp(flow);
      // The address in another attribute than the provider's emailAttribute: the NameID is the only one it reads.
      const acs = await postToAcs(respond({ inResponseTo: request.id, emailAttribute: 'mail', nameId: EMAIL, nameIdFormat: formats[format] }), request.relayState);
      if (signsIn) {
        expect((await codeFor(flow, await flow.jar.visit(acs.location!))).sub, format).toBe(userId);
      } else {
        expect(acs.status, format).toBe(400);
        expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed')), format).toContain('"reason":"no_email"');
      }
    }
  });

  it('an identity proven before its provider moved to another IdP or key signs nobody in: refused as an invalid assertion', async () => {
    const other = new TestIdp();
    const setIdp = async (config: Record<string, unknown>) => expect((await app.http.patch(`/auth-providers/${provider.id}`, { config })).status).toBe(200);
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const anotherKey = selfSignedCertificate('idp.example.com', pair.publicKey, pair.privateKey);
    for (const moved of [{ entityId: other.entityId }, { certificate: anotherKey }]) {
      const flow = await authorize();
      const request = await toIdp(flow);
      const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
      expect(acs.status).toBe(303);
      // IdP-initiated: the identity waits in a cookie, then in the confirmation page, for up to ten minutes.
      const jar = new CookieJar();
      expect((await postToAcs(respond(), null, jar)).status).toBe(303);
      const confirmation = await authorize({}, jar);
      await setIdp(moved);
      try {
        expect((await flow.jar.visit(acs.location!)).status, JSON.stringify(moved)).toBe(403);
        expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
        expect((await confirmation.jar.submit(confirmation.page, { continue: 'yes' })).status, JSON.stringify(moved)).toBe(403);
        expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
      } finally {
        await setIdp({ entityId: idp.entityId, certificate: idp.certificate });
      }
    }
  });

  it('an e-mail with no account: refused without allowSignup, a new verified account with it', async () => {
    const stranger = 'new-saml-user@saml.test';
    const flow = await authorize();
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ inResponseTo: request.id, email: stranger }), request.relayState);
    const refused = await flow.jar.visit(acs.location!);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('cannot sign in');
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"unknown_user"');
    expect((await app.http.get(`/users?email=${encodeURIComponent(stranger)}`)).body.data).toHaveLength(0);

    expect((await app.http.patch(`/auth-providers/${provider.id}`, { config: { allowSignup: true } })).status).toBe(200);
    try {
      const again = await authorize();
      const second = await toIdp(again);
      const accepted = await postToAcs(respond({ inResponseTo: second.id, email: stranger }), second.relayState);
      const claims = await codeFor(again, await again.jar.visit(accepted.location!));
      const [created] = (await app.http.get(`/users?email=${encodeURIComponent(stranger)}`)).body.data as { id: string; emailVerified?: boolean }[];
      expect(claims.sub).toBe(created!.id);
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { config: { allowSignup: false } });
    }
  });

  it('an app_admin is refused while a key holding only auth_providers:write last changed the provider, and signs in once an admin changes it', async () => {
    const bossEmail = 'boss@saml.test';
    const boss = await app.createUser(bossEmail, tenantId);
    await new TestRoles(app).assign({ type: 'user', id: boss }, 'app_admin');
    const narrow = await clientWithKey(app, ['auth_providers:read', 'auth_providers:write']);
    expect((await narrow.patch(`/auth-providers/${provider.id}`, { config: { allowSignup: false } })).status).toBe(200);
    try {
      const refused = await signInAtIdp(bossEmail);
      expect(refused.answer.status).toBe(403);
      expect(refused.answer.body).toContain('cannot sign in');
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"provider_not_trusted"');
      // Anyone holding nothing of the management API still signs in through it.
      const plain = await authorize();
      const request = await toIdp(plain);
      const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
      expect((await codeFor(plain, await plain.jar.visit(acs.location!))).sub).toBe(userId);
    } finally {
      expect((await app.http.patch(`/auth-providers/${provider.id}`, { config: { allowSignup: false } })).status).toBe(200);
    }
    const accepted = await signInAtIdp(bossEmail);
    expect((await codeFor(accepted.flow, accepted.answer)).sub).toBe(boss);
  });

  describe('a member a tenant’s administrator made (its address unconfirmed, vouched by that tenant)', () => {
    const standing = async (id: string) =>
      (await app.sql<{ email_verified: boolean; vouched_by_tenant_id: string | null; has_password: boolean }>(
        'select email_verified, vouched_by_tenant_id, password_hash is not null as has_password from app_user where id = ?',
        [id],
      ))[0];
    async function vouchedMember(email: string, password?: string): Promise<string> {
      const tenantAdmin = await clientWithKey(app, ['users:read', 'users:write'], tenantId);
      const created = await tenantAdmin.post('/users', { email, ...(password === undefined ? {} : { password }) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.emailVerified).toBe(false);
      return created.body.id as string;
    }

    it('without a password: the application’s IdP proves the mailbox, and its owner takes the account over as an e-mail link does', async () => {
      const email = 'vouched-member@saml.test';
      const member = await vouchedMember(email);
      const { flow, answer } = await signInAtIdp(email);
      expect(await codeFor(flow, answer)).toMatchObject({ sub: member, tenant_id: tenantId });
      expect(await standing(member)).toEqual({ email_verified: true, vouched_by_tenant_id: null, has_password: false });
      const actions = await app.sql<{ action: string }>(`select action from audit_log where target_id = ? and action in ('user.sign_up.disowned', 'user.email.verified')`, [member]);
      expect(actions.map((row) => row.action).sort()).toEqual(['user.email.verified', 'user.sign_up.disowned']);
      expect((await app.http.get(`/users/${member}`)).body.tenantIds).toEqual([tenantId]);
    });

    it('without a password, at an address locked out of it: refused before the takeover, the account as it was', async () => {
      const email = 'vouched-locked@saml.test';
      const member = await vouchedMember(email);
      await leaveAddress(app, member, 'locked');
      const { answer } = await signInAtIdp(email);
      expect(answer.status, answer.body).toBe(403);
      expect(answer.body).toContain('cannot sign in');
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"address_locked"');
      expect(await standing(member)).toEqual({ email_verified: false, vouched_by_tenant_id: tenantId, has_password: false });
      expect(await app.sql(`select action from audit_log where target_id = ? and action in ('user.sign_up.disowned', 'user.email.verified')`, [member])).toEqual([]);
    });

    it('with a password (its setter would keep it): refused, the account as it was', async () => {
      const email = 'vouched-password@saml.test';
      const member = await vouchedMember(email, 'a tenant-set password 1');
      const { answer } = await signInAtIdp(email);
      expect(answer.status, answer.body).toBe(403);
      expect(answer.body).toContain('cannot sign in');
      expect(await lastSignInRecord('user.sign_in_failed')).toMatchObject({ target: { id: member } });
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"email_unverified"');
      expect(await standing(member)).toEqual({ email_verified: false, vouched_by_tenant_id: tenantId, has_password: true });
    });
  });
});

describe('IdP-initiated', () => {
  it('an unsolicited response goes to the application’s login URL; the sign-in it starts asks “Continue as …?”, and one click completes it', async () => {
    const { jar, lines } = recordingJar();
    const acs = await postToAcs(respond(), null, jar);
    expect(acs.status, acs.body).toBe(303);
    expect(acs.location).toBe(IDP_LOGIN_URL);
    // Lax is enough: the application's login URL starts the sign-in with top-level GETs.
    expect(cookieLinesOf(lines, 'gh_saml=')).toEqual(['gh_saml=<value>; Path=/interaction; Max-Age=300; HttpOnly; SameSite=Lax']);
    // The application starts its sign-in in the same browser: the page names the account and its provider.
    const flow = await authorize({}, jar);
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain(`<h1>Continue as ${EMAIL}?</h1>`);
    expect(flow.page.body).toContain(`Acme Okta signed you in as ${EMAIL}.`);
    expect(flow.page.body).not.toContain('name="password"');
    // The identity now waits in the page, bound to this interaction: the browser keeps no SAML cookie.
    expect(jar.all().filter((cookie) => cookie.name === 'gh_saml')).toEqual([]);
    expect(cookieLinesOf(lines, 'gh_saml=').at(-1)).toBe('gh_saml=; Path=/interaction; Max-Age=0; HttpOnly; SameSite=Lax');
    const continued = await flow.jar.submit(flow.page, { continue: 'yes' });
    expect((await codeFor(flow, continued)).sub).toBe(userId);
    expect(await lastSignInRecord('user.signed_in')).toMatchObject({ actor: { type: 'user', id: userId } });
  });

  it('held to a fresh sign-in the request asks: an AuthnInstant 10 minutes old completes a plain request, not a prompt=login or max_age one, which goes on as any fresh sign-in; a fresh one does', async () => {
    const held = async (authnSeconds: number, parameters: Record<string, string>) => {
      const jar = new CookieJar();
      expect((await postToAcs(respond({ authnSeconds }), null, jar)).status).toBe(303);
      return authorize(parameters, jar);
    };
    const plain = await held(-600, {});
    expect(plain.page.body).toContain(`Continue as ${EMAIL}?`);
    expect((await codeFor(plain, await plain.jar.submit(plain.page, { continue: 'yes' }))).sub).toBe(userId);
    for (const [label, parameters] of [['prompt=login', { prompt: 'login' }], ['max_age', { max_age: '300' }]] as const) {
      const signedIn = await lastSignInRecord('user.signed_in');
      const stale = await held(-600, parameters);
      // No error: the sign-in page, whose IdP button asks ForceAuthn; the held assertion is dropped, and signs nobody in.
      expect(stale.page.status, label).toBe(200);
      expect(stale.page.body, label).not.toContain('Continue as');
      expect(stale.page.body, label).toContain('name="password"');
      expect((await toIdp(stale)).forceAuthn, label).toBe(true);
      expect(stale.jar.all().filter((cookie) => cookie.name === 'gh_saml'), label).toEqual([]);
      expect((await stale.jar.visit(stale.page.url)).body, label).not.toContain('Continue as');
      expect(await lastSignInRecord('user.signed_in'), label).toEqual(signedIn);
    }
    // Within the skew of the request's start, and within its max_age: completed through the confirmation.
    for (const [label, parameters] of [['prompt=login', { prompt: 'login' }], ['max_age', { max_age: '300' }]] as const) {
      const fresh = await held(-30, parameters);
      expect(fresh.page.body, label).toContain(`Continue as ${EMAIL}?`);
      expect((await codeFor(fresh, await fresh.jar.submit(fresh.page, { continue: 'yes' }))).sub, label).toBe(userId);
    }
  });

  it('the confirmation is in the page’s language', async () => {
    const jar = new CookieJar();
    await postToAcs(respond(), null, jar);
    const flow = await authorize({ ui_locales: 'de' }, jar);
    expect(flow.page.body).toContain(`<h1>Als ${EMAIL} fortfahren?</h1>`);
    expect(flow.page.body).toContain('>Abbrechen</button>');
  });

  it('login CSRF: another account’s response auto-posted into the browser completes nothing unasked; only the page’s own button does', async () => {
    const attacker = 'mallory@saml.test';
    const malloryId = await app.createUser(attacker, tenantId);
    const victim = new CookieJar();
    // The attacker's site posts the attacker's own valid response to the ACS from the victim's browser.
    const planted = await victim.visit(provider.acsUrl, {
      method: 'POST',
      form: { SAMLResponse: respond({ email: attacker }) },
      headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(planted.status).toBe(303);
    // The victim then signs in to the application: no code is issued, the page names the account instead.
    const flow = await authorize({}, victim);
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain(`Continue as ${attacker}?`);
    const { fields, action } = readForm(flow.page.url, flow.page.body);
    expect(action).toBe(`${flow.page.url}/saml`);
    // A forged POST: without the page's token, from another site with it, or its proof on another interaction.
    const forged = await victim.visit(action, { form: { proof: fields['proof']!, continue: 'yes' } });
    expect(forged.status).toBe(403);
    const crossSite = await victim.visit(action, { form: { ...fields, continue: 'yes' }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const other = await authorize({}, victim);
    expect(other.page.body).toContain('name="password"');
    const moved = await victim.visit(`${other.page.url}/saml`, { form: { csrf: readForm(other.page.url, other.page.body).fields['csrf']!, proof: fields['proof']!, continue: 'yes' } });
    expect(moved.status).toBe(403);
    // Nor does the SP-initiated proof's GET take it.
    expect((await victim.visit(`${flow.page.url}/saml?proof=${encodeURIComponent(fields['proof']!)}`)).status).toBe(403);
    expect((await lastSignInRecord('user.signed_in'))?.['actor']?.id).not.toBe(malloryId);
    // Cancel: the ordinary sign-in page of the same interaction, and the declined identity in the log.
    const cancelled = await victim.submit(flow.page, { cancel: 'yes' });
    expect(await lastSignInRecord('user.sign_in_failed')).toMatchObject({ changes: { after: { method: 'saml', reason: 'declined_by_user', email: attacker } } });
    expect(cancelled.status).toBe(303);
    expect(cancelled.location).toBe(flow.page.url);
    const page = await victim.visit(cancelled.location!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="password"');
    expect(page.body).toContain('Sign in with Acme Okta');
  });

  it('an unsolicited identity of a provider the surface does not offer is recorded as refused; the sign-in page shows as ever', async () => {
    const jar = new CookieJar();
    expect((await postToAcs(respond(), null, jar)).status).toBe(303);
    expect((await app.http.patch(`/auth-providers/${provider.id}`, { enabled: false })).status).toBe(200);
    try {
      const flow = await authorize({}, jar);
      expect(flow.page.status).toBe(200);
      expect(flow.page.body).toContain('name="password"');
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"method_unavailable"');
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { enabled: true });
    }
  });

  it('an unsolicited identity waits for the sign-in of its own application only', async () => {
    const jar = new CookieJar();
    expect((await postToAcs(respond(), null, jar)).status).toBe(303);
    const other = await app.bootstrapAnother();
    const client = await createTestClient(app, { applicationId: other.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
    const otherConfig = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const flow = await startAuthorization(otherConfig, { redirectUri: REDIRECT_URI, resource: '' }, { scope: 'openid' }, jar);
    // The other application's sign-in shows its form: the proof is bound to the provider's application.
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).toContain('name="password"');
  });

  it('the same assertion posted again is refused as replayed', async () => {
    const response = respond();
    expect((await postToAcs(response)).status).toBe(303);
    const replayed = await postToAcs(response);
    expect(replayed.status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"replayed_assertion"');
  });

  it('an assertion made for an AuthnRequest, posted in a response that names none, is refused: it is bound to that sign-in', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const refused = await postToAcs(respond({ confirmationInResponseTo: request.id }));
    expect(refused.status).toBe(400);
    expect(refused.headers.get('set-cookie') ?? '').not.toContain('gh_saml=');
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
  });

  it.each([
    ['its bearer confirmation expired', { shiftSeconds: -3600 }],
    ['issued longer ago than the assertions accepted', { issuedSeconds: -600 }],
  ])('an unsolicited response whose Conditions state no times is refused when %s', async (_name, spoiled) => {
    expect((await postToAcs(respond({ conditionsUntimed: true }))).status).toBe(303);
    const refused = await postToAcs(respond({ conditionsUntimed: true, ...spoiled }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
  });

  it('on a custom domain, posted to the domain’s own ACS: the sign-in the application starts on the domain completes with it', async () => {
    const domainAcs = `http://${DOMAIN}/saml/${provider.id}/acs`;
    const jar = new CookieJar(fetchVia(app.baseUrl));
    // Addressed to the service's ACS, the response is not the domain's.
    const misaddressed = await postToAcs(respond(), null, jar, domainAcs);
    expect(misaddressed.status).toBe(400);
    expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"invalid_assertion"');
    const acs = await postToAcs(respond({ acsUrl: domainAcs }), null, jar, domainAcs);
    expect(acs.status, acs.body).toBe(303);
    expect(acs.location).toBe(IDP_LOGIN_URL);
    const flow = await authorize({}, jar, domainConfig);
    expect(flow.page.body).toContain(`Continue as ${EMAIL}?`);
    const claims = await codeFor(flow, await flow.jar.submit(flow.page, { continue: 'yes' }), domainConfig);
    expect(claims).toMatchObject({ iss: `http://${DOMAIN}`, sub: userId });
    // A response for the service's ACS still waits on the service's host, not on the domain.
    expect((await postToAcs(respond(), null, jar)).status).toBe(303);
    const onDomain = await authorize({ prompt: 'login' }, jar, domainConfig);
    expect(onDomain.page.status).toBe(200);
    expect(onDomain.page.body).toContain('Sign in with Acme Okta');
  });

  it('the domain’s metadata names its ACS first and the provider’s second, under one entity id; another application’s domain serves none', async () => {
    const domainFetch = fetchVia(app.baseUrl);
    const metadata = await (await domainFetch(`http://${DOMAIN}/saml/${provider.id}/metadata`)).text();
    expect(metadata).toContain(`entityID="${provider.metadataUrl}"`);
    const locations = [...metadata.matchAll(/<AssertionConsumerService [^>]*Location="([^"]+)"/g)].map((match) => match[1]);
    expect(locations).toEqual([`http://${DOMAIN}/saml/${provider.id}/acs`, provider.acsUrl]);
    expect(metadata).toMatch(/<AssertionConsumerService [^>]*isDefault="true"[^>]*Location="http:\/\/login\.saml\.example\//);
    const served = await (await fetch(provider.metadataUrl)).text();
    expect([...served.matchAll(/<AssertionConsumerService /g)]).toHaveLength(1);

    const other = await app.bootstrapAnother();
    await addDomain(app, other, 'login.other-saml.example');
    const elsewhere = `http://login.other-saml.example/saml/${provider.id}`;
    expect((await domainFetch(`${elsewhere}/metadata`)).status).toBe(404);
    const posted = await postToAcs(respond({ acsUrl: `${elsewhere}/acs` }), null, new CookieJar(domainFetch), `${elsewhere}/acs`);
    expect(posted.status).toBe(404);
  });

  it('a provider without idpInitiatedLoginUrl refuses unsolicited responses', async () => {
    expect((await app.http.patch(`/auth-providers/${provider.id}`, { config: { idpInitiatedLoginUrl: null } })).status).toBe(200);
    try {
      const refused = await postToAcs(respond());
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('cannot be started from the identity provider');
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { config: { idpInitiatedLoginUrl: IDP_LOGIN_URL } });
    }
  });
});

describe('single logout started at the IdP', () => {
  const IDP_SLO_URL = 'https://idp.test/slo';
  const endpoint = () => provider.metadataUrl.replace(/\/metadata$/, '/slo');
  const setSlo = async (config: Record<string, unknown>) => expect((await app.http.patch(`/auth-providers/${provider.id}`, { config })).status).toBe(200);

  beforeAll(() => setSlo({ sloUrl: IDP_SLO_URL, signRequests: true }));
  afterAll(() => setSlo({ sloUrl: null, signRequests: false }));

  /** `email` signed in through the provider as `nameId` (a browser, `jar`, of `configuration`'s client): its tokens. */
  async function signIn(email: string, nameId: string, jar = new CookieJar(), configuration = config, parameters: Record<string, string> = {}) {
    const flow = await authorize(parameters, jar, configuration);
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ email, nameId, inResponseTo: request.id }), request.relayState);
    expect(acs.status, acs.body).toBe(303);
    const callback = await flow.jar.followOut(await flow.jar.visit(acs.location!), issuer);
    return oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  }
  const signedIn = async (email: string, nameId: string) => (await signIn(email, nameId)).access_token;

  const userinfoStatus = async (token: string) => (await fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;
  const sessionsOf = async (user: string) => ((await app.http.get(`/users/${user}/sessions`)).body.data as unknown[]).length;

  it('the SP metadata offers single logout at the provider’s /slo, by redirect and POST; without sloUrl it offers none and serves no /slo', async () => {
    const metadata = await (await fetch(provider.metadataUrl)).text();
    expect(metadata).toContain(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${endpoint()}"/>`);
    expect(metadata).toContain(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${endpoint()}"/>`);
    await setSlo({ sloUrl: null });
    try {
      expect(await (await fetch(provider.metadataUrl)).text()).not.toContain('SingleLogoutService');
      expect((await fetch(idp.logoutRedirect({ destination: endpoint(), nameId: 'anyone' }).url, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await setSlo({ sloUrl: IDP_SLO_URL });
    }
  });

  it('a signed LogoutRequest by redirect ends its subject’s sessions, and the IdP gets a signed Success; another user’s stand', async () => {
    const leaving = await app.createUser('leaving@saml.test', tenantId);
    const staying = await app.createUser('staying@saml.test', tenantId);
    const leavingToken = await signedIn('leaving@saml.test', 'entra-leaving');
    const stayingToken = await signedIn('staying@saml.test', 'entra-staying');
    expect(await sessionsOf(leaving)).toBe(1);
    // Validated once, so this instance holds the answer (validation-cache.ts) when the IdP's request comes.
    expect((await app.http.post('/sessions/validate', { token: leavingToken })).body.valid).toBe(true);

    const { id, url } = idp.logoutRedirect({ destination: endpoint(), nameId: 'entra-leaving' }, 'back-to-portal');
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    const location = answer.headers.get('location')!;
    expect(location.startsWith(`${IDP_SLO_URL}?SAMLResponse=`)).toBe(true);
    expect(idp.readLogoutResponse(location)).toEqual({ inResponseTo: id, status: 'urn:oasis:names:tc:SAML:2.0:status:Success', relayState: 'back-to-portal' });
    expect(idp.redirectSignature(location, await spCertificate())).toBe('valid');

    expect(await sessionsOf(leaving)).toBe(0);
    expect(await userinfoStatus(leavingToken)).toBe(401);
    expect((await app.http.post('/sessions/validate', { token: leavingToken })).body).toEqual({ valid: false, session: null });
    expect(await sessionsOf(staying)).toBe(1);
    expect(await userinfoStatus(stayingToken)).toBe(200);
    const [revoked] = (await app.http.get(`/audit-logs?action=session.revoked&pageSize=1`)).body.data as { actor: unknown; changes: { after: unknown } }[];
    expect(revoked).toMatchObject({ actor: { type: 'system', id: 'saml-logout' }, changes: { after: { reason: 'saml_logout' } } });

    // The same request again is refused: a LogoutRequest is used once.
    const replayed = await fetch(url, { redirect: 'manual' });
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain('sign-out request could not be verified');
  });

  it('ends the subject’s grant sign-ins too (an offline app whose browser session ended), each recorded; another user’s stands', async () => {
    const leaving = await app.createUser('offline-leaving@saml.test', tenantId);
    const staying = await app.createUser('offline-staying@saml.test', tenantId);
    const offline = { scope: 'openid email offline_access', prompt: 'consent' };
    /** Signed in through the IdP with offline access, then that browser session is gone (swept, signed out): a grant sign-in of its own. */
    const offlineSignIn = async (email: string, nameId: string) => {
      const tokens = await signIn(email, nameId, new CookieJar(), config, offline);
      const [user] = await app.gatehouse.services.orm.em.getConnection().execute<{ id: string }[]>('select id::text from app_user where email = ?', [email]);
      await app.gatehouse.services.orm.em.getConnection().execute(`delete from oidc_model where model = 'Session' and payload->>'accountId' = ?`, [user!.id]);
      await app.gatehouse.services.orm.em.getConnection().execute('delete from user_session where user_id = ?', [user!.id]);
      return tokens;
    };
    const leavingOffline = await offlineSignIn('offline-leaving@saml.test', 'entra-offline-leaving');
    const stayingOffline = await offlineSignIn('offline-staying@saml.test', 'entra-offline-staying');
    await signIn('offline-leaving@saml.test', 'entra-offline-leaving');
    const sessions = ((await app.http.get(`/users/${leaving}/sessions`)).body.data as { id: string; ip: string | null }[]).sort((a, b) => a.id.localeCompare(b.id));
    expect(sessions.map((session) => session.ip === null).sort()).toEqual([false, true]);
    expect(await sessionsOf(staying)).toBe(1);

    const answer = await fetch(idp.logoutRedirect({ destination: endpoint(), nameId: 'entra-offline-leaving' }).url, { redirect: 'manual' });
    expect(idp.readLogoutResponse(answer.headers.get('location')!).status).toBe('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect(await sessionsOf(leaving)).toBe(0);
    await expect(oidc.refreshTokenGrant(config, leavingOffline.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const records = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ target_id: string; actor_id: string; before: unknown; after: unknown }[]>(
        `select target_id, actor_id, before, after from audit_log where action = 'session.revoked' and target_id in (?) order by target_id`,
        [sessions.map((session) => session.id)],
      );
    expect(records).toEqual(sessions.map((session) => ({ target_id: session.id, actor_id: 'saml-logout', before: session, after: { reason: 'saml_logout', grantsRevoked: 1 } })));
    // Another subject's offline sign-in stands, and refreshes.
    expect(await sessionsOf(staying)).toBe(1);
    expect((await oidc.refreshTokenGrant(config, stayingOffline.refresh_token!)).access_token).toEqual(expect.any(String));
  });

  it('by POST too; a NameID of no known sign-in, or of another application’s, is answered UnknownPrincipal', async () => {
    const posting = await app.createUser('posting@saml.test', tenantId);
    const token = await signedIn('posting@saml.test', 'entra-posting');
    const { id, samlRequest } = idp.logoutPost({ destination: endpoint(), nameId: 'entra-posting' });
    const answer = await new CookieJar().visit(endpoint(), { method: 'POST', form: { SAMLRequest: samlRequest } });
    expect(answer.status).toBe(303);
    expect(idp.readLogoutResponse(answer.location!)).toMatchObject({ inResponseTo: id, status: 'urn:oasis:names:tc:SAML:2.0:status:Success' });
    expect(await sessionsOf(posting)).toBe(0);
    expect(await userinfoStatus(token)).toBe(401);

    const unknown = await fetch(idp.logoutRedirect({ destination: endpoint(), nameId: 'entra-nobody' }).url, { redirect: 'manual' });
    expect(unknown.status).toBe(303);
    expect(idp.readLogoutResponse(unknown.headers.get('location')!).status).toBe('urn:oasis:names:tc:SAML:2.0:status:Requester');

    // A NameID another application's provider recorded is unknown here (known, it would be answered Success).
    const other = await app.bootstrapAnother();
    const otherAdmin = app.as({ apiKey: other.apiKey });
    const otherProvider = await otherAdmin.post('/auth-providers', { type: 'saml', config: idp.providerConfig({ sloUrl: IDP_SLO_URL }) });
    const otherUser = (await otherAdmin.post('/users', { email: 'foreign@saml.test' })).body.id as string;
    await app.gatehouse.services.orm.em
      .getConnection()
      .execute(`insert into saml_subject (application_id, provider_id, name_id, user_id, expires_at) values (?, ?, 'entra-foreign', ?, now() + interval '1 hour')`, [
        other.applicationId,
        otherProvider.body.id,
        otherUser,
      ]);
    const foreign = await fetch(idp.logoutRedirect({ destination: endpoint(), nameId: 'entra-foreign' }).url, { redirect: 'manual' });
    expect(idp.readLogoutResponse(foreign.headers.get('location')!).status).toBe('urn:oasis:names:tc:SAML:2.0:status:Requester');
  });

  it('a sign-out here goes through the IdP: its LogoutRequest names the NameID, and its answer brings the browser to the post-logout URI', async () => {
    const POST_LOGOUT_URI = 'https://app.example/signed-out';
    const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] });
    const configuration = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    const user = await app.createUser('signing-out@saml.test', tenantId);
    const jar = new CookieJar();
    const tokens = await signIn('signing-out@saml.test', 'entra-signing-out', jar, configuration);

    const confirm = await jar.visit(oidc.buildEndSessionUrl(configuration, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT_URI, state: 'bye' }).href);
    expect(confirm.status).toBe(200);
    // The confirmation's 303 leads to the IdP, whose answer comes to the provider's /slo: browsers check form-action on each.
    expect(confirm.headers.get('content-security-policy')).toContain(`form-action 'self' https://app.example https://idp.test ${new URL(issuer).origin};`);
    const toIdp = await jar.submit(confirm, { logout: 'yes' });
    expect(toIdp.status).toBe(303);
    expect(toIdp.location!.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true);
    expect(idp.redirectSignature(toIdp.location!, await spCertificate())).toBe('valid');
    const request = idp.readLogoutRequest(toIdp.location!);
    expect(request).toMatchObject({ nameId: 'entra-signing-out', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent' });
    // Signed out here before the browser left.
    expect(await sessionsOf(user)).toBe(0);
    expect(await userinfoStatus(tokens.access_token)).toBe(401);

    // One nested past any real message is not parsed (it takes no credential): the signed-out page, the request still open.
    const deep = await jar.visit(idp.logoutResponse(endpoint(), request.id, 60));
    expect(deep.status).toBe(200);
    expect(deep.body).toContain('You are signed out');
    const back = await jar.visit(idp.logoutResponse(endpoint(), request.id));
    expect(back.status).toBe(303);
    expect(back.location).toBe(`${POST_LOGOUT_URI}?state=bye`);
    // The answer is used once: again, it leads to the signed-out page, not the client.
    const again = await jar.visit(idp.logoutResponse(endpoint(), request.id));
    expect(again.status).toBe(200);
    expect(again.body).toContain('You are signed out');

    // A user with no SAML sign-in signs out straight to the client.
    await setSlo({ sloUrl: null });
    try {
      const other = new CookieJar();
      const plain = await signIn('signing-out@saml.test', 'entra-signing-out', other, configuration);
      const page = await other.visit(oidc.buildEndSessionUrl(configuration, { id_token_hint: plain.id_token!, post_logout_redirect_uri: POST_LOGOUT_URI }).href);
      expect((await other.submit(page, { logout: 'yes' })).location).toBe(POST_LOGOUT_URI);
    } finally {
      await setSlo({ sloUrl: IDP_SLO_URL });
    }
  });

  it('on the application’s custom domain, a sign-out naming no client goes through the IdP too, then to the signed-out page', async () => {
    await app.createUser('on-domain@saml.test', tenantId);
    const flow = await authorize({}, new CookieJar(fetchVia(app.baseUrl)), domainConfig);
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ email: 'on-domain@saml.test', nameId: 'entra-on-domain', inResponseTo: request.id }), request.relayState);
    await codeFor(flow, await flow.jar.visit(acs.location!), domainConfig);

    const confirm = await flow.jar.visit(`http://${DOMAIN}/oauth2/logout`);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toContain('https://idp.test');
    const leaving = await flow.jar.submit(confirm, { logout: 'yes' });
    expect(leaving.location!.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true);
    const logout = idp.readLogoutRequest(leaving.location!);
    expect(logout.nameId).toBe('entra-on-domain');
    const back = await flow.jar.visit(idp.logoutResponse(endpoint(), logout.id));
    expect(back.location).toBe(`http://${DOMAIN}/oauth2/logout/success`);
  });

  /** `second` (of NameID `nameId`) signs in through the IdP on the browser `first` signed in on: the OP's account-switch
   *  confirmation it is shown, and its flow. */
  async function switchTo(jar: CookieJar, second: string, nameId: string): Promise<{ flow: AuthorizationFlow; visit: Visit }> {
    const flow = await authorize({ prompt: 'login' }, jar);
    const request = await toIdp(flow);
    const acs = await postToAcs(respond({ email: second, nameId, inResponseTo: request.id }), request.relayState);
    let visit = await flow.jar.visit(acs.location!);
    for (let hops = 0; hops < 5 && visit.status === 303 && visit.location!.startsWith(issuer); hops += 1) visit = await flow.jar.visit(visit.location!);
    expect(visit.body).toContain('/oauth2/logout/confirm');
    return { flow, visit };
  }

  it('another account signing in on the browser signs the first out here, then at its IdP as a sign-out does, and the sign-in goes on', async () => {
    const first = await app.createUser('first@saml.test', tenantId);
    const second = await app.createUser('second@saml.test', tenantId);
    const jar = new CookieJar();
    const signedInFirst = await signIn('first@saml.test', 'entra-first', jar);
    // The OP's own form that signs the first account out on its way back to the authorization; its 303 leads to the
    // IdP, whose answer comes to the provider's /slo: browsers check form-action on each.
    const { flow, visit } = await switchTo(jar, 'second@saml.test', 'entra-second');
    expect(visit.headers.get('content-security-policy')).toContain(`https://idp.test ${new URL(issuer).origin}`);
    const toIdp2 = await flow.jar.submit(visit, {});
    expect(toIdp2.status).toBe(303);
    expect(toIdp2.location!.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true);
    expect(idp.redirectSignature(toIdp2.location!, await spCertificate())).toBe('valid');
    const logout = idp.readLogoutRequest(toIdp2.location!);
    // The replaced account's NameID, not the one signing in.
    expect(logout.nameId).toBe('entra-first');
    // Signed out here before the browser left.
    expect(await sessionsOf(first)).toBe(0);
    expect(await userinfoStatus(signedInFirst.access_token)).toBe(401);

    const back = await flow.jar.visit(idp.logoutResponse(endpoint(), logout.id));
    expect(back.status).toBe(303);
    expect(back.location!.startsWith(`${issuer}/oauth2/authorize/`)).toBe(true);
    expect(await codeFor(flow, back)).toMatchObject({ sub: second });
  });

  it('on the device pages, whose one session another application’s device sign-in replaces: through the replaced account’s IdP, then that device is approved', async () => {
    await app.createUser('tv-first@saml.test', tenantId);
    const tv = await createTestClient(app, { type: 'device', authMethod: 'none' });
    const other = await app.bootstrapAnother();
    const otherTv = await createTestClient(app, { type: 'device', authMethod: 'none', applicationId: other.applicationId });
    const globex = await app.createTenant('Globex', other);
    const bob = await app.as({ apiKey: other.apiKey }).post('/users', { email: 'bob@globex.example', password: 'Correct-Horse-9', tenantId: globex });
    expect(bob.status, JSON.stringify(bob.body)).toBe(201);
    const jar = new CookieJar();
    /** The sign-in page of a new code of `client`, in `jar`. */
    async function signInPageFor(client: { clientId: string }): Promise<Visit> {
      const started = await oidc.initiateDeviceAuthorization(await discover(app, client.clientId, oidc.None()), { scope: 'openid email' });
      const toSignIn = await jar.submit(await jar.submit(await jar.visit(started.verification_uri_complete!), {}), {});
      expect(toSignIn.status, toSignIn.body.slice(0, 500)).toBe(303);
      return jar.visit(toSignIn.location!);
    }
    const following = async (visit: Visit) => {
      for (let hops = 0; hops < 6 && visit.status === 303 && visit.location!.startsWith(issuer); hops += 1) visit = await jar.visit(visit.location!);
      return visit;
    };
    const request = await toIdp({ jar, page: await signInPageFor(tv) });
    const acs = await postToAcs(respond({ email: 'tv-first@saml.test', nameId: 'entra-tv-first', inResponseTo: request.id }), request.relayState);
    expect((await following(await jar.visit(acs.location!))).body).toContain('Your device is now signed in');

    // Bob approves his TV, of another application, on the same phone.
    const switching = await following(await jar.submit(await signInPageFor(otherTv), { email: 'bob@globex.example', password: 'Correct-Horse-9' }));
    expect(switching.body).toContain('/oauth2/logout/confirm');
    expect(switching.headers.get('content-security-policy')).toContain(`https://idp.test ${new URL(issuer).origin}`);
    const leaving = await jar.submit(switching, {});
    expect(leaving.location!.startsWith(`${IDP_SLO_URL}?SAMLRequest=`)).toBe(true);
    const logout = idp.readLogoutRequest(leaving.location!);
    expect(logout.nameId).toBe('entra-tv-first');
    const back = await jar.visit(idp.logoutResponse(endpoint(), logout.id));
    expect(back.location!.startsWith(`${issuer}/oauth2/device/`)).toBe(true);
    expect((await following(back)).body).toContain('Your device is now signed in');
  });

  it('an account switch whose replaced account signed in with no SAML single logout goes straight back to the sign-in', async () => {
    await setSlo({ sloUrl: null });
    try {
      await app.createUser('plain-first@saml.test', tenantId);
      const second = await app.createUser('plain-second@saml.test', tenantId);
      const jar = new CookieJar();
      await signIn('plain-first@saml.test', 'entra-plain-first', jar);
      const { flow, visit } = await switchTo(jar, 'plain-second@saml.test', 'entra-plain-second');
      expect(visit.headers.get('content-security-policy')).not.toContain('https://idp.test');
      const switched = await flow.jar.submit(visit, {});
      expect(switched.status).toBe(303);
      expect(switched.location!.startsWith(`${issuer}/oauth2/authorize/`)).toBe(true);
      expect(await codeFor(flow, switched)).toMatchObject({ sub: second });
    } finally {
      await setSlo({ sloUrl: IDP_SLO_URL });
    }
  });

  it('a provider moved to another IdP (entityId) forgets the NameIDs its sign-ins recorded: the new IdP’s same NameID ends nothing', async () => {
    const moved = await app.createUser('moved-slo@saml.test', tenantId);
    const token = await signedIn('moved-slo@saml.test', 'entra-moved');
    const other = new TestIdp();
    await setSlo({ entityId: other.entityId });
    try {
      // Another IdP's user of the same NameID: its logout is no word on the sign-in the first IdP made.
      const answer = await fetch(other.logoutRedirect({ destination: endpoint(), nameId: 'entra-moved' }).url, { redirect: 'manual' });
      expect(answer.status).toBe(303);
      expect(other.readLogoutResponse(answer.headers.get('location')!).status).toBe('urn:oasis:names:tc:SAML:2.0:status:Requester');
      expect(await sessionsOf(moved)).toBe(1);
      expect(await userinfoStatus(token)).toBe(200);
    } finally {
      await setSlo({ entityId: idp.entityId });
    }
  });

  it('refuses, ending nothing, a request unsigned, signed by another key, of another issuer, for another endpoint or stale', async () => {
    const kept = await app.createUser('kept@saml.test', tenantId);
    const token = await signedIn('kept@saml.test', 'entra-kept');
    const base = { destination: endpoint(), nameId: 'entra-kept' };
    const refused = [
      idp.logoutRedirect({ ...base, sign: 'none' }).url,
      idp.logoutRedirect({ ...base, sign: 'wrongKey' }).url,
      idp.logoutRedirect({ ...base, issuer: 'https://idp.test/another' }).url,
      idp.logoutRedirect({ ...base, destination: `${issuer}/saml/${provider.id}/elsewhere` }).url.replace(`${issuer}/saml/${provider.id}/elsewhere`, endpoint()),
      idp.logoutRedirect({ ...base, shiftSeconds: -3600 }).url,
    ];
    for (const url of refused) {
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status, url).toBe(400);
    }
    const unsignedPost = idp.logoutPost({ ...base, sign: 'none' });
    expect((await new CookieJar().visit(endpoint(), { method: 'POST', form: { SAMLRequest: unsignedPost.samlRequest } })).status).toBe(400);
    const forgedPost = idp.logoutPost({ ...base, sign: 'wrongKey' });
    expect((await new CookieJar().visit(endpoint(), { method: 'POST', form: { SAMLRequest: forgedPost.samlRequest } })).status).toBe(400);
    // Another subject's signed request with this one's NameID slipped into its Signature, which the enveloped signature
    // does not cover: the request's own NameID is the one it ends, never the slipped one.
    const slipping = await app.createUser('slipping@saml.test', tenantId);
    await signedIn('slipping@saml.test', 'entra-slipping');
    const own = idp.logoutPost({ destination: endpoint(), nameId: 'entra-slipping' });
    const slipped = Buffer.from(own.samlRequest, 'base64')
      .toString('utf8')
      .replace(/<\/(\w+:)?SignatureValue>/, (end) => `${end}<saml:NameID xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">entra-kept</saml:NameID>`);
    expect(slipped).toContain('entra-kept');
    const answered = await new CookieJar().visit(endpoint(), { method: 'POST', form: { SAMLRequest: Buffer.from(slipped).toString('base64') } });
    expect(answered.status).toBe(303);
    expect(await sessionsOf(slipping)).toBe(0);
    expect(await sessionsOf(kept)).toBe(1);
    expect(await userinfoStatus(token)).toBe(200);
  });

  it('on the application’s custom domain, a LogoutRequest naming the domain’s /slo ends its subject’s sessions; one naming another endpoint is refused', async () => {
    const domainFetch = fetchVia(app.baseUrl);
    const domainEndpoint = `http://${DOMAIN}/saml/${provider.id}/slo`;
    // The domain's metadata names the domain's /slo, so an IdP set up from it sends its requests there.
    const metadata = await (await domainFetch(`http://${DOMAIN}/saml/${provider.id}/metadata`)).text();
    expect([...metadata.matchAll(/<SingleLogoutService [^>]*Location="([^"]+)"/g)].map((match) => match[1])).toEqual([domainEndpoint, domainEndpoint]);
    const leaving = await app.createUser('domain-slo@saml.test', tenantId);
    const token = await signedIn('domain-slo@saml.test', 'entra-domain-slo');
    const base = { nameId: 'entra-domain-slo' };
    // The query's signature covers no host: each is signed as the IdP would, then sent to another endpoint than it names.
    const sentElsewhere = (named: string, to: string) => idp.logoutRedirect({ ...base, destination: named }).url.replace(named, to);
    const refused = [
      [sentElsewhere(endpoint(), domainEndpoint), domainFetch],
      [sentElsewhere(`http://login.other-saml.example/saml/${provider.id}/slo`, domainEndpoint), domainFetch],
      [sentElsewhere(domainEndpoint, endpoint()), fetch],
    ] as const;
    for (const [url, via] of refused) {
      const answer = await via(url, { redirect: 'manual' });
      expect(answer.status, url).toBe(400);
    }
    const forgedPost = idp.logoutPost({ ...base, destination: `${issuer}/saml/${provider.id}/elsewhere` });
    expect((await new CookieJar(domainFetch).visit(domainEndpoint, { method: 'POST', form: { SAMLRequest: forgedPost.samlRequest } })).status).toBe(400);
    expect(await sessionsOf(leaving)).toBe(1);

    const { id, url } = idp.logoutRedirect({ ...base, destination: domainEndpoint });
    const answer = await domainFetch(url, { redirect: 'manual' });
    expect(answer.status, await answer.text()).toBe(303);
    expect(idp.readLogoutResponse(answer.headers.get('location')!)).toMatchObject({ inResponseTo: id, status: 'urn:oasis:names:tc:SAML:2.0:status:Success' });
    expect(await sessionsOf(leaving)).toBe(0);
    expect(await userinfoStatus(token)).toBe(401);

    const posting = await app.createUser('domain-slo-post@saml.test', tenantId);
    await signedIn('domain-slo-post@saml.test', 'entra-domain-slo-post');
    const posted = idp.logoutPost({ nameId: 'entra-domain-slo-post', destination: domainEndpoint });
    const postAnswer = await new CookieJar(domainFetch).visit(domainEndpoint, { method: 'POST', form: { SAMLRequest: posted.samlRequest } });
    expect(postAnswer.status, postAnswer.body).toBe(303);
    expect(idp.readLogoutResponse(postAnswer.location!)).toMatchObject({ inResponseTo: posted.id, status: 'urn:oasis:names:tc:SAML:2.0:status:Success' });
    expect(await sessionsOf(posting)).toBe(0);
  });
});

describe('single logout in an isolated application', () => {
  const IDP_SLO_URL = 'https://idp.test/slo';
  let isolated: BootstrapResult;
  let admin: HttpClient;
  let appPath: string;
  let isolatedConfig: oidc.Configuration;
  type Provider = typeof provider;
  /** The application's own, which its tenants without providers of their own inherit. */
  let inherited: Provider;

  beforeAll(async () => {
    isolated = await app.bootstrapAnother();
    admin = app.as({ apiKey: isolated.apiKey });
    appPath = `/applications/${isolated.applicationId}`;
    expect((await admin.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const client = await createTestClient(app, { applicationId: isolated.applicationId, type: 'web', redirectUris: [REDIRECT_URI] });
    isolatedConfig = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
    inherited = await samlProvider('App IdP');
  });

  /** A SAML provider with single logout: the application's (no `tenant`) or the tenant's own. */
  async function samlProvider(name: string, tenant?: string): Promise<Provider> {
    const created = await admin.post(tenant === undefined ? '/auth-providers' : `${appPath}/tenants/${tenant}/auth-providers`, {
      type: 'saml',
      name,
      config: idp.providerConfig({ sloUrl: IDP_SLO_URL }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Provider;
  }

  /** A member of `tenant`'s pool, signed in to it through `saml` (its button `name`) as `nameId`: its id and access token. */
  async function signedIn(tenant: string, saml: Provider, name: string, email: string, nameId: string) {
    const member = await admin.post(`${appPath}/tenants/${tenant}/users`, { email });
    expect(member.status, JSON.stringify(member.body)).toBe(201);
    const flow = await authorize({ tenant }, new CookieJar(), isolatedConfig);
    const request = await toIdp(flow, name);
    const acs = await postToAcs(idp.response({ acsUrl: saml.acsUrl, audience: saml.metadataUrl, email, nameId, inResponseTo: request.id }), request.relayState, undefined, saml.acsUrl);
    expect(acs.status, acs.body).toBe(303);
    const callback = await flow.jar.followOut(await flow.jar.visit(acs.location!), issuer);
    const tokens = await oidc.authorizationCodeGrant(isolatedConfig, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    return { id: member.body.id as string, token: tokens.access_token, idToken: tokens.id_token!, jar: flow.jar };
  }

  /** The IdP's LogoutRequest for `nameId` at `saml`'s /slo: the status it is answered. */
  async function loggedOutAtIdp(saml: Provider, nameId: string): Promise<string | null> {
    const answer = await fetch(idp.logoutRedirect({ destination: saml.metadataUrl.replace(/\/metadata$/, '/slo'), nameId }).url, { redirect: 'manual' });
    expect(answer.status).toBe(303);
    return idp.readLogoutResponse(answer.headers.get('location')!).status;
  }

  const signedInStill = async (user: { id: string; token: string }) => {
    const sessions = ((await admin.get(`/users/${user.id}/sessions`)).body.data as unknown[]).length;
    const userinfo = (await fetch(`${issuer}/oauth2/userinfo`, { headers: { authorization: `Bearer ${user.token}` } })).status;
    return { sessions, userinfo };
  };
  const SIGNED_IN = { sessions: 1, userinfo: 200 };
  const SIGNED_OUT = { sessions: 0, userinfo: 401 };
  const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

  it('one NameID in two tenants’ own providers: the LogoutRequest of tenant A’s IdP ends A’s user’s session, never B’s', async () => {
    const [a, b] = [await app.createTenant('Slo A', isolated), await app.createTenant('Slo B', isolated)];
    const [aIdp, bIdp] = [await samlProvider('A IdP', a), await samlProvider('B IdP', b)];
    const inA = await signedIn(a, aIdp, 'A IdP', 'sam@slo.test', 'okta-sam');
    const inB = await signedIn(b, bIdp, 'B IdP', 'sam@slo.test', 'okta-sam');
    expect(inA.id).not.toBe(inB.id);

    expect(await loggedOutAtIdp(aIdp, 'okta-sam')).toBe(SUCCESS);
    expect(await signedInStill(inA)).toEqual(SIGNED_OUT);
    expect(await signedInStill(inB)).toEqual(SIGNED_IN);
    expect(await loggedOutAtIdp(bIdp, 'okta-sam')).toBe(SUCCESS);
    expect(await signedInStill(inB)).toEqual(SIGNED_OUT);
  });

  it('the application’s provider, inherited by two tenants: its LogoutRequest ends the session of each user that NameID signed in as, and no other provider’s', async () => {
    const [c, d, own] = [await app.createTenant('Slo C', isolated), await app.createTenant('Slo D', isolated), await app.createTenant('Slo Own', isolated)];
    const ownIdp = await samlProvider('Own IdP', own);
    const inC = await signedIn(c, inherited, 'App IdP', 'max@slo.test', 'okta-max');
    const inD = await signedIn(d, inherited, 'App IdP', 'max@slo.test', 'okta-max');
    const inOwn = await signedIn(own, ownIdp, 'Own IdP', 'max@slo.test', 'okta-max');
    expect(new Set([inC.id, inD.id, inOwn.id]).size).toBe(3);

    expect(await loggedOutAtIdp(inherited, 'okta-max')).toBe(SUCCESS);
    expect(await signedInStill(inC)).toEqual(SIGNED_OUT);
    expect(await signedInStill(inD)).toEqual(SIGNED_OUT);
    expect(await signedInStill(inOwn)).toEqual(SIGNED_IN);
  });

  it('a sign-out here of the first tenant’s user, after the NameID signed in to another tenant, still goes through the IdP', async () => {
    const [e, f] = [await app.createTenant('Slo E', isolated), await app.createTenant('Slo F', isolated)];
    const inE = await signedIn(e, inherited, 'App IdP', 'kim@slo.test', 'okta-kim');
    await signedIn(f, inherited, 'App IdP', 'kim@slo.test', 'okta-kim');
    const confirm = await inE.jar.visit(oidc.buildEndSessionUrl(isolatedConfig, { id_token_hint: inE.idToken }).href);
    expect(confirm.status).toBe(200);
    const leaving = await inE.jar.submit(confirm, { logout: 'yes' });
    expect(leaving.location?.startsWith(`${IDP_SLO_URL}?SAMLRequest=`), leaving.location).toBe(true);
    expect(idp.readLogoutRequest(leaving.location!).nameId).toBe('okta-kim');
  });
});

describe('the providers of a surface', () => {
  it('disabled: no button, its start link is 404, and a response for it signs nobody in', async () => {
    const flow = await authorize();
    const request = await toIdp(flow);
    const link = `${flow.page.url}/saml/${provider.id}`;
    expect((await app.http.patch(`/auth-providers/${provider.id}`, { enabled: false })).status).toBe(200);
    try {
      const acs = await postToAcs(respond({ inResponseTo: request.id }), request.relayState);
      expect((await flow.jar.visit(acs.location!)).status).toBe(403);
      expect(JSON.stringify(await lastSignInRecord('user.sign_in_failed'))).toContain('"reason":"method_unavailable"');
      const fresh = await authorize();
      expect(fresh.page.body).not.toContain('Sign in with Acme Okta');
      expect((await fresh.jar.visit(`${fresh.page.url}/saml/${provider.id}`)).status).toBe(404);
      expect((await flow.jar.visit(link)).status).toBe(404);
    } finally {
      await app.http.patch(`/auth-providers/${provider.id}`, { enabled: true });
    }
  });

  it('isolated: a tenant with providers of its own does not offer the application’s SAML provider; one that inherits does', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const own = await app.createTenant('Own Providers');
    const inheriting = await app.createTenant('Inheriting');
    expect((await app.http.patch(appPath, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    expect((await app.http.post(`${appPath}/tenants/${own}/auth-providers`, { type: 'password' })).status).toBe(201);
    const ownFlow = await authorize({ tenant: own });
    expect(ownFlow.page.status).toBe(200);
    expect(ownFlow.page.body).not.toContain('Sign in with');
    expect((await ownFlow.jar.visit(`${ownFlow.page.url}/saml/${provider.id}`)).status).toBe(404);
    const inheritingFlow = await authorize({ tenant: inheriting });
    expect(inheritingFlow.page.body).toContain('Sign in with Acme Okta');
  });

  it('isolated: a tenant’s own provider signs its own pool’s users in, its ACS under the tenant’s path', async () => {
    const appPath = `/applications/${app.root.applicationId}`;
    const tenant = await app.createTenant('Own Saml');
    const created = await app.http.post(`${appPath}/tenants/${tenant}/auth-providers`, {
      type: 'saml',
      name: 'Tenant IdP',
      config: idp.providerConfig(),
    });
    expect(created.status).toBe(201);
    const own = created.body as typeof provider;
    expect(own.acsUrl).toBe(`${issuer}/t/${tenant}/saml/${own.id}/acs`);
    const member = await app.http.post(`${appPath}/tenants/${tenant}/users`, { email: EMAIL });
    expect(member.status).toBe(201);
    const flow = await authorize({ tenant });
    const request = await toIdp(flow, 'Tenant IdP');
    expect(request.acsUrl).toBe(own.acsUrl);
    const samlResponse = idp.response({ acsUrl: own.acsUrl, audience: own.metadataUrl, email: EMAIL, inResponseTo: request.id });
    // Not at the application's path: the provider is the tenant's.
    expect((await new CookieJar().visit(`${issuer}/saml/${own.id}/acs`, { method: 'POST', form: { SAMLResponse: samlResponse } })).status).toBe(404);
    const acs = await flow.jar.visit(own.acsUrl, { method: 'POST', form: { SAMLResponse: samlResponse, RelayState: request.relayState ?? '' } });
    expect(acs.status, acs.body).toBe(303);
    expect(await codeFor(flow, await flow.jar.visit(acs.location!))).toMatchObject({ sub: member.body.id, tenant_id: tenant });

    // An unconfirmed account without a password, vouched by the tenant (as a shared pool's split leaves one): the tenant's
    // own IdP asserts whatever address the tenant likes, so its word proves no mailbox.
    const vouched = 'vouched-own@saml.test';
    const made = await app.http.post(`${appPath}/tenants/${tenant}/users`, { email: vouched });
    expect(made.status).toBe(201);
    await app.sql('update app_user set email_verified = false, vouched_by_tenant_id = pool_id where id = ?', [made.body.id]);
    const refusedFlow = await authorize({ tenant });
    const refusedRequest = await toIdp(refusedFlow, 'Tenant IdP');
    const refusedResponse = idp.response({ acsUrl: own.acsUrl, audience: own.metadataUrl, email: vouched, inResponseTo: refusedRequest.id });
    const refusedAcs = await refusedFlow.jar.visit(own.acsUrl, { method: 'POST', form: { SAMLResponse: refusedResponse, RelayState: refusedRequest.relayState ?? '' } });
    const refused = await refusedFlow.jar.visit(refusedAcs.location!);
    expect(refused.status, refused.body).toBe(403);
    expect(refused.body).toContain('cannot sign in');
    const [record] = await app.sql<{ target_id: string; reason: string }>(
      `select target_id, after->>'reason' as reason from audit_log where application_id = ? and action = 'user.sign_in_failed' order by id desc limit 1`,
      [app.root.applicationId],
    );
    expect(record).toEqual({ target_id: made.body.id, reason: 'provider_not_trusted' });
    const [row] = await app.sql<{ email_verified: boolean; vouched: boolean }>('select email_verified, vouched_by_tenant_id = pool_id as vouched from app_user where id = ?', [made.body.id]);
    expect(row).toEqual({ email_verified: false, vouched: true });
  });
});
