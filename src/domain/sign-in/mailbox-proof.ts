import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuditActor } from '../audit/audit.ts';
import { userCutoffs } from '../sessions/policy-cutoffs.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { disownSignUp, verifyEmail } from '../users/account-changes.ts';
import { mayActNow, readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import type { SignInTarget } from './sign-in.ts';

/** An unproven address set without a password is its mailbox owner's, whom a proof of the mailbox hands the account;
 *  with a password, its setter would keep a way in (docs/decisions.md, "Sign-in by e-mail"). */
export const ownedByMailbox = (user: SignInUser): boolean => user.emailVerified === false && user.passwordHash == null;

/** Proving the address does not hand its owner an account whose password someone set unproven (a sign-up by whoever typed
 *  the address): that password would still open it. */
export const unprovenPassword = (user: SignInUser): boolean => user.emailVerified === false && user.passwordHash != null;

/** What a takeover needs, read before its transaction (the embedded database answers one connection at a time). */
export interface MailboxTakeover {
  readonly actor: AuditActor;
  readonly user: SignInUser;
  readonly cutoffs: PolicyCutoffs;
}

export async function mailboxTakeover(target: SignInTarget, user: SignInUser): Promise<MailboxTakeover> {
  const actor = { applicationId: target.application.id, tenantId: target.policyTenantId, requestId: target.scope.requestId, principal: { actor: { type: 'user', id: user.id } } };
  return { actor, user, cutoffs: await userCutoffs(target.applicationScope, user.id) };
}

/** In the caller's transaction: its maker keeps no way in (sessions, keys, upstream links, factors; the vouching tenant's
 *  membership and roles stay), and the address is proven. Nothing when it was proven meanwhile. */
export async function takeOver(em: EntityManager, { actor, user, cutoffs }: MailboxTakeover): Promise<void> {
  await disownSignUp(em, actor, user.id, { keepVouchingTenant: true }, cutoffs);
  await verifyEmail(em, actor, user.id, user.email);
}

/** The user as they are now, or null when they may no longer act. */
export async function signInUserNow(target: SignInTarget, userId: string): Promise<SignInUser | null> {
  const now = await readSignInUser(target.applicationScope.em, target.application.id, { id: userId, poolId: target.poolId });
  return now !== null && mayActNow(now) ? now : null;
}

/** A takeover in a transaction of its own (an e-mail link or code, which proves the mailbox by itself). */
export async function takeOverByMailbox(target: SignInTarget, user: SignInUser): Promise<SignInUser | null> {
  const takeover = await mailboxTakeover(target, user);
  await target.applicationScope.transactional((em) => takeOver(em, takeover));
  return signInUserNow(target, user.id);
}
