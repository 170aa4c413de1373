import { mkdirSync } from 'node:fs';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { cspViolationsOf, expectAccessible, launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { mailedCode } from '../support/email-sign-in.ts';
import { authorizationRequest, createTestClient, decodeJwt, discover } from '../support/oauth.ts';
import { totpCodeAt as codeAt } from '../support/totp.ts';

/**
 * The MFA step in Chromium, under a `required` policy: a user enrols an authenticator (the code computed here from the
 * key the page shows), saves their recovery codes and is signed in; a later sign-in is challenged. Another enrols the
 * e-mail code (read from the outbox) and is challenged with it; another signs in once with a recovery code kept from
 * the enrolment. Each page of the step passes axe's WCAG A/AA rules and breaks no CSP; each refusal leaves the step
 * where it was. Screenshots: test-results/hosted-mfa-*.png.
 */
let clientSide: ClientCallback;
const PASSWORD = 'Correct-Horse-9';

let app: TestApp;
let config: oidc.Configuration;
let browser: Browser;
let userId: string;

beforeAll(async () => {
  clientSide = await startClientCallback();
  app = await startTestApp({}, { reachablePublicUrl: true });
  const client = await createTestClient(app, { type: 'web', redirectUris: [clientSide.redirectUri] });
  config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));
  expect((await app.http.put('/policies/mfa', { enforcement: 'required', factors: ['totp', 'email_otp'] })).status).toBe(200);
  userId = await createUser('tess@example.com');
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await clientSide?.close();
});

