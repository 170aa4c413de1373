import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword, verifyPassword } from '../../auth/password-hash.ts';
import { endUserScope, type Scope } from '../../context.ts';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import { askedForLock, AskedForMail, emailChangeMail, passwordChangedMail } from '../email/flow-mail.ts';
import { withdrawQueuedMail } from '../email/outbox.ts';
import type { CopyText } from '../branding/copy/index.ts';
import { typedEmail, typedName } from '../typed-fields.ts';
import { MAX_PASSWORD_INPUT, passwordRefusals } from '../policies/password.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { recordAudit } from '../audit/audit.ts';
import { auditFilingOf, endWhatPasswordOpened } from './users.ts';
import { countsAcrossTenants } from '../sessions/end-sessions.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { endSignInsElsewhere } from '../sessions/own-sessions.ts';
import { userCutoffs } from '../sessions/policy-cutoffs.ts';
import { linkUserOf } from '../sign-in/account-links.ts';
import { RefusalTiming } from '../sign-in/refusal-timing.ts';
import type { SignInMethod, SignInTarget } from '../sign-in/sign-in.ts';
import { normalizeEmail } from './email-key.ts';
import { addressHeld, holdActingUser, issueEmailChangeLink, issueLink } from './link-tokens.ts';
import { mayActNowSql, passwordMark, type SignInUser } from './sign-in-user.ts';
import { keepReplacedPassword, passwordViolations } from './password-history.ts';
import { forgetUserKeys, usersChanged } from './changed.ts';

/** Audited with the user as the actor, filed as auditFilingOf files it; mails go out in the surface's tenant. */

export function ownScope(target: SignInTarget, userId: string): Scope {
  const { services, requestId } = target.scope;
  return endUserScope(services, requestId, { opener: target.opener, applicationId: target.application.id, tenantId: target.tenant?.id ?? null, actor: { type: 'user', id: userId } });
}

/** A user without one proves nothing by it; one too long to be a password is wrong without an Argon2 verification. */
async function currentPasswordProven(em: EntityManager, applicationId: string, userId: string, typed: string | null | undefined): Promise<boolean> {
  const current = typed ?? '';
  const [row] = await executeOwned<{ password_hash: string | null }[]>(em, applicationId, 'select password_hash from app_user where @owner and id = ?', [userId]);
  const hash = row?.password_hash ?? null;
  return hash !== null && current !== '' && current.length <= MAX_PASSWORD_INPUT && (await verifyPassword(hash, current));
}

/** How long a sign-in, or the account page's mailed code, stands in for the password of a user who has none. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

/** Sign-in methods (as the OP session keeps them) that a sign-in proves afresh wherever it is made: what was checked
 *  here. An upstream or SAML IdP may have answered from its own session, however old ("Fresh sign-ins"). */
const FRESH_METHODS: ReadonlySet<SignInMethod> = new Set(['password', 'magic_link', 'passkey', 'totp', 'email_otp', 'webauthn', 'recovery_code']);

/** `signedInAt`, `methods`: the browser session's sign-in (epoch seconds); `confirmedAt`: the page's mailed code typed
 *  in this session (confirmOwnCode). */
export interface OwnProof {
  readonly password: string | null | undefined;
  readonly signedInAt: number | undefined;
  readonly methods: readonly string[];
  readonly confirmedAt: number | undefined;
}

/** Whether a user without a password must type the mailed code first: their sign-in proved nothing here. */
export const confirmationDue = (user: SignInUser, proof: Pick<OwnProof, 'methods' | 'confirmedAt'>): boolean =>
  user.passwordHash == null && !isRecent(proof.confirmedAt) && !proof.methods.some((method) => FRESH_METHODS.has(method as SignInMethod));

const isRecent = (at: number | undefined) => at !== undefined && Date.now() / 1000 - at <= RECENT_SIGN_IN_SECONDS;

/** Null when proven by the current password, or for a user without one by a recent sign-in that proved a factor here,
 *  else by the code mailed to their address: a session alone, left open or stolen, must not give itself what outlives it. */
