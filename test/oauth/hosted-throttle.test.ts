import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { CookieJar, type Visit } from '../support/cookie-jar.ts';
import { startHostedTestApp, type HostedTestApp } from '../support/hosted-app.ts';

/**
 * The per-address throttle of the hosted forms' sign-in attempts (src/pages/throttle.ts): a low limit here (3 a
 * minute), shared by the sign-in, sign-up and device user-code POSTs of one address; over it, the page's look with
 * 429 and Retry-After, and no credential check at all.
 */
const PASSWORD = 'Correct-Horse-9';
const LIMIT = 3;

let hosted: HostedTestApp;
let app: TestApp;
let issuer: string;
let ada: string;

beforeAll(async () => {
  hosted = await startHostedTestApp({ signInRateLimit: { max: LIMIT, windowMs: 60_000 } });
  ({ app, issuer } = hosted);
  ada = (await app.http.post('/users', { email: 'ada@example.com', name: 'Ada', password: PASSWORD })).body.id;
  expect((await app.http.put('/branding', { colors: { primary: '#123456' } })).status).toBe(200);
});
afterAll(async () => hosted?.close());

async function failedSignIns(): Promise<number> {
  const [row] = await app.gatehouse.services.orm.em
    .getConnection()
    .execute<{ failed_sign_ins: number }[]>('select failed_sign_ins from app_user where id = ?', [ada]);
  return Number(row!.failed_sign_ins);
}

