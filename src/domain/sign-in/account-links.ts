import { createHash, randomBytes } from 'node:crypto';
import { executeOwned } from '../../db/owned-sql.ts';
import { askedForLock, AskedForMail, newSignInMail, passwordResetMail, tenantOf, verifyEmailMail, type MailContext, type Recipient } from '../email/flow-mail.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { holdUnsuspendedUser, issueLink, type LinkPurpose, type LinkUser } from '../users/link-tokens.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { RefusalTiming } from './refusal-timing.ts';
import type { PageTarget, SignInTarget } from './sign-in.ts';

/** The links e-mails carry, under the user's pool's surface; nothing here tells whether an e-mail has an account. */

/** An unknown address waits about as long as writing a mail takes (refusal-timing.ts), so time tells nothing either. */
const askTiming = new RefusalTiming();

const MAX_EMAIL_LENGTH = 320;

export async function userByEmail(target: SignInTarget, email: unknown): Promise<SignInUser | null> {
  const login = typeof email === 'string' ? email.trim() : '';
  if (login === '' || login.length > MAX_EMAIL_LENGTH || login.includes('\0')) return null;
  return readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized: normalizeEmail(login) });
}

/** The link a mail `at` carries to `user`: it remembers the tenant that mail goes out in. */
export const linkUserOf = async (target: PageTarget, at: MailContext, user: Recipient & { id: string }): Promise<LinkUser> => ({
  applicationId: target.application.id,
  userId: user.id,
  poolId: target.poolId,
  opener: target.opener,
  tenantId: await tenantOf(at, user),
});

/** The page's tenant for its members and new addresses, else the application's, or that tenant's outbox would hold links
 *  of another tenant's users (flow-mail.ts narrows it further). */
export const mailTenant = (target: PageTarget, user: Member | null): string | null =>
  target.tenant !== null && (user === null || user.tenantIds.includes(target.tenant.id)) ? target.tenant.id : null;

/** A user's tenants; null: an address of no account yet. */
interface Member {
  readonly tenantIds: readonly string[];
}

/** A mail asked from the page: to a recipient whose language is not known yet (null, or no account), in the page's. */
export const mailAt = (target: PageTarget, em: MailContext['em'], user: Member | null): MailContext => ({
  em,
  sender: target.scope,
  tenantId: mailTenant(target, user),
  pageLocale: target.look.locale,
});

export async function queueVerification(target: SignInTarget, em: MailContext['em'], user: Recipient & Member & { id: string }): Promise<void> {
  const at = mailAt(target, em, user);
  const admitted = await AskedForMail.admit(at, user.email);
  if (admitted === null) return;
  const link = await issueLink(em, await linkUserOf(target, at, user), 'verify_email', target.scope.services.config.publicUrl);
  await verifyEmailMail(admitted, user, link);
}

/** A reset link only for a user not suspended, a verification link only for one not yet verified; answers alike either way. */
export async function askLink(target: SignInTarget, email: unknown, purpose: LinkPurpose): Promise<void> {
  const user = await userByEmail(target, email);
  const wanted = user !== null && user.status !== 'suspended' && (purpose === 'password_reset' || user.emailVerified === false);
  if (!wanted) return askTiming.pad();
  await askTiming.measure(() => queueUnsuspended(target, user, purpose === 'verify_email' ? queueVerification : queueReset));
  target.scope.services.outbox.wake();
}

/** `queue` in its turn at the address, under the user's row and only while they are not suspended (holdUnsuspendedUser):
 *  the page read them before. */
const queueUnsuspended = <T extends PageTarget>(target: T, user: SignInUser, queue: (target: T, em: MailContext['em'], user: SignInUser) => Promise<void>) =>
  target.applicationScope.transactional(async (em) => {
    if (await holdUnsuspendedUser(em, target.application.id, user.id)) await queue(target, em, user);
  }, askedForLock(target.application.id, user.email));

async function queueReset(target: PageTarget, em: MailContext['em'], user: SignInUser): Promise<void> {
  const at = mailAt(target, em, user);
  const admitted = await AskedForMail.admit(at, user.email);
  if (admitted === null) return;
  const link = await issueLink(em, await linkUserOf(target, at, user), 'password_reset', target.scope.services.config.publicUrl);
  await passwordResetMail(admitted, user, link);
}

/** A reset link for an account the page knows (an invitation's: its link told the address has one), so nothing to hide. */
export async function mailPasswordReset(target: PageTarget, user: SignInUser): Promise<void> {
  await queueUnsuspended(target, user, queueReset);
  target.scope.services.outbox.wake();
}

/** 32 random bytes, base64url. */
const BROWSER_ID = /^[\w-]{43}$/;

export interface SignInOrigin {
  readonly browserId: string | undefined;
  /** The id a browser got under the cookie's former name, which another host could plant: it never becomes known, but
   *  one known already keeps the browser's new id from being news. */
  readonly formerBrowserId?: string | undefined;
  readonly ip: string;
  readonly userAgent: string | undefined;
}

const browserHash = (browserId: string) => createHash('sha256').update(browserId).digest('base64url');

/** For the session policy's `notifyNewBrowser`: remembers the browser (its id's SHA-256) and mails `new_sign_in` when it is
 *  new to a user who signed in elsewhere before. Returns the cookie's id when the browser had none. */
export async function noticeBrowser(target: SignInTarget, user: Recipient & Member & { id: string }, origin: SignInOrigin): Promise<string | undefined> {
  const known = origin.browserId !== undefined && BROWSER_ID.test(origin.browserId);
  const browserId = known ? origin.browserId : randomBytes(32).toString('base64url');
  const hash = browserHash(browserId);
  const former = !known && origin.formerBrowserId !== undefined && BROWSER_ID.test(origin.formerBrowserId) ? browserHash(origin.formerBrowserId) : null;
  const queued = await target.applicationScope.transactional(async (em) => {
    const [row] = await executeOwned<{ inserted: boolean; others: number; formerKnown: boolean }[]>(
      em,
      target.application.id,
      `with added as (
         insert into known_browser (application_id, user_id, browser_hash) values (?, ?, ?) on conflict do nothing returning 1)
       select exists (select 1 from added) as inserted,
              (select count(*)::int from known_browser where @owner and user_id = ? and browser_hash <> ?) as others,
              exists (select 1 from known_browser where @owner and user_id = ? and browser_hash = ?) as "formerKnown"`,
      [target.application.id, user.id, hash, user.id, hash, user.id, former],
    );
    if (row?.inserted !== true || row.others === 0 || row.formerKnown) return false;
    const at = mailAt(target, em, user);
    const reset = await issueLink(em, await linkUserOf(target, at, user), 'password_reset', target.scope.services.config.publicUrl);
    await newSignInMail(at, user, {
      link: reset.link,
      signIn: { time: new Date(), userAgent: origin.userAgent, ip: origin.ip },
    });
    return true;
  });
  if (queued) target.scope.services.outbox.wake();
  return known ? undefined : browserId;
}
