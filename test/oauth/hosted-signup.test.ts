import type { EntityManager } from '@mikro-orm/postgresql';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/domain/bootstrap.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { configurePassword } from '../support/auth-providers.ts';
import { lockWaitersAtLeast, usingEmbeddedDatabase } from '../support/database.ts';
import { queuedBehind } from '../support/row-lock.ts';
import { readForm, type Visit } from '../support/cookie-jar.ts';
import { SignInRefusal as HostedPageError } from '../../src/domain/sign-in/refusals.ts';
import { resolveTarget } from '../../src/domain/sign-in/sign-in.ts';
import { signUp } from '../../src/domain/sign-in/sign-up.ts';
import { mails } from '../support/email-sign-in.ts';
import { HttpClient } from '../support/http.ts';
import { clientWithKey } from '../support/keys.ts';
import { createTestClient, decodeJwt, discover, startAuthorization, type AuthorizationFlow } from '../support/oauth.ts';

/** Self sign-up on the hosted page, as the pool's password provider and password policy allow. */
const REDIRECT_URI = 'https://app.example/callback';
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let issuer: string;
let managementApi: string;
let config: oidc.Configuration;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
  managementApi = `${issuer}/api/v1`;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
});
afterAll(async () => app?.close());

async function authorize(configuration = config, parameters: Record<string, string> = {}): Promise<AuthorizationFlow> {
  const flow = await startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: managementApi }, { scope: 'openid email profile', ...parameters });
  expect(flow.start.location).toMatch(new RegExp(`^${issuer}/interaction/`));
  return flow;
}

/** The sign-up link of the sign-in page, followed. */
async function signupPage(flow: AuthorizationFlow): Promise<Visit> {
  const link = /<a href="([^"]+\/signup)">/.exec(flow.page.body)?.[1];
  expect(link, flow.page.body).toBeDefined();
  return flow.jar.visit(new URL(link!, flow.page.url).href);
}

async function tokensAfter(configuration: oidc.Configuration, flow: AuthorizationFlow, answer: Visit) {
  const callback = await flow.jar.followOut(answer, issuer);
  return oidc.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource: managementApi });
}

const usersNamed = async (email: string, http = app.http) =>
  ((await http.get('/users?pageSize=100')).body.data as { id: string; email: string; tenantIds: string[] }[]).filter(
    (user) => user.email === email,
  );

