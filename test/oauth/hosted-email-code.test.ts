import type * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { passwordProviderId } from '../support/auth-providers.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { csrfOf, emailFormAction, headerNames, mailedCode, mails, normalized } from '../support/email-sign-in.ts';
import type { FetchLike } from '../support/host-fetch.ts';
import type { HttpClient } from '../support/http.ts';
import { type AuthorizationFlow, decodeJwt, redeemAfter, startAuthorization } from '../support/oauth.ts';
import { mailSignInTenants } from '../support/surface-sign-in.ts';
import { createPasswordUser } from '../support/users.ts';
import { formsSentAtOnce } from '../support/row-lock.ts';
import { CODE_ATTEMPTS } from '../../src/domain/mfa/codes.ts';
import { REDIRECT_URI, startHostedTestApp } from '../support/hosted-app.ts';

/**
 * The e-mail one-time code as a first factor (the `magic_link` provider with `signInWith` code or link_and_code): a
 * six-digit code mailed through the outbox, hashed at rest, single use, short-lived, void after five wrong tries, each
 * wrong one counted by the lockout policy. On the shared surface, a tenant's path and a custom domain; an unknown
 * address answered alike; the method refused where the providers do not offer it.
 */
const NORTH_HOST = 'login.north.example';
/** 3 failures lock an address out of the account. */
const LOCKOUT = { enabled: true, maxAttempts: 3, lockoutMinutes: 5, resetAfterMinutes: 15, accountLockAddresses: null };

let app: TestApp;
let issuer: string;
let config: oidc.Configuration;

beforeAll(async () => {
  ({ app, issuer, config } = await startHostedTestApp());
  // Codes only, and no sign-up: the page offers the code and no password (its provider off).
  expect((await app.http.patch(`/auth-providers/${await passwordProviderId(app.http)}`, { enabled: false })).status).toBe(200);
  const created = await app.http.post('/auth-providers', { type: 'magic_link', config: { signInWith: 'code', allowSignup: false } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.config).toMatchObject({ signInWith: 'code', linkLifetimeMinutes: 15 });
  expect((await app.http.put('/policies/lockout', LOCKOUT)).status).toBe(200);
});
afterAll(async () => app?.close());


const authorize = (configuration = config, parameters: Record<string, string> = {}, jar = new CookieJar()): Promise<AuthorizationFlow> =>
  startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: `${issuer}/api/v1` }, { scope: 'openid email', ...parameters }, jar);

const askCode = (flow: AuthorizationFlow, email: string): Promise<Visit> =>
  flow.jar.visit(emailFormAction(flow.page, 'email-code'), { form: { csrf: csrfOf(flow.page), email } });

const tokensAfter = (configuration: oidc.Configuration, flow: AuthorizationFlow, answer: Visit) => redeemAfter(configuration, flow, answer, `${issuer}/api/v1`);

