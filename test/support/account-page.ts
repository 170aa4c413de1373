import { expect } from 'vitest';
import { CookieJar, readForm, type Visit } from './cookie-jar.ts';
import { PASSWORD } from './users.ts';

/** The hosted account page (`/account?client_id=…`) as a browser drives it. */

export const accountPageUrl = (base: string, clientId: string, query: Record<string, string> = {}) =>
  `${base}/account?${new URLSearchParams({ client_id: clientId, ...query })}`;

/** Follows the 302/303 answers of `visit` within `base`, up to a page or a redirect out of it (the client). */
export async function settleWithin(jar: CookieJar, visit: Visit, base: string): Promise<Visit> {
  for (let hops = 0; hops < 10 && (visit.status === 302 || visit.status === 303) && visit.location!.startsWith(`${base}/`); hops += 1) {
    visit = await jar.visit(visit.location!);
  }
  return visit;
}

/** The account page at `url` opened signed out: the sign-in it starts, signed in with `password`, back on the page. */
export async function openAccountPage(url: string, email: string, password = PASSWORD, jar = new CookieJar()): Promise<{ jar: CookieJar; page: Visit }> {
  const base = new URL(url).origin;
  const start = await jar.visit(url);
  expect(start.status).toBe(303);
  expect(start.location).toContain('response_mode=gatehouse_account');
  const signInPage = await settleWithin(jar, start, base);
  expect(signInPage.status, signInPage.body).toBe(200);
  const page = await settleWithin(jar, await jar.submit(signInPage, { email, password }), base);
  expect(page.url.startsWith(url.split('?')[0]!), page.url).toBe(true);
  return { jar, page };
}

/** The page's form posting to `/account/{path}`. */
export function accountFormOf(page: Visit, path: string) {
  const forms = [...page.body.matchAll(/<form\b[^>]*method="post"[\s\S]*?<\/form>/g)].map(([html]) => readForm(page.url, html));
  const form = forms.find((candidate) => new URL(candidate.action).pathname.endsWith(`/account/${path}`));
  expect(form, page.body).toBeDefined();
  return form!;
}

export const postAccountForm = (jar: CookieJar, page: Visit, path: string, values: Record<string, string>, headers: Record<string, string> = {}) => {
  const form = accountFormOf(page, path);
  return jar.visit(form.action, { form: { ...form.fields, ...values }, headers });
};

/** The account page's "Email address" form: a link to `address`, proven by `password`. */
export const askEmailChange = (jar: CookieJar, page: Visit, address: string, password = PASSWORD) =>
  postAccountForm(jar, page, 'email', { email_password: password, new_email: address });
