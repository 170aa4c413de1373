import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { normalizeEmail } from './email-key.ts';
import { forgetUserKeys, usersChanged } from './changed.ts';
import { removeWaysIn, takeOverUnconfirmed, type TakeoverTerms } from './unconfirmed-takeover.ts';
import { auditFilingOf, auditTenantOf, endWhatPasswordOpened, leaveOldAddress, type KeptLinks } from './users.ts';
import { emailChangedMail, tenantOf, type MailContext } from '../email/flow-mail.ts';
import { addressHeld, issueRestoreLink, type LinkUser, type RestoredAddress } from './link-tokens.ts';
import { countsAcrossTenants, endUserSignIns } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';

export interface ChangedAccount {
  readonly email: string;
  readonly name: string | null;
  readonly locale: string | null;
  readonly tenantIds: readonly string[];
}

/** In the caller's transaction: e-mail verified (the link proved it), a lockout lifted with every address's failures (the
 *  `account_locked` mail promises it), every sign-in ended; a never-confirmed address is a takeover. Suspended: undefined. */
export async function resetPassword(em: EntityManager, actor: AuditActor, userId: string, passwordHash: string, cutoffs: PolicyCutoffs): Promise<ChangedAccount | undefined> {
  const [row] = await executeOwned<{ email: string; name: string | null; locale: string | null; pool_id: string; tenant_ids: string[]; was: string; was_verified: boolean }[]>(
    em,
    actor.applicationId,
    `update app_user as u set password_hash = ?, password_changed_at = now(), email_verified = true, status = 'active', failed_sign_ins = 0, last_failed_sign_in_at = null,
            locked_until = null, updated_at = now(),
            -- The mailbox is proven: no tenant's word for it is left to weigh (tenancy/isolation.ts). A takeover spends it itself.
            vouched_by_tenant_id = case when u.email_verified then null else u.vouched_by_tenant_id end
       from app_user as old
      where @owner(u) and u.id = ? and old.application_id = u.application_id and old.id = u.id and u.status <> 'suspended'
     returning u.email, u.name, u.locale, u.pool_id, u.tenant_ids, old.status as was, old.email_verified as was_verified`,
    [passwordHash, userId],
  );
  if (row === undefined) return undefined;
  await executeOwned(em, actor.applicationId, 'delete from sign_in_failure where @owner and user_id = ?', [userId]);
  const ended = await endWhatPasswordOpened(em, actor, userId, 'password_reset', cutoffs);
  recordAudit(em, actor, {
    action: 'user.password.reset',
    targetType: 'user',
    targetId: userId,
    ...auditFilingOf({ poolId: row.pool_id, tenantIds: row.tenant_ids }, actor),
    before: { status: row.was, emailVerified: row.was_verified },
    after: { status: 'active', emailVerified: true, ...countsAcrossTenants(ended) },
  });
  usersChanged(em, actor.applicationId);
  forgetUserKeys(em, [userId]);
  const tenantIds = row.was_verified ? row.tenant_ids : await takeOverUnconfirmed(em, actor, userId, { keepVouchingTenant: true });
  return { email: row.email, name: row.name, locale: row.locale, tenantIds };
}

/** In the caller's transaction; undefined when it already was, or (with `address`) when its address is another now. */
export async function verifyEmail(em: EntityManager, actor: AuditActor, userId: string, address?: string): Promise<ChangedAccount | undefined> {
  const [row] = await executeOwned<(Omit<ChangedAccount, 'tenantIds'> & { pool_id: string; tenant_ids: string[] })[]>(
    em,
    actor.applicationId,
    `update app_user set email_verified = true, vouched_by_tenant_id = null, updated_at = now() where @owner and id = ? and not email_verified${address === undefined ? '' : ' and email = ?'}
      returning email, name, locale, pool_id, tenant_ids`,
    address === undefined ? [userId] : [userId, address],
  );
  if (row === undefined) return undefined;
  const filing = auditFilingOf({ poolId: row.pool_id, tenantIds: row.tenant_ids }, actor);
  recordAudit(em, actor, { action: 'user.email.verified', targetType: 'user', targetId: userId, ...filing, before: { emailVerified: false }, after: { emailVerified: true } });
  usersChanged(em, actor.applicationId);
  return { email: row.email, name: row.name, locale: row.locale, tenantIds: row.tenant_ids };
}