describe('sign-up', () => {
  it('the sign-in page links to an accessible sign-up form with name, email and password', async () => {
    const flow = await authorize();
    const page = await signupPage(flow);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.body).toMatch(/<h1>Create an account<\/h1>/);
    expect(page.body).toContain('<input id="name" name="name" type="text" autocomplete="name">');
    // Text, not type="email" (which refuses non-ASCII local parts); `username` pairs the new credential's e-mail.
    expect(page.body).toContain(
      '<input id="email" name="email" type="text" autocomplete="username" inputmode="email" spellcheck="false" autocapitalize="none" required>',
    );
    // The password policy's rules are stated before any submit (WCAG 3.3.2), tied to the field.
    expect(page.body).toContain(
      '<input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby="password-rules">\n' +
        '<p id="password-rules" class="hint">Use at least 8 characters. ' +
        'Passwords exposed in data breaches are not accepted.</p>',
    );
    const form = readForm(page.url, page.body);
    expect(form.action).toBe(`${flow.page.url}/signup`);
    expect(Object.keys(form.fields).sort()).toEqual(['csrf', 'email', 'name', 'password']);
  });

  it('creates the user in the application’s pool, who signs in to the client once verified', async () => {
    const flow = await authorize();
    const page = await signupPage(flow);
    const answer = await flow.jar.submit(page, { name: 'Nia', email: 'Nia@Example.com', password: PASSWORD });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('<h1>Check your email</h1>');
    const [created] = await usersNamed('Nia@Example.com');
    expect(created).toMatchObject({ tenantIds: [] });
    // Verified through the link of its mail (test/oauth/hosted-account-links.test.ts), here in the database.
    await app.gatehouse.services.orm.em.getConnection().execute('update app_user set email_verified = true where id = ?', [created!.id]);
    const again = await authorize();
    const tokens = await tokensAfter(config, again, await again.jar.submit(again.page, { email: 'nia@example.com', password: PASSWORD }));
    expect(tokens.claims()).toMatchObject({ sub: created!.id, email: 'Nia@Example.com', name: 'Nia' });
    expect(decodeJwt(tokens.access_token).payload).toMatchObject({ sub: created!.id, app_id: app.root.applicationId });
  });

  it('a password against the policy is refused with the policy’s reasons, tied to the field; nothing is created', async () => {
    const flow = await authorize();
    const page = await signupPage(flow);
    const answer = await flow.jar.submit(page, { name: 'Oz', email: 'oz@example.com', password: 'short' });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<p id="form-error" class="error" role="alert">Please correct the fields marked below.</p>');
    expect(answer.body).toMatch(/<input id="password"[^>]*aria-describedby="form-error password-error password-rules" aria-invalid="true" autofocus>/);
    expect(answer.body).toMatch(/<p id="password-error" class="field-error">Password must be at least 8 characters/);
    expect(answer.body).toContain('value="oz@example.com"');
    expect(answer.body).not.toContain('value="short"');
    expect(await usersNamed('oz@example.com')).toEqual([]);
    // A password of the bundled breach list, long enough, is refused with a message that says why.
    const breached = await flow.jar.submit(answer, { email: 'oz@example.com', password: 'iloveyou2' });
    expect(breached.status).toBe(400);
    expect(breached.body).toContain(
      '<p id="password-error" class="field-error">Password is among the passwords exposed in data breaches or too common to be safe: choose another.',
    );
    expect(await usersNamed('oz@example.com')).toEqual([]);
    const invalidEmail = await flow.jar.submit(answer, { email: 'not-an-address', password: PASSWORD });
    expect(invalidEmail.status).toBe(400);
    expect(invalidEmail.body).toContain('id="email-error"');
  });

  it('an e-mail that already has an account creates none (its answer: hosted-account-links.test.ts); CSRF is checked', async () => {
    await app.http.post('/users', { email: 'pia@example.com', password: PASSWORD });
    const flow = await authorize();
    const page = await signupPage(flow);
    const taken = await flow.jar.submit(page, { email: 'PIA@example.com', password: PASSWORD });
    expect(taken.status).toBe(200);
    expect(await usersNamed('PIA@example.com')).toEqual([]);
    const forged = await flow.jar.visit(readForm(page.url, page.body).action, { form: { email: 'quinn@example.com', password: PASSWORD } });
    expect(forged.status).toBe(403);
    expect(await usersNamed('quinn@example.com')).toEqual([]);
  });

  it('is not offered for a named tenant of the shared pool (membership is not self-service)', async () => {
    await app.createTenant('Members Only');
    const flow = await authorize(config, { tenant: 'members-only' });
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).not.toContain('/signup');
    const direct = await flow.jar.visit(`${flow.page.url}/signup`);
    expect(direct.status).toBe(404);
  });

  it('a password provider with allowSignup false closes it; with no enabled password provider there is no password sign-in', async () => {
    const provider = await configurePassword(app.http, { allowSignup: false });
    try {
      const flow = await authorize();
      expect(flow.page.status).toBe(200);
      expect(flow.page.body).not.toContain('/signup');
      const form = readForm(flow.page.url, flow.page.body);
      const posted = await flow.jar.visit(`${flow.page.url}/signup`, { form: { csrf: form.fields['csrf']!, email: 'rae@example.com', password: PASSWORD } });
      expect(posted.status).toBe(404);
      expect(await usersNamed('rae@example.com')).toEqual([]);

      expect((await app.http.patch(`/auth-providers/${provider}`, { enabled: false })).status).toBe(200);
      const closed = await authorize();
      expect(closed.page.status).toBe(403);
      expect(closed.page.body).not.toContain('<form');
    } finally {
      await app.http.patch(`/auth-providers/${provider}`, { enabled: true, config: { allowSignup: null } });
    }
  });
});