export async function ownProofRefusal(target: SignInTarget, user: SignInUser, proof: OwnProof): Promise<OwnChange | null> {
  if (user.passwordHash == null) {
    if (isRecent(proof.confirmedAt)) return null;
    if (confirmationDue(user, proof)) return ownRefusal({ key: 'account.confirmFirst' });
    return isRecent(proof.signedInAt) ? null : { ok: false, reason: 'sign_in_again' };
  }
  const proven = await currentPasswordProven(target.applicationScope.em, target.application.id, user.id, proof.password);
  return proven ? null : { ok: false, reason: 'wrong_current' };
}

/** `shown`: secrets the page shows this once. Refusals carry what the page says. */
export type OwnChange =
  | { readonly ok: true; readonly shown?: readonly string[] }
  | { readonly ok: false; readonly reason: 'invalid'; readonly errors: readonly CopyText[] }
  | { readonly ok: false; readonly reason: 'wrong_current' }
  | { readonly ok: false; readonly reason: 'sign_in_again' }
  | { readonly ok: false; readonly reason: 'inactive' };

export const ownRefusal = (...errors: readonly CopyText[]): OwnChange => ({ ok: false, reason: 'invalid', errors });

/** Blank: none. */
export async function changeOwnName(target: SignInTarget, userId: string, typed: string | null | undefined): Promise<OwnChange> {
  const read = typedName(typed ?? '');
  if ('refusal' in read) return ownRefusal(read.refusal);
  const { name } = read;
  const scope = ownScope(target, userId);
  const saved = await scope.transactional(async (em) => {
    // Judged on the row as the update finds it: a user suspended since the page's read changes nothing.
    const [row] = await executeOwned<{ before: string | null; pool_id: string; tenant_ids: string[] }[]>(
      em,
      scope.applicationId,
      `update app_user as u set name = ?, updated_at = now() from app_user as old
        where @owner(u) and u.id = ? and ${mayActNowSql('u')} and old.application_id = u.application_id and old.id = u.id returning old.name as before, u.pool_id, u.tenant_ids`,
      [name, userId],
    );
    if (row === undefined) return false;
    if (row.before !== name) {
      const filing = auditFilingOf({ poolId: row.pool_id, tenantIds: row.tenant_ids }, scope);
      recordAudit(em, scope, { action: 'user.name.changed', targetType: 'user', targetId: userId, ...filing, before: { name: row.before }, after: { name } });
      usersChanged(em, scope.applicationId);
    }
    return true;
  });
  return saved ? { ok: true } : { ok: false, reason: 'inactive' };
}

/** `account`: the account page's (a first password for a user without one), proven as ownProofRefusal says; `expired`:
 *  the change an expired password forces at sign-in, just proven by it. */
export type OwnPasswordChange = {
  readonly password: string | null | undefined;
  /** The OP browser session that stays signed in; null: every sign-in of the user ends. */
  readonly keepSessionUid: string | null;
} & ({ readonly reason: 'account'; readonly proof: OwnProof } | { readonly reason: 'expired' });

/** Every other sign-in ends (as Auth0 and Zitadel do) and a `password_changed` mail carries a reset link, the owner's way
 *  back. Refusals change nothing. */
export async function changeOwnPassword(target: SignInTarget, user: SignInUser, change: OwnPasswordChange): Promise<OwnChange> {
  const userId = user.id;
  const scope = ownScope(target, userId);
  const { applicationId } = scope;
  const password = change.password ?? '';
  const refused = change.reason === 'account' ? await ownProofRefusal(target, user, change.proof) : null;
  if (refused !== null) return refused;
  const pool = await effectivePasswordPolicy(target.scope, target.policyTenantId);
  // A forced change must at least change the password, whatever history the policy keeps.
  const policy = change.reason === 'expired' ? { ...pool, historyCount: Math.max(pool.historyCount, 1) } : pool;
  const errors = passwordRefusals(await passwordViolations(scope.em, policy, password, { applicationId, userId }));
  if (errors.length > 0) return ownRefusal(...errors);
  const passwordHash = await hashPassword(password);
  const cutoffs = await userCutoffs(scope, userId);
  const changedPassword = await scope.transactional(async (em) => {
    await keepReplacedPassword(em, applicationId, userId, policy.historyCount);
    const [account] = await executeOwned<{ email: string; name: string | null; locale: string | null; pool_id: string; tenant_ids: string[] }[]>(
      em,
      applicationId,
      `update app_user set password_hash = ?, password_changed_at = now(), updated_at = now()
        where @owner and id = ? and ${mayActNowSql('app_user')} returning email, name, locale, pool_id, tenant_ids`,
      [passwordHash, userId],
    );
    if (account === undefined) return undefined;
    const ended = await endWhatPasswordOpened(em, scope, userId, 'password_changed', cutoffs, change.keepSessionUid);
    const at = { em, sender: scope, tenantId: target.tenant?.id ?? null };
    const owner = { ...account, id: userId, tenantIds: account.tenant_ids };
    const again = await issueLink(em, await linkUserOf(target, at, owner), 'password_reset', scope.services.config.publicUrl);
    await passwordChangedMail(at, owner, { link: again.link, changedAt: new Date() });
    const after = { reason: change.reason, ...countsAcrossTenants(ended) };
    recordAudit(em, scope, { action: 'user.password.changed', targetType: 'user', targetId: userId, ...auditFilingOf({ poolId: account.pool_id, tenantIds: account.tenant_ids }, scope), after });
    usersChanged(em, applicationId);
    forgetUserKeys(em, [userId]);
    changed(em, ...grantsEnded(ended.grants));
    return true;
  });
  // No longer an active user (suspended or deleted meanwhile): nothing was changed.
  if (changedPassword === undefined) return { ok: false, reason: 'inactive' };
  scope.services.outbox.wake();
  return { ok: true };
}