function expectThrottled(visit: Visit) {
  expect(visit.status).toBe(429);
  const retryAfter = Number(visit.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(visit.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
  expect(visit.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(visit.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(visit.headers.get('x-frame-options')).toBe('DENY');
  expect(visit.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(visit.body).toContain('<h1>Too many attempts</h1>');
  expect(visit.body).toContain(`<p role="alert">Too many attempts from your network. Wait ${retryAfter} seconds, then try again.</p>`);
  expect(visit.body).not.toContain('<form');
}

describe('sign-in throttle', () => {
  it(`allows ${LIMIT} sign-in POSTs a window per address, then answers 429 in the page's look without checking anything`, async () => {
    const { jar, page } = await hosted.signInPage();
    let current = page;
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) {
      current = await jar.submit(current, { email: 'ada@example.com', password: `wrong-${attempt}` });
      expect(current.status).toBe(400);
    }
    expect(await failedSignIns()).toBe(LIMIT);

    const refused = await jar.submit(current, { email: 'ada@example.com', password: 'wrong-again' });
    expectThrottled(refused);
    // The application's branding, as on the form itself.
    expect(refused.body).toContain('--gh-primary:#123456');
    // The right password is refused too, and neither attempt reached the credential check (no failure counted).
    expectThrottled(await jar.submit(current, { email: 'ada@example.com', password: PASSWORD }));
    expect(await failedSignIns()).toBe(LIMIT);

    // Pages are still served: only the attempts are counted.
    expect((await hosted.signInPage()).page.status).toBe(200);
  });

  it('sign-up, the device user code, the account page’s forms, a reset link’s and an expired password’s forms and an invitation’s password share the budget of the address', async () => {
    const { jar, page } = await hosted.signInPage();
    const signup = await jar.visit(`${page.url}/signup`);
    expect(signup.status).toBe(200);
    const refused = await jar.submit(signup, { email: 'new@example.com', password: PASSWORD });
    expectThrottled(refused);
    expect(refused.body).toContain('--gh-primary:#123456');
    expect((await app.http.get('/users')).body.data.map((user: { email: string }) => user.email)).not.toContain('new@example.com');

    const device = new CookieJar();
    const input = await device.visit(`${issuer}/oauth2/device`);
    expect(input.status).toBe(200);
    expectThrottled(await device.submit(input, { user_code: 'BCDF-GHJK' }));

    // The account page's forms (current passwords, codes sent) too, whatever their session.
    const account = await new CookieJar().visit(`${issuer}/account/mfa-remove`, { form: { remove_password: PASSWORD } });
    expectThrottled(account);
    // A reset link's new password and an expired one's replacement: each refusal costs the history's Argon2 checks.
    expectThrottled(await new CookieJar().visit(`${issuer}/account/reset-password`, { form: { token: 'any', password: PASSWORD } }));
    const { page: signIn } = await hosted.signInPage();
    expectThrottled(await new CookieJar().visit(signIn.url.replace(/\/?$/, '/password'), { form: { password: PASSWORD } }));

    // An invitation's page asking Ada's password: the throttle's page, as the sign-in form's, and nothing accepted.
    const tenantId = await app.createTenant('Throttled');
    const sent = await app.http.post(`/applications/${app.root.applicationId}/tenants/${tenantId}/invitations`, { email: 'ada@example.com' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [mailed] = (await app.http.get('/email/deliveries?templateKey=invitation&to=ada@example.com')).body.data as { id: string }[];
    const text = (await app.http.get(`/email/deliveries/${mailed!.id}`)).body.text as string;
    const invitation = new CookieJar();
    const form = await invitation.visit(/https?:\/\/\S+\/invitation\?token=[\w-]+/.exec(text)![0]);
    expect(form.status).toBe(200);
    const invitationThrottled = await invitation.submit(form, { password: PASSWORD });
    expectThrottled(invitationThrottled);
    // In the invited tenant's branding, as the page's other refusals are.
    expect(invitationThrottled.body).toContain('--gh-primary:#123456');
    // A token that names no invitation: the plain look, as its page's refusal has.
    const unknown = await invitation.submit(form, { token: 'no-such-token', password: PASSWORD });
    expectThrottled(unknown);
    expect(unknown.body).not.toContain('#123456');
    expect((await app.http.get(`/applications/${app.root.applicationId}/tenants/${tenantId}/invitations/${sent.body.id}`)).body.status).toBe('pending');
  });

  it.runIf(process.env['REDIS_URL'] !== undefined)('counts in Redis when REDIS_URL is set, so every instance shares the counter', async () => {
    const redis = new Redis(process.env['REDIS_URL']!);
    try {
      const keys = await redis.keys(`${app.gatehouse.services.config.rateLimit.redisPrefix}*sign-in:*`);
      expect(keys).toHaveLength(1);
      expect(Number(await redis.get(keys[0]!))).toBeGreaterThan(LIMIT);
    } finally {
      redis.disconnect();
    }
  });
});

describe('the sign-in throttle within the service-wide rate limit', () => {
  const SERVICE_LIMIT = 8;
  let limited: HostedTestApp;
  beforeAll(async () => {
    limited = await startHostedTestApp({
      rateLimit: { max: SERVICE_LIMIT, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` },
      signInRateLimit: { max: 2, windowMs: 60_000 },
    });
  });
  afterAll(async () => limited?.close());

  it('counts the POSTs it refuses against the address, and over that limit refuses before the throttle or any database read', async () => {
    const { jar, page } = await limited.signInPage();
    const remaining = Number(page.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(2);
    const answers: Visit[] = [];
    for (let attempt = 0; attempt < remaining; attempt += 1) answers.push(await jar.submit(page, { email: 'ada@example.com', password: `wrong-${attempt}` }));
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, ...Array<number>(remaining - 2).fill(429)]);
    // Each answer names the limit that decided it: the service's while the throttle lets it through, then the throttle's.
    expect(answers.map((answer) => answer.headers.get('x-ratelimit-limit'))).toEqual([
      String(SERVICE_LIMIT),
      String(SERVICE_LIMIT),
      ...Array<string>(remaining - 2).fill('2'),
    ]);
    for (const answer of answers) expect(answer.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);

    limited.app.queries.length = 0;
    const refused = await jar.submit(page, { email: 'ada@example.com', password: 'wrong-again' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(SERVICE_LIMIT));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(limited.app.queries).toEqual([]);
    expect((await limited.app.as({}).get('/openapi.json')).status).toBe(429);
  });
});

// In memory (no REDIS_URL, or Redis unreachable) a throttled address stays throttled for its window however many other
// addresses post (src/http/rate-limit-memory.ts): the plugin's own store forgot all but the 5,000 keys last used.
describe('the sign-in throttle in memory, without Redis', () => {
  let local: HostedTestApp;
  beforeAll(async () => {
    // A window longer than the test takes.
    local = await startHostedTestApp({ redisUrl: undefined, signInRateLimit: { max: LIMIT, windowMs: 600_000 } });
  });
  afterAll(async () => local?.close());

  it('keeps a throttled address throttled while 5,000 other addresses (/64s of one /48) post', async () => {
    const { jar, page } = await local.signInPage();
    for (let attempt = 1; attempt <= LIMIT; attempt += 1) expect((await jar.submit(page, { email: 'ada@example.com', password: `wrong-${attempt}` })).status).toBe(400);
    expect((await jar.submit(page, { email: 'ada@example.com', password: 'wrong-again' })).status).toBe(429);
    const host = new URL(local.issuer).host;
    for (let i = 0; i < 5000; i += 1) {
      const posted = await local.app.gatehouse.server.app.inject({
        method: 'POST',
        url: '/oauth2/device',
        remoteAddress: `2001:db8:0:${i.toString(16)}::1`,
        // Counted before the body is read, then refused (not a form): the quickest throttled request.
        headers: { host, 'content-type': 'text/plain' },
        payload: 'x',
      });
      expect(posted.statusCode).toBe(400);
    }
    const refused = await jar.submit(page, { email: 'ada@example.com', password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
  }, 180_000);
});
