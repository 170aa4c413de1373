import type { Invitation } from '../../db/entities/index.ts';
import { recordSignIn, type SignInFailureReason } from '../auth-events.ts';
import { checkCredentials, type CredentialCheck, type InvitationTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from '../users/sign-in-user.ts';

/** Refusals for the account's or address's standing (the lockout), whatever the password. */
const HELD: ReadonlySet<SignInFailureReason> = new Set(['user_inactive', 'address_locked', 'address_waiting']);

/** `held`: refused for the standing, not for the password (the page answers it as the sign-in form does). */
export type InvitationProof = Extract<CredentialCheck, { ok: true }> | { readonly ok: false; readonly held: boolean };

/**
 * An existing account proves its password to accept an invitation, checked as the sign-in form checks it (one Argon2id
 * verification, the lockout policy), but it signs nothing in: a right password records only the acceptance; a wrong
 * one (or one refused for the account's or address's standing) is a failed sign-in of that user, its actor the
 * invitation, as the acceptance's own records have it. It goes to the invited tenant's log only for a member of it,
 * else to the pool's, where the lockout records too: the inviting tenant must not learn that an outsider's address
 * has an account before it joins.
 */
export async function proveInvitationPassword(
  target: InvitationTarget,
  invitation: Pick<Invitation, 'id' | 'tenantId' | 'email'>,
  account: SignInUser,
  password: unknown,
  address: string,
  rpId: string,
): Promise<InvitationProof> {
  const checked = await checkCredentials(target, invitation.email, password, address, rpId);
  if (checked.ok) return checked;
  const user = checked.user ?? account;
  await recordSignIn(target.scope.services, {
    applicationId: target.application.id,
    tenantId: user.tenantIds.includes(invitation.tenantId) ? invitation.tenantId : target.policyTenantId,
    clientId: null,
    by: target.opener,
    requestId: target.scope.requestId,
    method: 'password',
    outcome: { ok: false, reason: checked.reason, userId: user.id, email: invitation.email },
  });
  return { ok: false, held: HELD.has(checked.reason) };
}