/** A held address is answered after about as long as mailing a link to a free one takes: its time tells nothing either. */
const changeTiming = new RefusalTiming();

/** Proven as ownProofRefusal says. An address another account holds is answered alike and sent nothing, as sign-up
 *  answers: the page tells nobody whose it is. */
export async function requestOwnEmailChange(target: SignInTarget, user: SignInUser, typed: string | null | undefined, proof: OwnProof): Promise<OwnChange> {
  const scope = ownScope(target, user.id);
  const { applicationId } = scope;
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  const email = typedEmail(typed ?? '');
  if (email === undefined) return ownRefusal({ key: 'field.email' });
  if (normalizeEmail(email) === normalizeEmail(user.email)) return ownRefusal({ key: 'account.emailSame' });
  // Another account's, or held by a restore link for its former account (addressHeld).
  const held = async (runner: SqlRunner) =>
    (await executeOwned<unknown[]>(runner, applicationId, 'select 1 from app_user where @owner and pool_id = ? and email_normalized = ?', [user.poolId, normalizeEmail(email)]))
      .length > 0 || (await addressHeld(runner, applicationId, user.poolId, normalizeEmail(email), user.id));
  // Read first on both ways, so that they differ only by the mail's writes, which a held address waits out.
  if (await held(scope.em)) return (await changeTiming.pad(), { ok: true });
  const sent = await changeTiming.measure(() =>
    scope.transactional(async (em): Promise<boolean | 'inactive' | 'password_replaced'> => {
      // Judged on the locked row: a suspension or new password since the page's read must not miss this link.
      const acting = await holdActingUser(em, applicationId, user.id, target.poolId);
      if (acting === null) return 'inactive';
      if (passwordMark(acting) !== passwordMark(user)) return 'password_replaced';
      // Taken meanwhile: still sent nothing.
      if (await held(em)) return false;
      const at = { em, sender: scope, tenantId: target.tenant?.id ?? null };
      const admitted = await AskedForMail.admit(at, email);
      if (admitted === null) return false;
      // The new link ends the earlier ones (issueEmailChangeLink): their mails still queued are not sent.
      await withdrawQueuedMail(em, scope, { userId: user.id, reason: 'email_change_replaced' });
      const link = await issueEmailChangeLink(em, await linkUserOf(target, at, user), email, scope.services.config.publicUrl);
      await emailChangeMail(admitted, user, { ...link, newEmail: email });
      return true;
    }, askedForLock(applicationId, email)),
  );
  if (sent === 'inactive') return { ok: false, reason: 'inactive' };
  if (sent === 'password_replaced') return { ok: false, reason: 'sign_in_again' };
  if (sent) scope.services.outbox.wake();
  return { ok: true };
}

export async function signOutElsewhere(target: SignInTarget, userId: string, currentUid: string): Promise<OwnChange> {
  const scope = ownScope(target, userId);
  const cutoffs = await userCutoffs(scope, userId);
  await scope.transactional(async (em) => changed(em, ...grantsEnded(await endSignInsElsewhere(em, scope, userId, currentUid, cutoffs))));
  return { ok: true };
}