describe('sign-up of an address a tenant’s administrator gives an account (unproven, without a password)', () => {
  /** An account of `email` made by a tenant's administrator: the address unproven, no password. */
  async function tenantsAccount(email: string) {
    const tenantKey = await clientWithKey(app, ['users:read', 'users:write'], await app.createTenant(`Vouching for ${email}`));
    const made = await tenantKey.post('/users', { email });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.id as string;
  }

  /** One account, the tenant's, without the password typed; its owner got the verification link, as for any unproven one. */
  async function expectOwnerTold(email: string, accountId: string) {
    expect(await app.sql(`select id, password_hash, email_verified from app_user where email = ?`, [email])).toEqual([
      { id: accountId, password_hash: null, email_verified: false },
    ]);
    expect(await mails(app.http, email, 'verify_email')).toHaveLength(1);
  }

  it('made before the sign-up: no second account, no password set, and its owner is sent the verification link', async () => {
    const accountId = await tenantsAccount('made-first@example.com');
    const flow = await authorize();
    const answer = await flow.jar.submit(await signupPage(flow), { name: 'Typed', email: 'made-first@example.com', password: PASSWORD });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toContain('<h1>Check your email</h1>');
    await expectOwnerTold('made-first@example.com', accountId);
  });

  it.skipIf(usingEmbeddedDatabase())('made while the sign-up writes its own (the address taken after it looked): the sign-up ends as when it was made first', async () => {
    const { orm } = app.gatehouse.services;
    const accountId = await tenantsAccount('placeholder@example.com');
    const flow = await authorize();
    const page = await signupPage(flow);
    // The tenant's administrator gives its account the address, committed only once the sign-up, which found no account
    // with it, waits to write its own. PostgreSQL only: the embedded database has one session.
    const answer = await orm.em.fork().transactional(async (em) => {
      await em.execute(`update app_user set email = ?, email_normalized = ? where id = ?`, ['made-meanwhile@example.com', 'made-meanwhile@example.com', accountId]);
      const signingUp = flow.jar.submit(page, { name: 'Typed', email: 'made-meanwhile@example.com', password: PASSWORD });
      await lockWaitersAtLeast(orm, 1);
      return { signingUp };
    });
    const signedUp = await answer.signingUp;
    expect(signedUp.status, signedUp.body).toBe(200);
    expect(signedUp.body).toContain('<h1>Check your email</h1>');
    await expectOwnerTold('made-meanwhile@example.com', accountId);
  });
});