/** The address's owner did not sign up, or accepts an invitation by its link alone: whoever typed the address keeps no
 *  way in and nothing held (as a takeover); the address stays unconfirmed for the owner's own reset. False, changing
 *  nothing, once confirmed. */
export async function disownSignUp(
  em: EntityManager,
  actor: AuditActor,
  userId: string,
  terms: TakeoverTerms,
  cutoffs: PolicyCutoffs,
): Promise<readonly string[] | false> {
  const [row] = await executeOwned<{ pool_id: string; tenant_ids: string[] }[]>(
    em,
    actor.applicationId,
    'update app_user set password_hash = null, updated_at = now() where @owner and id = ? and not email_verified returning pool_id, tenant_ids',
    [userId],
  );
  if (row === undefined) return false;
  const ended = await endUserSignIns(em, actor, userId, 'sign_up_disowned', cutoffs);
  recordAudit(em, actor, {
    action: 'user.sign_up.disowned',
    targetType: 'user',
    targetId: userId,
    ...auditFilingOf({ poolId: row.pool_id, tenantIds: row.tenant_ids }, actor),
    before: { emailVerified: false },
    after: { emailVerified: false, ...countsAcrossTenants(ended) },
  });
  usersChanged(em, actor.applicationId);
  forgetUserKeys(em, [userId]);
  return takeOverUnconfirmed(em, actor, userId, terms);
}

/** An account moved to another address: where it was (`before`), and what its notice (tellAddressLeft) and a restore link
 *  need. `changed`: false when it was already at the address (a restore to where it stands). */
export interface MovedAccount extends ChangedAccount {
  readonly before: string;
  readonly changed: boolean;
  readonly poolId: string;
  readonly passwordHash: string | null;
}

/** The address becomes the user's, proven, and what was mailed to the old address ends but `kept` (leaveOldAddress).
 *  Undefined for a suspended user; `taken` when another account of the pool holds it now, or another's restore link. */
async function moveAddress(em: EntityManager, actor: AuditActor, userId: string, newEmail: string, kept: KeptLinks, why: Record<string, string> = {}): Promise<MovedAccount | 'taken' | undefined> {
  const key = normalizeEmail(newEmail);
  const [user] = await executeOwned<{ email: string; email_normalized: string; name: string | null; locale: string | null; pool_id: string; tenant_ids: string[]; status: string; password_hash: string | null }[]>(
    em,
    actor.applicationId,
    'select email, email_normalized, name, locale, pool_id, tenant_ids, status, password_hash from app_user where @owner and id = ? for update',
    [userId],
  );
  if (user === undefined || user.status === 'suspended') return undefined;
  const [holder] = await executeOwned<unknown[]>(em, actor.applicationId, 'select 1 from app_user where @owner and pool_id = ? and email_normalized = ? and id <> ?', [
    user.pool_id,
    key,
    userId,
  ]);
  // A restore link of another account holds it too, for its owner (addressHeld).
  if (holder !== undefined || (await addressHeld(em, actor.applicationId, user.pool_id, key, userId))) return 'taken';
  await executeOwned(em, actor.applicationId, 'update app_user set email = ?, email_normalized = ?, email_verified = true, vouched_by_tenant_id = null, updated_at = now() where @owner and id = ?', [
    newEmail,
    key,
    userId,
  ]);
  const changed = key !== user.email_normalized;
  if (changed) await leaveOldAddress(em, actor, userId, user.email, kept);
  recordAudit(em, actor, {
    action: 'user.email.changed',
    targetType: 'user',
    targetId: userId,
    ...auditFilingOf({ poolId: user.pool_id, tenantIds: user.tenant_ids }, actor),
    before: { email: user.email },
    after: { email: newEmail, emailVerified: true, ...why },
  });
  usersChanged(em, actor.applicationId);
  forgetUserKeys(em, [userId]);
  const account = { email: newEmail, name: user.name, locale: user.locale, tenantIds: user.tenant_ids };
  return { ...account, before: user.email, changed, poolId: user.pool_id, passwordHash: user.password_hash };
}