/** A wrong code for `code` (another six digits). */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('e-mail code on the shared surface', () => {
  it('offered alone (no password form); the mailed code signs in once, hashed at rest', async () => {
    const userId = await createPasswordUser(app.http, 'ada@example.com');
    const flow = await authorize();
    expect(flow.page.status).toBe(200);
    expect(flow.page.body).not.toContain('name="password"');
    expect(flow.page.body).toContain('Email me a sign-in code');
    expect(flow.page.body).not.toContain('Email me a sign-in link');
    const check = await askCode(flow, 'ada@example.com');
    expect(check.status).toBe(200);
    expect(check.body).toContain('we sent it a sign-in code');
    const code = await mailedCode(app.http, 'ada@example.com');
    const [row] = await app.sql<{ code_hash: string }>(`select code_hash from email_sign_in where user_id = ?`, [userId]);
    expect(row!.code_hash).not.toContain(code);

    const answer = await flow.jar.submit(check, { code });
    expect(answer.status, answer.body).toBe(303);
    expect(decodeJwt((await tokensAfter(config, flow, answer)).access_token).payload['sub']).toBe(userId);
    const [audit] = await app.sql<{ after: { method: string } }>(
      `select after from audit_log where action = 'user.signed_in' and target_id = ? order by id desc limit 1`,
      [userId],
    );
    expect(audit!.after.method).toBe('email_code');
    // The session names the provider that offers the code; the audit record tells a code from a link.
    expect((await app.http.get(`/users/${userId}/sessions`)).body.data.map((session: { methods: string[] }) => session.methods)).toEqual([['magic_link']]);
    // Used: typed again on the same page it is refused.
    expect((await flow.jar.submit(check, { code })).status).toBe(400);
  });

  it('an expired code is refused; so is a code after five wrong ones', async () => {
    const userId = await createPasswordUser(app.http, 'bo@example.com');
    const flow = await authorize();
    const check = await askCode(flow, 'bo@example.com');
    const code = await mailedCode(app.http, 'bo@example.com');
    await app.sql(`update email_sign_in set expires_at = now() - interval '1 second' where user_id = ?`, [userId]);
    const expired = await flow.jar.submit(check, { code });
    expect(expired.status).toBe(400);
    expect(expired.body).toContain('The code is incorrect or has expired');

    // Five wrong codes void the row (the lockout is lifted between them: this is the row's own limit).
    const again = await authorize();
    const page = await askCode(again, 'bo@example.com');
    const fresh = await mailedCode(app.http, 'bo@example.com', 2);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await again.jar.submit(page, { code: wrong(fresh) })).status).toBe(400);
      await app.sql(`delete from sign_in_failure where user_id = ?`, [userId]);
    }
    expect((await again.jar.submit(page, { code: fresh })).status).toBe(400);
    const [row] = await app.sql<{ attempts: number; used: boolean }>(`select attempts, used_at is not null as used from email_sign_in where user_id = ? order by created_at desc limit 1`, [
      userId,
    ]);
    expect(row).toEqual({ attempts: 5, used: true });
  });

  it('guesses at once take one attempt each: with one left, one of three is compared and counted', async () => {
    const userId = await createPasswordUser(app.http, 'cal@example.com');
    const flow = await authorize();
    const check = await askCode(flow, 'cal@example.com');
    const code = await mailedCode(app.http, 'cal@example.com');
    const [row] = await app.sql<{ id: string }>(`update email_sign_in set attempts = ? where user_id = ? returning id`, [CODE_ATTEMPTS - 1, userId]);
    const held = { table: 'email_sign_in', applicationId: app.root.applicationId, id: row!.id };
    const answers = await formsSentAtOnce(app.gatehouse.services.orm, held, [0, 1, 2].map(() => () => flow.jar.submit(check, { code: wrong(code) })));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    const counted = await app.sql(`select 1 from audit_log where action = 'user.sign_in_failed' and target_id = ?`, [userId]);
    expect(counted).toHaveLength(1);
    expect(await app.sql(`select attempts, used_at is not null as used from email_sign_in where id = ?`, [row!.id])).toEqual([{ attempts: CODE_ATTEMPTS, used: true }]);
  });

  it('wrong codes count under the lockout policy: the address is locked out, the right code then refused', async () => {
    const userId = await createPasswordUser(app.http, 'cy@example.com');
    const flow = await authorize();
    const check = await askCode(flow, 'cy@example.com');
    const code = await mailedCode(app.http, 'cy@example.com');
    for (let attempt = 0; attempt < LOCKOUT.maxAttempts; attempt += 1) expect((await flow.jar.submit(check, { code: wrong(code) })).status).toBe(400);
    const [failure] = await app.sql<{ failures: number; locked: boolean }>(
      `select failures, locked_until is not null as locked from sign_in_failure where user_id = ?`,
      [userId],
    );
    expect(failure).toEqual({ failures: LOCKOUT.maxAttempts, locked: true });
    expect((await flow.jar.submit(check, { code })).status).toBe(400);
    const reasons = await app.sql<{ reason: string }>(
      `select after->>'reason' as reason from audit_log where action = 'user.sign_in_failed' and target_id = ? order by id`,
      [userId],
    );
    expect(reasons.map((row) => row.reason)).toEqual(['wrong_code', 'wrong_code', 'wrong_code', 'address_locked']);
  });

  it('an unknown address gets the same page, status and headers, and no mail; any code is then wrong', async () => {
    await createPasswordUser(app.http, 'dee@example.com');
    const known = await askCode(await authorize(), 'dee@example.com');
    const flow = await authorize();
    const unknown = await askCode(flow, 'eve@example.com');
    expect(unknown.status).toBe(known.status);
    expect(normalized(unknown, 'eve@example.com')).toBe(normalized(known, 'dee@example.com'));
    expect(headerNames(unknown)).toEqual(headerNames(known));
    expect(await mails(app.http, 'eve@example.com', 'email_otp')).toEqual([]);
    expect((await flow.jar.submit(unknown, { code: '123456' })).status).toBe(400);
  });

  it('the link form is refused while the provider offers codes only', async () => {
    const flow = await authorize();
    const uid = /\/interaction\/([\w-]+)$/.exec(flow.page.url)![1]!;
    const refused = await flow.jar.visit(`${issuer}/interaction/${uid}/email-link`, { form: { csrf: csrfOf(flow.page), email: 'dee@example.com' } });
    expect(refused.status).toBe(404);
    expect(await mails(app.http, 'dee@example.com', 'magic_link')).toEqual([]);
  });
});