describe('sign-up in isolated tenants', () => {
  let another: BootstrapResult;
  let admin: HttpClient;
  let isolated: oidc.Configuration;
  let strict: string;

  beforeAll(async () => {
    another = await app.bootstrapAnother();
    admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    strict = await app.createTenant('Strict', another);
    await app.createTenant('Lax', another);
    expect((await admin.patch(`/applications/${another.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const policy = await admin.put(`/applications/${another.applicationId}/tenants/${strict}/policies/password`, { minLength: 16 });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: another.applicationId, redirectUris: [REDIRECT_URI] });
    isolated = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  });

  it('the tenant’s password policy applies, and the user joins that tenant’s pool', async () => {
    const toStrict = await authorize(isolated, { tenant: 'strict' });
    const strictPage = await signupPage(toStrict);
    expect(strictPage.body).toContain('<p id="password-rules" class="hint">Use at least 16 characters.');
    const refused = await toStrict.jar.submit(strictPage, { email: 'sam@example.com', password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Password must be at least 16 characters');
    expect((await toStrict.jar.submit(refused, { password: 'Correct-Horse-Battery-9' })).status).toBe(200);
    const [sam] = await usersNamed('sam@example.com', admin);
    expect(sam).toMatchObject({ tenantIds: [strict] });

    // The lax tenant inherits the application's policy (8 characters); same e-mail, its own pool.
    const toLax = await authorize(isolated, { tenant: 'lax' });
    const laxAnswer = await toLax.jar.submit(await signupPage(toLax), { email: 'sam@example.com', password: PASSWORD });
    expect(laxAnswer.status).toBe(200);
    const sams = await usersNamed('sam@example.com', admin);
    expect(sams).toHaveLength(2);
  });
});

describe('sign-up across a switch of authIsolation', () => {
  it('a sign-up decided on the surface as it was before the switch is refused, and creates no user', async () => {
    const shared = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: shared.apiKey });
    const tenant = await app.createTenant('Switching', shared);
    const client = await createTestClient(app, { type: 'web', applicationId: shared.applicationId, redirectUris: [REDIRECT_URI] });
    const data = { applicationId: shared.applicationId, tenantId: null, type: 'web' as const, permissions: [], managementApi: false };
    // The sign-up page's POST resolved its surface (shared pool, the tenant named)...
    const target = await resolveTarget(app.gatehouse.services, 'switch-test', { clientId: client.clientId, data }, tenant);
    // ...then the application became isolated before the user was written.
    expect((await admin.patch(`/applications/${shared.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const attempt = signUp(target, { name: 'Uma', email: 'uma@example.com', password: PASSWORD }, REDIRECT_URI);
    await expect(attempt).rejects.toBeInstanceOf(HostedPageError);
    await expect(attempt).rejects.toMatchObject({ status: 409 });
    expect(await usersNamed('uma@example.com', admin)).toEqual([]);
  });
});

describe('sign-up across a tenant’s deletion', () => {
  it('a sign-up to an isolated tenant deleted since its page was read is refused, and leaves no user in its pool', async () => {
    const isolated = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: isolated.apiKey });
    const tenant = await app.createTenant('Doomed', isolated);
    expect((await admin.patch(`/applications/${isolated.applicationId}`, { tenancyConfig: { authIsolation: 'isolated' } })).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId: isolated.applicationId, redirectUris: [REDIRECT_URI] });
    const data = { applicationId: isolated.applicationId, tenantId: null, type: 'web' as const, permissions: [], managementApi: false };
    // The sign-up's POST resolved its surface (the tenant's pool)...
    const target = await resolveTarget(app.gatehouse.services, 'deletion-test', { clientId: client.clientId, data }, tenant);
    expect(target.poolId).toBe(tenant);
    // ...then the tenant was deleted before the user was written.
    expect((await admin.delete(`/applications/${isolated.applicationId}/tenants/${tenant}`)).status).toBe(204);
    const attempt = signUp(target, { name: 'Orphan', email: 'orphan@example.com', password: PASSWORD }, REDIRECT_URI);
    await expect(attempt).rejects.toMatchObject({ status: 400 });
    const [row] = await app.gatehouse.services.orm.em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from app_user where application_id = ? and pool_id = ?', [isolated.applicationId, tenant]);
    expect(row!.n).toBe(0);
  });
});

describe.skipIf(usingEmbeddedDatabase())('sign-up across a tightening of the password policy', () => {
  it('a password the policy allowed when the form was checked, refused by the policy in force when the user is written, creates no user', async () => {
    const another = await app.bootstrapAnother();
    const admin = new HttpClient(app.baseUrl, { apiKey: another.apiKey });
    const { applicationId } = another;
    expect((await admin.put(`/applications/${applicationId}/policies/password`, { minLength: 8 })).status).toBe(200);
    const client = await createTestClient(app, { type: 'web', applicationId, redirectUris: [REDIRECT_URI] });
    const data = { applicationId, tenantId: null, type: 'web' as const, permissions: [], managementApi: false };
    const target = await resolveTarget(app.gatehouse.services, 'policy-test', { clientId: client.clientId, data }, undefined);
    // The application's row held as a switch holds it: the sign-up checks the form, hashes, and waits at the start of
    // its transaction; the policy is tightened (16 characters) and committed before it goes on.
    const tighten = { lock: 'update' as const, beforeCommit: (em: EntityManager) => em.execute(
      `update setting set value = jsonb_set(value, '{minLength}', '16') where application_id = ? and tenant_id is null and feature = 'policy' and key = 'password'`,
      [applicationId],
    ) };
    const [refused] = await queuedBehind(app.gatehouse.services.orm, { table: 'application', id: applicationId }, tighten, [
      () => signUp(target, { name: 'Val', email: 'val@example.com', password: PASSWORD }, REDIRECT_URI),
    ]);
    expect(refused).toEqual({ ok: false, fieldErrors: { password: [{ key: 'password.tooShort', values: { count: '16' } }] } });
    expect(await usersNamed('val@example.com', admin)).toEqual([]);
    // Beside it, a password the tightened policy accepts.
    const accepted = await signUp(target, { name: 'Val', email: 'val@example.com', password: 'Correct-Horse-Battery-9' }, REDIRECT_URI);
    expect(accepted.ok).toBe(true);
    expect(await usersNamed('val@example.com', admin)).toHaveLength(1);
  });
});
