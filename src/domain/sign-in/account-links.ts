import { createHash, randomBytes } from 'node:crypto';
import { executeOwned } from '../../db/owned-sql.ts';
import { newSignInMail, passwordResetMail, verifyEmailMail, type MailContext, type Recipient } from '../email/flow-mail.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { issueLink, type LinkPurpose, type LinkUser } from '../users/link-tokens.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { RefusalTiming } from './refusal-timing.ts';
import type { SignInTarget } from './sign-in.ts';

/**
 * The links e-mails carry, asked for on the hosted pages (forgot password, a new verification link, sign-up) and
 * opened from the mail: `/account/reset-password` and `/account/verify-email`, under the surface of the user's pool
 * (the service's URL, or an isolated tenant's `/t/{tenant}`). Nothing here tells whether an e-mail has an account.
 */

/**
 * A request for a mail that writes one for a known address and nothing for an unknown one: the unknown answer waits
 * about as long as writing one takes here (refusal-timing.ts), so that the time does not tell either.
 */
const askTiming = new RefusalTiming();

const MAX_EMAIL_LENGTH = 320;

/** The user of the target's pool with that e-mail, if any (and if the address could be one). */
export async function userByEmail(target: SignInTarget, email: unknown): Promise<SignInUser | null> {
  const login = typeof email === 'string' ? email.trim() : '';
  if (login === '' || login.length > MAX_EMAIL_LENGTH || login.includes('\0')) return null;
  return readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized: normalizeEmail(login) });
}

const linkUserOf = (target: SignInTarget, user: { id: string }): LinkUser => ({
  applicationId: target.application.id,
  userId: user.id,
  poolId: target.poolId,
  clientId: target.clientId,
});

/** Where a sign-in's mail is queued: its tenant's templates, branding and provider. */
export const mailAt = (target: SignInTarget, em: MailContext['em']): MailContext => ({ em, sender: target.scope, tenantId: target.tenant?.id ?? null });

/** Queues a verification link for `user` in the caller's transaction (a sign-up's, or a request for a new link). */
export async function queueVerification(target: SignInTarget, em: MailContext['em'], user: Recipient & { id: string }): Promise<void> {
  const link = await issueLink(em, linkUserOf(target, user), 'verify_email', target.scope.services.config.publicUrl);
  await verifyEmailMail(mailAt(target, em), user, link);
}

/**
 * A mail of `purpose` to the owner of `email` in the target's pool, when there is one who may have it: a reset link
 * for a user who is not suspended; a new verification link for one not yet verified. Answers alike either way.
 */
export async function askLink(target: SignInTarget, email: unknown, purpose: LinkPurpose): Promise<void> {
  const user = await userByEmail(target, email);
  const wanted = user !== null && user.status !== 'suspended' && (purpose === 'password_reset' || user.emailVerified === false);
  if (!wanted) return askTiming.pad();
  await askTiming.measure(() =>
    target.applicationScope.transactional(async (em) => {
      if (purpose === 'verify_email') return queueVerification(target, em, user);
      const link = await issueLink(em, linkUserOf(target, user), 'password_reset', target.scope.services.config.publicUrl);
      await passwordResetMail(mailAt(target, em), user, link);
    }),
  );
  target.scope.services.outbox.wake();
}

/** A browser's id as its cookie carries it (32 random bytes, base64url). */
const BROWSER_ID = /^[\w-]{43}$/;

/** What a sign-in tells of where it came from, for the `new_sign_in` mail. */
export interface SignInOrigin {
  readonly browserId: string | undefined;
  readonly ip: string;
  readonly userAgent: string | undefined;
}

/**
 * A password sign-in of `user` from a browser: with the session policy's `notifyNewBrowser` on, the browser is
 * remembered for the user (its id's SHA-256), and one the user never signed in from, when they have signed in from
 * another before, mails them `new_sign_in` with a password reset link ("secure my account"). Returns the browser id
 * to set in its cookie when the browser had none; undefined with the setting off (nothing is remembered then).
 */
export async function noticeBrowser(target: SignInTarget, user: Recipient & { id: string }, origin: SignInOrigin): Promise<string | undefined> {
  if (!target.session.notifyNewBrowser) return undefined;
  const known = origin.browserId !== undefined && BROWSER_ID.test(origin.browserId);
  const browserId = known ? origin.browserId : randomBytes(32).toString('base64url');
  const hash = createHash('sha256').update(browserId).digest('base64url');
  const queued = await target.applicationScope.transactional(async (em) => {
    const [row] = await executeOwned<{ inserted: boolean; others: number }[]>(
      em,
      target.application.id,
      `with added as (
         insert into known_browser (application_id, user_id, browser_hash) values (?, ?, ?) on conflict do nothing returning 1)
       select exists (select 1 from added) as inserted,
              (select count(*)::int from known_browser where @owner and user_id = ? and browser_hash <> ?) as others`,
      [target.application.id, user.id, hash, user.id, hash],
    );
    if (row?.inserted !== true || row.others === 0) return false;
    const reset = await issueLink(em, linkUserOf(target, user), 'password_reset', target.scope.services.config.publicUrl);
    const device = (origin.userAgent ?? 'an unknown browser').slice(0, 200);
    await newSignInMail(mailAt(target, em), user, {
      link: reset.link,
      signIn: { time: new Date(), device, location: 'an unknown location', ip: origin.ip },
    });
    return true;
  });
  if (queued) target.scope.services.outbox.wake();
  return known ? undefined : browserId;
}