async function createUser(email: string): Promise<string> {
  const created = await app.http.post('/users', { email, password: PASSWORD });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

const expectAccessibleMfa = (page: Page, state: string) => expectAccessible(page, state, `hosted-mfa-${state}`);

/** `email`'s sign-in in a fresh browser context up to the MFA step; the page, and what the client needs to redeem the code. */
async function toStep(email = 'tess@example.com') {
  const { url, verifier, state } = await authorizationRequest(config, { redirectUri: clientSide.redirectUri, resource: '' });
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = cspViolationsOf(page);
  await page.goto(url.href);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await Promise.all([page.waitForURL(/\/mfa$/), page.getByRole('button', { name: 'Sign in' }).click()]);
  return { context, page, verifier, state, violations };
}

type Step = Awaited<ReturnType<typeof toStep>>;

/** Back at the client: its code redeemed, an ID token for `sub` saying a second factor was used; no CSP broken on the way. */
async function expectSignedIn(step: Step, sub: string) {
  const tokens = await oidc.authorizationCodeGrant(config, new URL(step.page.url()), { pkceCodeVerifier: step.verifier, expectedState: step.state });
  expect(decodeJwt(tokens.id_token!).payload).toMatchObject({ sub, amr: ['pwd', 'otp', 'mfa'] });
  expect(step.violations).toEqual([]);
}

/** `code` typed in the field labelled `label` and verified: back at the client. */
async function verified(page: Page, label: string, code: string) {
  await page.getByLabel(label, { exact: true }).fill(code);
  await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Verify' }).click()]);
}

/** `code` typed in the field labelled `label` and refused: the step's page again (400), its error announced and tied to the field. */
async function expectRefused(page: Page, label: string, code: string, state: string) {
  await page.getByLabel(label, { exact: true }).fill(code);
  const [answer] = await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Verify' }).click()]);
  expect(answer.status()).toBe(400);
  expect(await page.getByRole('alert').textContent()).toBe('The code is incorrect, has expired or was already used.');
  expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')).toBe('form-error');
  expect(page.url()).toMatch(/\/mfa$/);
  await expectAccessibleMfa(page, state);
}

/** The first enrolment's recovery codes, shown once: Continue leads back to the client. */
async function continuePastCodes(page: Page): Promise<string[]> {
  await page.waitForSelector('text=Save your recovery codes');
  const codes = await page.locator('li code').allTextContents();
  expect(codes).toHaveLength(10);
  await expectAccessibleMfa(page, 'recovery-codes');
  await Promise.all([page.waitForURL(`${clientSide.redirectUri}**`), page.getByRole('button', { name: 'Continue' }).click()]);
  return codes;
}

/**
 * The enrolment page's authenticator set up (its first code computed from the key the page shows), through the
 * recovery codes, back at the client: the key and the codes, as the user keeps them.
 */
async function enrolTotp(page: Page): Promise<{ secret: string; codes: string[] }> {
  expect(await page.locator('h1').textContent()).toBe('Set up two-step verification');
  expect(await page.getByRole('img', { name: 'QR code to scan with an authenticator app' }).count()).toBe(1);
  await expectAccessibleMfa(page, 'enrol');
  const uri = (await page.locator('code', { hasText: 'otpauth://totp/' }).textContent())!;
  const secret = new URL(uri).searchParams.get('secret')!;
  await page.getByLabel('Code', { exact: true }).fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Verify' }).click();
  return { secret, codes: await continuePastCodes(page) };
}

/** Another method of the step, chosen by its link. */
async function choose(page: Page, link: string) {
  await Promise.all([page.waitForURL(/\?method=/), page.getByRole('link', { name: link }).click()]);
}

/** "Send a code" on the step's e-mail page: the code of the newest mail in the outbox (`count`: the user's e-mail codes so far). */
async function sendCode(page: Page, email: string, count: number): Promise<string> {
  await Promise.all([page.waitForURL(/sent=1$/), page.getByRole('button', { name: 'Send a code' }).click()]);
  expect(await page.getByRole('status').textContent()).toBe(`We sent a code to ${email}.`);
  return mailedCode(app.http, email, count);
}

describe('TOTP in Chromium', () => {
  it('enrols under `required`, shows the recovery codes once, signs in; the next sign-in is challenged', async () => {
    const enrol = await toStep();
    let secret: string;
    try {
      ({ secret } = await enrolTotp(enrol.page));
      await expectSignedIn(enrol, userId);
    } finally {
      await enrol.context.close();
    }

    const challenge = await toStep();
    try {
      const { page } = challenge;
      expect(await page.locator('h1').textContent()).toBe('Two-step verification');
      await expectAccessibleMfa(page, 'challenge');
      // The enrolment's step is used: the next step's code (within the window) signs in.
      await verified(page, 'Code', codeAt(secret, Date.now() + 30_000));
      await expectSignedIn(challenge, userId);
    } finally {
      await challenge.context.close();
    }
  });
});

describe('e-mail code in Chromium', () => {
  it('enrols with a code read from the outbox; the next sign-in asks for one: a wrong code is refused, the mailed one signs in', async () => {
    const email = 'eli@example.com';
    const eliId = await createUser(email);
    const enrol = await toStep(email);
    try {
      const { page } = enrol;
      await choose(page, 'Get a code by email');
      expect(await page.locator('h1').textContent()).toBe('Set up two-step verification');
      const code = await sendCode(page, email, 1);
      await expectAccessibleMfa(page, 'email-enrol');
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await continuePastCodes(page);
      await expectSignedIn(enrol, eliId);
    } finally {
      await enrol.context.close();
    }

    const challenge = await toStep(email);
    try {
      const { page } = challenge;
      expect(await page.locator('h1').textContent()).toBe('Two-step verification');
      expect(await page.locator('.subtitle').textContent()).toContain(email);
      await expectAccessibleMfa(page, 'email-challenge');
      const code = await sendCode(page, email, 2);
      await expectRefused(page, 'Code', code === '000000' ? '111111' : '000000', 'email-wrong-code');
      // The refusal used nothing up: the mailed code still signs in, and no other mail was sent.
      await verified(page, 'Code', code);
      await expectSignedIn(challenge, eliId);
      expect(await mailedCode(app.http, email, 2)).toBe(code);
    } finally {
      await challenge.context.close();
    }
  });
});

describe('recovery codes in Chromium', () => {
  it('a code kept from the enrolment page signs in once: the same code again is refused', async () => {
    const email = 'rory@example.com';
    const roryId = await createUser(email);
    const enrol = await toStep(email);
    let codes: string[];
    try {
      ({ codes } = await enrolTotp(enrol.page));
    } finally {
      await enrol.context.close();
    }
    const code = codes[3]!;

    const first = await toStep(email);
    try {
      await choose(first.page, 'Use a recovery code');
      await expectAccessibleMfa(first.page, 'recovery-challenge');
      await verified(first.page, 'Recovery code', code);
      await expectSignedIn(first, roryId);
    } finally {
      await first.context.close();
    }

    const again = await toStep(email);
    try {
      await choose(again.page, 'Use a recovery code');
      await expectRefused(again.page, 'Recovery code', code, 'recovery-code-used');
      expect(again.violations).toEqual([]);
    } finally {
      await again.context.close();
    }
  });
});
