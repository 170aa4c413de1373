import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { customDomainsOf, idTokenAt, inSignInPage, scopesOf, startSignIn, startSurfaces, SURFACES, userOf, type BrowserSurface, type SurfaceName } from '../support/browser-surfaces.ts';
import { cspViolationsOf, expectAccessible, launchChromium, startClientCallback, type ClientCallback } from '../support/chromium.ts';
import { decodedMail, startMailSink, type MailSink } from '../support/mail-receivers.ts';

/**
 * A real browser signs in by magic link and by e-mail code, on the shared surface, a tenant's surface and its custom
 * domain: the hosted page's e-mail form, the mail as the built-in sender delivers it to an SMTP server (SMTP_URL), and
 * its link, opened in the same browser (signed in) and in another one (a confirmation, then a code typed in the
 * first), or its code typed in. Each page passes axe's WCAG A/AA rules and breaks no CSP.
 */
let clientSide: ClientCallback;
let mailSink: MailSink;
let app: TestApp;
let surfaces: Record<SurfaceName, BrowserSurface>;
let browser: Browser;

beforeAll(async () => {
  clientSide = await startClientCallback();
  mailSink = await startMailSink();
  app = await startTestApp({ email: mailSink.email }, { reachablePublicUrl: true });
  surfaces = await startSurfaces(app, clientSide.redirectUri);
  for (const scope of scopesOf(surfaces)) {
    // North's own set needs a password provider too; the application has its own already.
    const password = scope.scopePath === '' ? [] : [{ type: 'password' }];
    for (const body of [...password, { type: 'magic_link', config: { signInWith: 'link_and_code' } }]) {
      const created = await scope.admin.post(`${scope.scopePath}/auth-providers`, body);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  }
  browser = await launchChromium({ customDomains: customDomainsOf(app) });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await mailSink?.close();
  await clientSide?.close();
});

/** The one mail the sink received for `to` (polled: the outbox worker sends it after the commit). */
async function mailTo(to: string) {
  await expect.poll(() => mailSink.to(to).length, { timeout: 30_000, interval: 100 }).toBe(1);
  return mailSink.to(to)[0]!;
}

/** The sign-in link mailed to `to`: on the host of the page that asked for it. */
async function magicLinkSent(to: string, page: Page): Promise<string> {
  const mail = await mailTo(to);
  expect(mail.header('subject')).toMatch(/^Your sign-in link for /);
  const link = /(http\S+\/interaction\/[\w-]+\/email-link\?token=[\w.-]+)/.exec(decodedMail(mail.raw))?.[1];
  expect(link, mail.raw).toBeDefined();
  expect(new URL(link!).origin).toBe(new URL(page.url()).origin);
  return link!;
}


const atClient = (page: Page) => page.waitForURL(`${clientSide.redirectUri}**`);

describe.each(SURFACES)('by e-mail in Chromium on %s', (name) => {
  const surface = () => surfaces[name];
  const address = (who: string) => `${who}.${SURFACES.indexOf(name)}@example.com`;
  const issuer = () => surface().config.serverMetadata().issuer;

  /** The sign-in page's e-mail form sent: a link or a code is on its way. */
  const askByMail = async (page: Page, email: string, what: 'link' | 'code') => {
    await page.locator('#signin-email').fill(email);
    await page.getByRole('button', { name: `Email me a sign-in ${what}` }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');
  };

  it('e-mail → mail → the link in the same browser: signed in', async () => {
    const email = address('rae');
    const userId = await userOf(surface(), email);
    await inSignInPage(browser, surface(), clientSide.redirectUri, async (page, request) => {
      await expectAccessible(page, 'sign-in with the e-mail form');
      await askByMail(page, email, 'link');
      await expectAccessible(page, 'check your email');
      await Promise.all([atClient(page), page.goto(await magicLinkSent(email, page))]);
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: userId, iss: issuer() });
    });
  });

  it('the link in another browser: confirmed there, its code typed in the asking one', async () => {
    const email = address('sol');
    const userId = await userOf(surface(), email);
    const [asking, other] = [await browser.newContext(), await browser.newContext()];
    try {
      const page = await asking.newPage();
      const csp = cspViolationsOf(page);
      const request = await startSignIn(surface(), page, clientSide.redirectUri);
      await askByMail(page, email, 'link');

      const elsewhere = await other.newPage();
      const cspElsewhere = cspViolationsOf(elsewhere);
      await elsewhere.goto(await magicLinkSent(email, page));
      await expect.poll(() => elsewhere.locator('h1').textContent()).toBe('Was this you, on another device?');
      // Both contexts are the same Chromium: the asking one is named as it is.
      expect(await elsewhere.locator('dt:has-text("Device") + dd').textContent()).toMatch(/ on Linux$/);
      await expectAccessible(elsewhere, 'the link in another browser');
      await elsewhere.getByRole('button', { name: 'Yes, show the code' }).click();
      await expect.poll(() => elsewhere.locator('h1').textContent()).toBe('Your sign-in code');
      await expectAccessible(elsewhere, 'the code shown');
      const code = (await elsewhere.locator('.code').textContent())!.trim();
      expect(code).toMatch(/^\d{6}$/);

      // A wrong code first: the page again, its error announced and tied to the field.
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Check your email');
      expect(await page.locator('#form-error').textContent()).toContain('The code is incorrect');
      await expectAccessible(page, 'a wrong code');
      await page.getByLabel('Code').fill(code);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Continue' }).click()]);
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: userId, iss: issuer() });
      expect([...csp, ...cspElsewhere]).toEqual([]);
    } finally {
      await asking.close();
      await other.close();
    }
  });

  it('the e-mail code: asked for on the page, typed from the mail', async () => {
    const email = address('ty');
    const userId = await userOf(surface(), email);
    await inSignInPage(browser, surface(), clientSide.redirectUri, async (page, request) => {
      await askByMail(page, email, 'code');
      expect(await page.textContent('body')).toContain('we sent it a sign-in code');
      await expectAccessible(page, 'the code asked for');
      const code = /\b(\d{6})\b/.exec((await mailTo(email)).header('subject') ?? '')?.[1];
      expect(code).toBeDefined();
      await page.getByLabel('Code').fill(code!);
      await Promise.all([atClient(page), page.getByRole('button', { name: 'Continue' }).click()]);
      expect(await idTokenAt(surface(), page, request)).toMatchObject({ sub: userId, iss: issuer() });
    });
  });
});
