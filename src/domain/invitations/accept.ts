import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { Invitation, RoleAssignment, User, type Role } from '../../db/entities/index.ts';
import { TENANT_FILTER } from '../../db/owned.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import { jointPermissions, readHeldGrants } from '../authorization/held-roles.ts';
import { authorizationChanged } from '../authorization/writes.ts';
import type { CopyText } from '../branding/copy/index.ts';
import type { Locale } from '../locales.ts';
import { checkPassword, passwordRefusals } from '../policies/password.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { lockTenants } from '../tenants/target-tenant.ts';
import { forgetUserKeys, usersChanged } from '../users/changed.ts';
import { disownSignUp, verifyEmail } from '../users/account-changes.ts';
import { userCutoffs } from '../sessions/policy-cutoffs.ts';
import { endLinksOfOtherOutboxes, userSnapshot } from '../users/users.ts';
import { mayActNow, type SignInUser } from '../users/sign-in-user.ts';
import { useRow } from '../sign-in/email-methods.ts';
import { insertCredential, type NewCredential } from '../webauthn/credentials.ts';
import { mfaEnrolledMail, tenantOf } from '../email/flow-mail.ts';
import { addressHeld, issueEnrolmentLink } from '../users/link-tokens.ts';
import { hashInvitationToken, holdInvitationRoles, invitationPool, invitationStatus, type InvitationStatus } from './invitations.ts';

/** Ours are 43 characters. */
const MAX_TOKEN_LENGTH = 128;

/** Across applications: before any scope exists the token is all there is, as an API key's secret is. */
export async function findInvitationByToken(orm: MikroORM, token: unknown): Promise<Invitation | null> {
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) return null;
  return orm.em.fork().findOne(Invitation, { tokenHash: hashInvitationToken(token) }, { filters: false });
}

/** A new account: password null when the surface makes it without one; its language the page's; `id` the one its passkey
 *  was made for. An existing account: proven by its password (`byPassword`) or the link. `passkey`: a proven registration (passkey.ts);
 *  to an existing account only with the code mailed to it (proof.ts), used here: the link alone is forwardable. */
export type InvitationAccount =
  | {
      readonly kind: 'new';
      readonly id?: string;
      readonly name: string | null;
      readonly password: { readonly plain: string; readonly hash: string } | null;
      readonly locale: Locale;
      readonly passkey?: NewCredential;
    }
  | { readonly kind: 'existing'; readonly userId: string; readonly byPassword: boolean; readonly passkey?: { readonly credential: NewCredential; readonly codeId: string } };

/** Why the pool's account of the address cannot accept now: an administrator suspended it, or it is locked out. */
export type AccountStanding = 'suspended' | 'locked';

/** Null: it may act now (active, or a lock run out). */
export const accountStanding = (user: Pick<SignInUser, 'status' | 'lockedUntil'>): AccountStanding | null =>
  mayActNow(user) ? null : user.status === 'suspended' ? 'suspended' : 'locked';

export type AcceptOutcome =
  | { readonly ok: true; readonly userId: string }
  /** `unknown`: it no longer exists; a standing: the account cannot accept now. */
  | { readonly ok: false; readonly closed: Exclude<InvitationStatus, 'pending'> | 'unknown' | AccountStanding }
  | { readonly ok: false; readonly passwordErrors: readonly CopyText[] }
  /** Sign in with it instead. */
  | { readonly ok: false; readonly taken: true }
  /** A restore link holds the address for the account that left it (addressHeld): no new account takes it. */
  | { readonly ok: false; readonly addressHeld: true }
  /** The existing account it was to join was deleted meanwhile: the invitation stands, for a new account. */
  | { readonly ok: false; readonly accountGone: true }
  /** The passkey's credential is stored for an account already: nothing is. */
  | { readonly ok: false; readonly keyHeld: true }
  /** The code was used or ran out meanwhile: nothing is stored. */
  | { readonly ok: false; readonly codeSpent: true };

class KeyHeld extends Error {}

/** A new account's password against the pool's policy, as the form says it; empty when acceptable. */
export async function refusedPassword(scope: Scope, policyTenantId: string | null, password: string): Promise<CopyText[]> {
  return passwordRefusals(checkPassword(await effectivePasswordPolicy(scope, policyTenantId), password));
}