describe('in isolated tenants', () => {
  let admin: HttpClient;
  let north: string;
  let via: FetchLike;
  let discoverAt: (at: string, fetchWith?: FetchLike) => Promise<oidc.Configuration>;

  beforeAll(async () => {
    const providers = { north: [{ type: 'magic_link', config: { signInWith: 'link_and_code' } }], south: [{ type: 'password' }] };
    ({ admin, north, via, discoverAt } = await mailSignInTenants(app, providers, NORTH_HOST));
  });

  async function signInByCode(configuration: oidc.Configuration, jar: CookieJar, mailsBefore: number) {
    const flow = await authorize(configuration, {}, jar);
    expect(flow.page.body).toContain('Email me a sign-in link');
    expect(flow.page.body).toContain('Email me a sign-in code');
    const check = await askCode(flow, 'hal@example.com');
    expect(check.status).toBe(200);
    const answer = await flow.jar.submit(check, { code: await mailedCode(admin, 'hal@example.com', mailsBefore + 1) });
    expect(answer.status, answer.body).toBe(303);
    return decodeJwt((await tokensAfter(configuration, flow, answer)).access_token).payload;
  }

  it('on the tenant’s path surface and on its custom domain', async () => {
    expect(await signInByCode(await discoverAt(`${issuer}/t/north`), new CookieJar(), 0)).toMatchObject({ iss: `${issuer}/t/north`, tenant_id: north });
    expect(await signInByCode(await discoverAt(`http://${NORTH_HOST}`, via), new CookieJar(via), 1)).toMatchObject({ iss: `http://${NORTH_HOST}`, tenant_id: north });
  });

  it('a tenant whose providers do not enable it: not offered, its POSTs refused', async () => {
    const flow = await authorize(await discoverAt(`${issuer}/t/south`));
    expect(flow.page.body).not.toContain('email-code');
    const uid = /\/interaction\/([\w-]+)$/.exec(flow.page.url)![1]!;
    for (const path of ['email-code', 'code']) {
      const refused = await flow.jar.visit(`${issuer}/interaction/${uid}/${path}`, { form: { csrf: csrfOf(flow.page), email: 'hal@example.com', code: '123456' } });
      expect(refused.status).toBe(404);
    }
    expect(await mails(admin, 'hal@example.com', 'email_otp')).toHaveLength(2);
  });
});
