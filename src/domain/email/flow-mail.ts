import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobLog } from '../../background-work.ts';
import type { EmailDelivery } from '../../db/entities/index.ts';
import { GatehouseError } from '../../errors.ts';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import { enqueueMail, mailLimitLock, secondsUntilQueueable, type MailSender, type tenantVariable } from './outbox.ts';
import type { FactorKind } from '../mfa/factors.ts';
import { mailWords, type TemplateKey } from './template-defaults.ts';
import type { MailWords } from './template-copy/mail-copy.ts';
import { fillCopy } from '../branding/copy/index.ts';
import { summarizeUserAgent } from '../sign-in/device.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../locales.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { holdsApplicationWideRole } from '../authorization/held-roles.ts';

/** One function per template, taking exactly its variables, queued in the caller's transaction; the caller wakes the
 *  outbox worker once it has committed (`services.outbox.wake()`). */

export interface MailContext {
  readonly em: EntityManager;
  readonly sender: MailSender;
  readonly tenantId: string | null;
  readonly pageLocale?: Locale;
}

/** A null name reads "there". */
export interface Recipient {
  /** The account's, when the mail is to one: its suspension, deletion or change of address withdraws the mail while
   *  queued. Null only for an address of no account (or one gone, or a mail withdrawn by its invitation instead). */
  readonly id: string | null;
  readonly email: string;
  readonly name?: string | null | undefined;
  /** Null (or a language no longer offered): the page's it was asked on, else English. */
  readonly locale?: string | null | undefined;
  /** The account's tenants; null for an address of no account. */
  readonly tenantIds: readonly string[] | null;
}

const languageOf = (at: MailContext, to: Recipient): Locale => (isLocale(to.locale) ? to.locale : (at.pageLocale ?? DEFAULT_LOCALE));

/** Mails anyone may ask for by typing an address on a page: at most MAILS_PER_ADDRESS_PER_HOUR to one address, so a page
 *  cannot flood someone's inbox (AskedForMail). */
const ASKED_FOR: readonly TemplateKey[] = ['verify_email', 'welcome', 'magic_link', 'password_reset', 'email_otp', 'email_change'];

/** Such mails to `address` are counted under it: a transaction that may queue one begins in its turn (Scope.transactional's
 *  `lock`), so a burst to one address waits in the process, holding no connection. */
export const askedForLock = (applicationId: string, address: string): string => mailLimitLock(applicationId, ASKED_FOR, address);

/**
 * Leave to queue one mail anyone may ask for, to one address, in one transaction: the only way to call their functions
 * below, so the limit is counted once. A flow takes it before it writes the link or code it mails: writing one ends
 * the address's earlier ones, and a request past the limit must cancel nothing, as it sends nothing.
 */
export class AskedForMail {
  readonly #at: MailContext;
  readonly #address: string;
  #used = false;

  private constructor(at: MailContext, address: string) {
    this.#at = at;
    this.#address = address;
  }

  /** Null past MAILS_PER_ADDRESS_PER_HOUR: the flow writes nothing and answers as ever. */
  static async admit(at: MailContext, address: string): Promise<AskedForMail | null> {
    await lockForTransaction(at.em, askedForLock(at.sender.applicationId, address));
    const perHour = at.sender.services.config.mailsPerAddressPerHour;
    return (await secondsUntilQueueable(at.em, at.sender.applicationId, ASKED_FOR, perHour, address)) === 0 ? new AskedForMail(at, address) : null;
  }

