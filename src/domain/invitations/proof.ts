import type { Invitation } from '../../db/entities/index.ts';
import { recordSignIn, type SignInFailureReason } from '../audit/auth-events.ts';
import { askedForLock } from '../email/flow-mail.ts';
import { mailAt } from '../sign-in/account-links.ts';
import { codeMatchesCounted, liveCodeRow, mailCode } from '../sign-in/email-methods.ts';
import { refuseUncounted, standingRefusal } from '../sign-in/lockout.ts';
import { checkCredentials, type CredentialCheck, type InvitationTarget } from '../sign-in/sign-in.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { invitationCeremony } from './passkey.ts';

/** An existing account's password or a freshly mailed code, where the link is not proof enough. Checked as the sign-in form
 *  checks it, signing nothing in; a wrong one is recorded in the tenant's log only for a member (the tenant must not learn
 *  an outsider's address has an account). */

/** Refusals for the account's or address's standing (the lockout), whatever the password or code. */
const HELD: ReadonlySet<SignInFailureReason> = new Set(['user_inactive', 'address_locked', 'address_waiting']);

/** `held`: refused for the standing, not for what was typed (the page answers it as the sign-in form does). */
type Refused = { readonly ok: false; readonly held: boolean };

/** `gone`: the pool no longer holds an account of the address (deleted since the page was opened): nothing was proven of it. */
export type InvitationProof = Extract<CredentialCheck, { ok: true }> | Refused | { readonly ok: false; readonly gone: true };

/** `codeId`: the mailed code's row, which the acceptance uses in its transaction (accept.ts). */
export type InvitationCodeProof = { readonly ok: true; readonly codeId: string } | Refused;

/** As long as Auth0's and Zitadel's e-mail one-time codes live. */
export const INVITATION_CODE_MINUTES = 10;

type Invited = Pick<Invitation, 'id' | 'tenantId' | 'email'>;

async function refused(target: InvitationTarget, invitation: Invited, user: SignInUser, method: 'password' | 'email_code', reason: SignInFailureReason): Promise<Refused> {
  await recordSignIn(target.scope.services, {
    applicationId: target.application.id,
    tenantId: user.tenantIds.includes(invitation.tenantId) ? invitation.tenantId : target.policyTenantId,
    clientId: null,
    by: target.opener,
    requestId: target.scope.requestId,
    method,
    outcome: { ok: false, reason, user, email: invitation.email },
  });
  return { ok: false, held: HELD.has(reason) };
}

const accountGone = async (target: InvitationTarget, account: SignInUser) =>
  (await readSignInUser(target.applicationScope.em, target.application.id, { id: account.id })) === null;

export async function proveInvitationPassword(target: InvitationTarget, invitation: Invited, account: SignInUser, password: unknown, address: string, rpId: string): Promise<InvitationProof> {
  const checked = await checkCredentials(target, invitation.email, password, address, rpId);
  // Deleted before the check read it, or while it ran (its success then finds no active account to clear).
  if (!checked.ok && (checked.reason === 'unknown_user' || (checked.reason === 'user_inactive' && (await accountGone(target, account))))) return { ok: false, gone: true };
  return checked.ok ? checked : refused(target, invitation, checked.user ?? account, 'password', checked.reason);
}

/** Mails the account a code bound to this invitation and account: only the latest works, once (mailCode). */
export async function mailInvitationCode(target: InvitationTarget, invitation: Invited, account: SignInUser): Promise<void> {
  await target.applicationScope.transactional(async (em) => {
    const row = { interactionId: invitationCeremony(invitation.id, true), userId: account.id, email: account.email, method: 'invitation_code' as const, minutes: INVITATION_CODE_MINUTES };
    await mailCode(em, target, mailAt(target, em, account), row, account, true);
  }, askedForLock(target.application.id, account.email));
  target.scope.services.outbox.wake();
}

/** The code the page mailed for this invitation and account, unused and alive; a wrong one counts on it and under the lockout. */
export async function proveInvitationCode(target: InvitationTarget, invitation: Invited, account: SignInUser, code: unknown, address: string): Promise<InvitationCodeProof> {
  const row = await liveCodeRow(target.applicationScope.em, target.application.id, invitationCeremony(invitation.id, true), ['invitation_code']);
  if (row === undefined || row.user_id !== account.id) {
    await refuseUncounted(target);
    return refused(target, invitation, account, 'email_code', 'wrong_code');
  }
  const standing = await standingRefusal(target, account, address);
  if (standing !== undefined) return refused(target, invitation, account, 'email_code', standing.reason);
  if ((await codeMatchesCounted(target, row, account, code, address)) !== 'right') return refused(target, invitation, account, 'email_code', 'wrong_code');
  return { ok: true, codeId: row.id };
}
