import { expect } from 'vitest';
import type { HttpClient } from './http.ts';
import type { Visit } from './cookie-jar.ts';
import type { TemplateKey } from '../../src/domain/email/template-defaults.ts';
import { SHARED_POOL } from '../../src/db/entities/user.entity.ts';
import { issueLink, type LinkPurpose } from '../../src/domain/users/link-tokens.ts';
import type { TestApp } from './app.ts';

/** The hosted-page tests' mails: the outbox's, and the links and codes they carry. */

export interface Mail {
  id: string;
  text: string;
  html: string;
  subject: string;
}

/** The mails of `templateKey` to `to` in the outbox of `http`'s scope, oldest first, with their rendered parts. */
export async function mails(http: HttpClient, to: string, templateKey: TemplateKey): Promise<Mail[]> {
  const list = await http.get(`/email/deliveries?to=${encodeURIComponent(to)}&templateKey=${templateKey}`);
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return Promise.all((list.body.data as { id: string }[]).map(async ({ id }) => (await http.get(`/email/deliveries/${id}`)).body as Mail));
}

/** The link of the only mail of `templateKey` to `to`: a page of the account's (`/account/…?token=`). */
export async function accountLinkOf(http: HttpClient, to: string, templateKey: TemplateKey): Promise<string> {
  const [mail, ...more] = await mails(http, to, templateKey);
  expect(more).toEqual([]);
  const link = /(http\S+\/account\/[a-z-]+\?token=\S+)/.exec(mail!.text)?.[1];
  expect(link, mail!.text).toBeDefined();
  expect(mail!.html).toContain(`href="${link!}"`);
  return link!;
}

/**
 * A link of a shared-pool user (of the root application unless `applicationId` says another), issued as the hosted forms
 * issue one (a reset link unless `purpose` says otherwise), not mailed.
 */
export async function issuedLink(
  app: TestApp,
  userId: string,
  clientId: string,
  base: string,
  { purpose = 'password_reset', applicationId = app.root.applicationId }: { purpose?: Exclude<LinkPurpose, 'email_change'>; applicationId?: string } = {},
): Promise<string> {
  const issued = await app.gatehouse.services.orm.em
    .fork()
    .transactional((em) => issueLink(em, { applicationId, userId, poolId: SHARED_POOL, opener: { type: 'oauth_client', id: clientId }, tenantId: null }, purpose, base));
  return issued.link;
}

/** The link of the newest `magic_link` mail to `to` (`count`: how many there must be). */
export async function magicLinkOf(http: HttpClient, to: string, count = 1): Promise<string> {
  const all = await mails(http, to, 'magic_link');
  expect(all).toHaveLength(count);
  const mail = newest(all);
  const link = /(http\S+\/interaction\/[\w-]+\/email-link\?token=\S+)/.exec(mail.text)?.[1];
  expect(link, mail.text).toBeDefined();
  expect(mail.html).toContain(`href="${link!}"`);
  return link!;
}

/** The code of the newest `email_otp` mail to `to`, as its text gives it (its subject gives the same). */
export async function mailedCode(http: HttpClient, to: string, count = 1): Promise<string> {
  const all = await mails(http, to, 'email_otp');
  expect(all).toHaveLength(count);
  const mail = newest(all);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code, mail.text).toBeDefined();
  expect(mail.subject).toContain(code!);
  return code!;
}

/** The latest of `all`, in whatever order they came (the outbox lists oldest first): the UUIDv7 ids sort by creation. */
const newest = (all: Mail[]): Mail => [...all].sort((a, b) => b.id.localeCompare(a.id))[0]!;

/** The code a confirmed link's page shows. */
export function shownCode(page: Visit): string {
  const code = /<span class="code">(\d{6})<\/span>/.exec(page.body)?.[1];
  expect(code, page.body).toBeDefined();
  return code!;
}

/** The page with what differs between two answers blanked out: interaction, token, nonce, e-mail. */
export const normalized = (visit: Visit, email: string) =>
  visit.body
    .replaceAll(/\/interaction\/[\w-]+/g, '/interaction/…')
    .replaceAll(/name="csrf" value="[^"]+"/g, 'name="csrf" value="…"')
    .replaceAll(/nonce="[^"]+"/g, 'nonce="…"')
    .replaceAll(email, '…');

export const headerNames = (visit: Visit) => [...visit.headers.keys()].filter((name) => !['date', 'x-request-id'].includes(name)).sort();

/** The form of the sign-in page that asks for a mail (the one with `formaction` buttons), by its button's address. */
export function emailFormAction(page: Visit, path: 'email-link' | 'email-code'): string {
  const action = new RegExp(`(?:action|formaction)="(/interaction/[\\w-]+/${path})"`).exec(page.body)?.[1];
  expect(action, page.body).toBeDefined();
  return new URL(action!, page.url).href;
}

/** The csrf value of the page's first form. */
export const csrfOf = (page: Visit): string => /name="csrf" value="([^"]+)"/.exec(page.body)![1]!;