/** Roles still in the tenant, not held there yet, and that the invitation's sender (or last resender) may still give
 *  there: a revoked key or a withdrawn right gives nothing more. Answers the roles left out. */
async function assignRoles(em: EntityManager, tx: Scope, invitation: Invitation, userId: string): Promise<string[]> {
  if (invitation.roleIds.length === 0) return [];
  const { tenantId } = invitation;
  const roles = await holdInvitationRoles(em, invitation.roleIds, tenantId);
  const grantor = jointPermissions(await readHeldGrants(em, invitation.applicationId, tenantId, invitation.grantedBy), invitation.grantedBy);
  const mayGive = (role: Role) => grantor.allows('role_assignments:write') && grantor.covers(role.permissions);
  const held = await em.find(RoleAssignment, { subjectType: 'user', subjectId: userId, tenantId, roleId: { $in: roles.map((role) => role.id) } }, { filters: { [TENANT_FILTER]: false } });
  const heldRoles = new Set(held.map((assignment) => assignment.roleId));
  for (const role of roles.filter((role) => !heldRoles.has(role.id) && mayGive(role))) {
    const assignment = em.create(RoleAssignment, { applicationId: invitation.applicationId, id: newId(), tenantId, roleId: role.id, subjectType: 'user', subjectId: userId });
    recordAudit(em, tx, {
      action: 'role_assignment.created',
      targetType: 'role_assignment',
      targetId: assignment.id,
      tenantId,
      after: { roleId: role.id, subjectType: 'user', subjectId: userId, tenantId },
    });
  }
  return roles.filter((role) => !mayGive(role)).map((role) => role.id);
}

/** Announced as every factor added is (enrolFactor): its `mfa_enrolled` link removes it, the owner's way back if whoever
 *  read the mailed code was not them. */
async function announceKey(em: EntityManager, tx: Scope, invitation: Invitation, user: User, keyId: string): Promise<void> {
  const at = { em, sender: tx, tenantId: invitation.tenantId };
  const owner = { id: user.id, email: user.email, name: user.name ?? null, locale: user.locale ?? null, tenantIds: user.tenantIds };
  const opener = { type: 'invitation', id: invitation.id } as const;
  const linkUser = { applicationId: invitation.applicationId, userId: user.id, poolId: user.poolId, opener, tenantId: tenantOf(at, owner) };
  const reset = await issueEnrolmentLink(em, linkUser, keyId, tx.services.config.publicUrl);
  await mfaEnrolledMail(at, owner, { link: reset.link, factor: 'webauthn' });
}

/** One transaction, `scope` the application's end-user scope acting as the invitation `opened` by its link. The invitation
 *  is held FOR UPDATE: of two uses of one link, the second finds it accepted; a link a resend replaced meanwhile, unknown. */