  /** Its context, once, for the address it was counted under. */
  use(to: string): MailContext {
    if (this.#used || normalizeEmail(to) !== normalizeEmail(this.#address)) throw new Error('an asked-for mail queued without its own admission');
    this.#used = true;
    return this.#at;
  }
}

/** `linkMinutes`: what the mail is for, its link or code, stops working then, and the outbox withdraws it still queued
 *  after (deliver.ts); counted from now, a moment after the link's row. Notices pass none: their news outlives their link. */
async function queue(
  at: MailContext,
  templateKey: TemplateKey,
  to: Recipient,
  address: string,
  locale: Locale,
  variables: Record<string, unknown>,
  linkMinutes?: number,
): Promise<EmailDelivery> {
  const delivery = await enqueueMail(at.em, at.sender, { templateKey, to: address, tenantId: at.tenantId, locale, variables });
  delivery.userId = to.id;
  delivery.linkExpiresAt = linkMinutes === undefined ? null : new Date(Date.now() + linkMinutes * 60_000);
  return delivery;
}

/** The tenant a mail to `to` goes out in (a link it carries remembers it). A tenant's outbox carries its own accounts'
 *  mails only: a user of several tenants, or holding a role application-wide, is mailed as the application, or that
 *  tenant's administrators (who read its outbox and write its templates) would take, with its links, what the user
 *  holds elsewhere. */
export async function tenantOf(at: MailContext, to: Pick<Recipient, 'id' | 'tenantIds'>): Promise<string | null> {
  if (at.tenantId === null || to.tenantIds === null) return at.tenantId;
  if (to.tenantIds.length !== 1 || to.tenantIds[0] !== at.tenantId) return null;
  // No id to ask about (an invitation's mail): the application's, as for anything the tenant may not own.
  return to.id === null || (await holdsApplicationWideRole(at.em, at.sender.applicationId, to.id)) ? null : at.tenantId;
}

const send = async (at: MailContext, templateKey: TemplateKey, to: Recipient, variables: Record<string, unknown>, linkMinutes?: number) =>
  queue({ ...at, tenantId: await tenantOf(at, to) }, templateKey, to, to.email, languageOf(at, to), { user: { name: to.name ?? null, email: to.email }, ...variables }, linkMinutes);

const sendAskedFor = (admitted: AskedForMail, templateKey: TemplateKey, to: Recipient, variables: Record<string, unknown>, linkMinutes?: number) =>
  send(admitted.use(to.email), templateKey, to, variables, linkMinutes);

/** UTC, to the second. */
const shown = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

export const verifyEmailMail = (admitted: AskedForMail, user: Recipient, v: { link: string; expiresInMinutes: number }) =>
  sendAskedFor(admitted, 'verify_email', user, v, v.expiresInMinutes);

/** `existingAccount`: the notice to an account's owner that someone tried to sign up with its address. */
export const welcomeMail = (admitted: AskedForMail, user: Recipient, v: { link: string; existingAccount?: boolean }) =>
  sendAskedFor(admitted, 'welcome', user, { link: v.link, existingAccount: v.existingAccount === true });

export const magicLinkMail = (admitted: AskedForMail, user: Recipient, v: { link: string; expiresInMinutes: number }) =>
  sendAskedFor(admitted, 'magic_link', user, v, v.expiresInMinutes);

export const passwordResetMail = (admitted: AskedForMail, user: Recipient, v: { link: string; expiresInMinutes: number }) =>
  sendAskedFor(admitted, 'password_reset', user, v, v.expiresInMinutes);

/** `link`: where to reset the password again, if the change was not the user's; null for an administrator's change,
 *  no one's to take back by a link (the sign-in page's reset remains). */
export const passwordChangedMail = (at: MailContext, user: Recipient, v: { link: string | null; changedAt: Date }) =>
  send(at, 'password_changed', user, { link: v.link, changedAt: shown(v.changedAt) });

/** `addsPasskey`: the code an invitation's page asks before it adds a passkey to the account (invitations/proof.ts). */
export const emailOtpMail = (admitted: AskedForMail, user: Recipient, v: { code: string; expiresInMinutes: number; addsPasskey?: boolean }) =>
  sendAskedFor(admitted, 'email_otp', user, { code: v.code, expiresInMinutes: v.expiresInMinutes, addsPasskey: v.addsPasskey === true }, v.expiresInMinutes);

export const mfaEnrolledMail = (at: MailContext, user: Recipient, v: { link: string; factor: FactorKind }) =>
  send(at, 'mfa_enrolled', user, { link: v.link, factor: mailWords(languageOf(at, user)).factors[v.factor], clonedPasskey: null });

/** `tenant`: the inviting tenant's name, which the mail says even when it goes out as the application's (tenantOf). */
export const invitationMail = (
  at: MailContext,
  invitee: Recipient,
  v: { link: string; inviter: { name: string | null; email: string | null }; expiresInDays: number; tenant: ReturnType<typeof tenantVariable> },
) => send(at, 'invitation', invitee, v);

/** The device as "Chrome on Windows", never the header's text, which whoever signed in wrote. */
function deviceWords(words: MailWords, userAgent: string | undefined): string {
  const { browser, system } = summarizeUserAgent(userAgent);
  if (browser === null && system === null) return words.unknownDevice;
  return fillCopy(words.device, { browser: browser ?? words.someBrowser, system: system ?? words.someSystem });
}

/** `userAgent`: the browser's, if it sent one. No address is located: the place is said to be unknown. */
export const newSignInMail = (at: MailContext, user: Recipient, v: { link: string; signIn: { time: Date; userAgent: string | undefined; ip: string } }) => {
  const words = mailWords(languageOf(at, user));
  const signIn = { time: shown(v.signIn.time), device: deviceWords(words, v.signIn.userAgent), location: words.unknownLocation, ip: v.signIn.ip };
  return send(at, 'new_sign_in', user, { link: v.link, signIn });
};

/** Its link is a reset link: the reset lifts the lock (resetPassword), as the mail says. */
export const accountLockedMail = (at: MailContext, user: Recipient, v: { link: string }) => send(at, 'account_locked', user, v);

/** `mfa_enrolled`'s other text: the spec's twelve templates have no key of its own for it. */
export const passkeyClonedMail = (at: MailContext, user: Recipient, v: { link: string; passkey: { name: string } }) =>
  send(at, 'mfa_enrolled', user, { link: v.link, factor: mailWords(languageOf(at, user)).factors.webauthn, clonedPasskey: v.passkey });

/** To the new address, whose owner proves it by the link; `user` still has its current e-mail. */
export const emailChangeMail = async (admitted: AskedForMail, user: Recipient, v: { link: string; newEmail: string; expiresInMinutes: number }) => {
  const at = admitted.use(v.newEmail);
  const variables = { user: { name: user.name ?? null, email: user.email }, ...v, addressChanged: false };
  return queue({ ...at, tenantId: await tenantOf(at, user) }, 'email_change', user, v.newEmail, languageOf(at, user), variables, v.expiresInMinutes);
};

/** `email_change`'s other text (`addressChanged`; the spec's twelve templates have no key of its own for it): to the
 *  address the account left, `formerly` (its e-mail is that one). `restore`: the link that gives it back, else none. */
export const emailChangedMail = (at: MailContext, formerly: Recipient, v: { newEmail: string; restore: { link: string; expiresInMinutes: number } | null }) =>
  send(at, 'email_change', formerly, { addressChanged: true, newEmail: v.newEmail, link: v.restore?.link ?? null, expiresInMinutes: v.restore?.expiresInMinutes ?? null });

export const accountDeletedMail = (at: MailContext, user: Recipient) => send(at, 'account_deleted', user, {});

/** A change already made (an erasure) must not depend on its notice: one that cannot render for its account never
 *  will, so it is dropped with an `error` line; anything else (the database) fails the caller. */
export async function noticeOrDrop(log: JobLog, facts: { readonly applicationId: string; readonly templateKey: string; readonly [fact: string]: unknown }, notice: () => Promise<unknown>): Promise<void> {
  try {
    await notice();
  } catch (error) {
    if (!(error instanceof GatehouseError && error.code === 'validation_error')) throw error;
    log.error({ err: error, ...facts }, 'notice: cannot be rendered for its account, dropped');
  }
}

/** A template without a function fails to compile here; those of ASKED_FOR take an AskedForMail, the others a MailContext. */
export const FLOW_MAIL = {
  verify_email: verifyEmailMail,
  welcome: welcomeMail,
  magic_link: magicLinkMail,
  password_reset: passwordResetMail,
  password_changed: passwordChangedMail,
  email_otp: emailOtpMail,
  mfa_enrolled: mfaEnrolledMail,
  invitation: invitationMail,
  new_sign_in: newSignInMail,
  account_locked: accountLockedMail,
  email_change: emailChangeMail,
  account_deleted: accountDeletedMail,
} as const satisfies Record<TemplateKey, (on: never, to: Recipient, v: never) => Promise<EmailDelivery>>;

export const isAskedFor = (key: TemplateKey): boolean => ASKED_FOR.includes(key);