/** The link's address becomes the user's, proven, and what was mailed to the old address ends but the restore links (the
 *  owner's, should this change be someone else's). `addedSince`: what goes if the old address takes the account back
 *  (restoreEmail): what is added from now, and the factors announced to the old address by links still working, whose
 *  removal this change ends. Undefined for a suspended user; `taken` when another account of the pool holds it now. */
export async function changeEmail(em: EntityManager, actor: AuditActor, userId: string, newEmail: string): Promise<(MovedAccount & { readonly addedSince: Date }) | 'taken' | undefined> {
  const [announced] = await executeOwned<{ since: Date }[]>(
    em,
    actor.applicationId,
    `select least(now(), (select min(f.created_at) from email_link_token as t
              join (select id, created_at from mfa_factor where @owner and user_id = ? union all select id, created_at from webauthn_credential where @owner and user_id = ?) as f
                on f.id = t.removes_factor_id
             where @owner(t) and t.user_id = ? and t.used_at is null and t.expires_at > now())) as since`,
    [userId, userId, userId],
  );
  const moved = await moveAddress(em, actor, userId, newEmail, { restoring: true });
  if (moved === undefined || moved === 'taken') return moved;
  return { ...moved, addedSince: new Date(announced!.since) };
}

/** A restore link used (issueRestoreLink): its address is the account's again, proven, and the rest of what was mailed ends,
 *  but the restore links issued before it (the owner's, should this one be someone else's); so does what was added
 *  since (removeWaysIn, `after.reason` `address_restored`). The caller sets the new password in the same transaction. */
export async function restoreEmail(em: EntityManager, actor: AuditActor, userId: string, restores: RestoredAddress): Promise<MovedAccount | 'taken' | undefined> {
  const moved = await moveAddress(em, actor, userId, restores.email, { restoring: true, issuedBefore: restores.issuedAt }, { reason: ADDRESS_RESTORED });
  if (moved === undefined || moved === 'taken') return moved;
  await removeWaysIn(em, actor, userId, auditTenantOf({ poolId: moved.poolId }, actor), ADDRESS_RESTORED, restores.addedSince);
  return moved;
}

/** The `after.reason` of a restore's records. */
const ADDRESS_RESTORED = 'address_restored';

/** `email_change`'s notice to the address the account left, in `at`'s transaction. With `restore`, the user's own change
 *  of an account with a password, a restore link (issueRestoreLink) proven by the password the account had; else
 *  none: a restore's own notice (the password it proves is the one it replaces) or an account without a password, whose
 *  old mailbox alone would take it. */
export async function tellAddressLeft(at: MailContext, userId: string, moved: MovedAccount, restore?: { readonly user: LinkUser; readonly addedSince: Date }): Promise<void> {
  if (!moved.changed) return;
  const formerly = { id: userId, email: moved.before, name: moved.name, locale: moved.locale, tenantIds: moved.tenantIds };
  const proof = moved.passwordHash;
  const link =
    restore === undefined || proof === null
      ? null
      : await issueRestoreLink(at.em, { ...restore.user, tenantId: await tenantOf(at, formerly) }, { email: moved.before, passwordHash: proof, addedSince: restore.addedSince }, at.sender.services.config.publicUrl);
  await emailChangedMail(at, formerly, { newEmail: moved.email, restore: link });
}