export async function acceptInvitation(scope: Scope, opened: Pick<Invitation, 'id' | 'tokenHash'>, account: InvitationAccount): Promise<AcceptOutcome> {
  // Read before the transaction, for an acceptance that may disown a sign-up (below).
  const cutoffs = account.kind === 'existing' && !account.byPassword ? await userCutoffs(scope, account.userId) : {};
  try {
    const outcome = await underTenancyConfig(scope, async (tx): Promise<AcceptOutcome> => {
      const { em } = tx;
      const found = await em.findOne(Invitation, { id: opened.id }, { filters: { [TENANT_FILTER]: false } });
      // The tenant first, then the invitation (a tenant's deletion takes the tenant, then what it owns).
      if (found === null || (await lockTenants(tx, [found.tenantId])).length === 0) return { ok: false, closed: 'unknown' };
      // Its roles only shrink (a role's deletion), so those read now cover the ones it names once locked.
      await holdInvitationRoles(em, found.roleIds, found.tenantId);
      const invitation = await em.findOne(Invitation, { id: opened.id, tokenHash: opened.tokenHash }, { ...HOLD_FOR_UPDATE, filters: { [TENANT_FILTER]: false } });
      if (invitation === null) return { ok: false, closed: 'unknown' };
      const status = invitationStatus(invitation);
      if (status !== 'pending') return { ok: false, closed: status };
      const { tenantId } = invitation;
      const application = await tx.application();
      const poolId = invitationPool(application, tenantId);
      let user: User;
      if (account.kind === 'new') {
        // The policy as in force now, in this transaction: one tightened since the form's check applies too.
        const refused = account.password === null ? [] : await refusedPassword(tx, poolId === tenantId ? tenantId : null, account.password.plain);
        if (refused.length > 0) return { ok: false, passwordErrors: refused };
        // Sending the invitation checked it too, but the account may have left the address since.
        if (await addressHeld(em, invitation.applicationId, poolId, invitation.emailNormalized)) return { ok: false, addressHeld: true };
        user = em.create(User, {
          applicationId: invitation.applicationId,
          id: account.id ?? newId(),
          poolId,
          email: invitation.email,
          emailNormalized: invitation.emailNormalized,
          name: account.name,
          locale: account.locale,
          status: 'active',
          tenantIds: [tenantId],
          passwordHash: account.password?.hash ?? null,
          // The link was mailed to the address: opening it proves the mailbox.
          emailVerified: true,
        });
        recordAudit(em, tx, { action: 'user.created', targetType: 'user', targetId: user.id, tenantId, after: { ...userSnapshot(user), via: `invitation:${invitation.id}` } });
      } else {
        const found = await em.findOne(User, { id: account.userId, poolId, emailNormalized: invitation.emailNormalized }, { ...HOLD_FOR_UPDATE, filters: { [TENANT_FILTER]: false } });
        if (found === null) return { ok: false, accountGone: true };
        const standing = accountStanding(found);
        if (standing !== null) return { ok: false, closed: standing };
        user = found;
        // Of two acceptances with one code, one uses it; its expiry is read again here.
        if (account.passkey !== undefined && !(await useRow(em, invitation.applicationId, 'id = ? and invitation_id = ? and user_id = ?', [account.passkey.codeId, invitation.id, user.id]))) {
          return { ok: false, codeSpent: true };
        }
        const actor = { applicationId: tx.applicationId, tenantId, requestId: tx.requestId, principal: tx.principal };
        // A never-confirmed address may have been set by a stranger (a sign-up, another tenant's administrator) who holds a
        // way in: proven by the mailbox alone, the acceptance leaves them nothing, as "I did not sign up" does. Its password
        // typed, the account is the invitee's.
        if (!account.byPassword && !user.emailVerified) await disownSignUp(em, actor, user.id, { keepVouchingTenant: true }, cutoffs);
        // The link proves the mailbox, as a verification link does.
        await verifyEmail(em, actor, user.id);
        if (!user.tenantIds.includes(tenantId)) {
          const before = userSnapshot(user);
          user.tenantIds = [...user.tenantIds, tenantId];
          await endLinksOfOtherOutboxes(em, tx.applicationId, user.id, user.tenantIds);
          recordAudit(em, tx, { action: 'user.membership.added', targetType: 'user', targetId: user.id, tenantId, before, after: userSnapshot(user) });
        }
      }
      const key = account.kind === 'new' ? account.passkey : account.passkey?.credential;
      if (key !== undefined) {
        await em.flush();
        const keyId = await insertCredential(em, invitation.applicationId, user.id, key);
        if (keyId === null) throw new KeyHeld();
        recordAudit(em, tx, { action: 'user.passkey.added', targetType: 'user', targetId: user.id, tenantId, after: { name: key.name, rpId: key.rpId } });
        if (account.kind === 'existing') await announceKey(em, tx, invitation, user, keyId);
      }
      const rolesNotGiven = await assignRoles(em, tx, invitation, user.id);
      invitation.acceptedAt = new Date();
      invitation.acceptedUserId = user.id;
      const after = rolesNotGiven.length === 0 ? { userId: user.id } : { userId: user.id, rolesNotGiven };
      recordAudit(em, tx, { action: 'invitation.accepted', targetType: 'invitation', targetId: invitation.id, tenantId, after });
      usersChanged(em, tx.applicationId);
      authorizationChanged(em, tx.applicationId);
      // An existing account's tokens carry its tenants, which now include this one.
      if (account.kind === 'existing') forgetUserKeys(em, [user.id]);
      return { ok: true, userId: user.id };
    });
    if (outcome.ok) scope.services.outbox.wake();
    return outcome;
  } catch (error) {
    // A new account of an address that got one meanwhile; never a role given by hand (the user's row orders the two).
    if (error instanceof UniqueConstraintViolationException) return { ok: false, taken: true };
    if (error instanceof KeyHeld) return { ok: false, keyHeld: true };
    throw error;
  }
}
