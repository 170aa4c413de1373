import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthProvider, Domain, Setting, Tenant, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { ErrorDetail } from '../../errors.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { NEW_ID_SQL } from '../../ids.ts';
import { keySnapshotSql } from '../api-keys/issue.ts';
import { assignmentSnapshotSql } from '../authorization/role-assignments.ts';
import { recordAuditPerRow, type AuditActor } from '../audit.ts';
import { userSnapshotSql } from '../users/users.ts';

/** One detail per tenant and kind, so the caller knows exactly what to remove (API.md, Tenancy configuration). */
export async function tenantAuthDataRemaining(em: EntityManager, applicationId: string): Promise<ErrorDetail[]> {
  const [providers, policies, domains, duplicates, tenants] = await Promise.all([
    em.find(AuthProvider, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    em.find(Setting, { feature: 'policy', tenantId: { $ne: null } }, { fields: ['tenantId', 'key'] }),
    em.find(Domain, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    duplicateEmailsAcrossPools(em, applicationId),
    em.find(Tenant, {}, { fields: ['id', 'slug'] }),
  ]);
  const slugs = new Map(tenants.map((tenant) => [tenant.id, tenant.slug]));
  const counts = new Map<string, number>();
  const count = (tenantId: string, kind: string, n = 1) => {
    const key = `${tenantId}\0${kind}`;
    counts.set(key, (counts.get(key) ?? 0) + n);
  };
  for (const provider of providers) count(provider.tenantId as string, 'auth_providers');
  for (const policy of policies) count(policy.tenantId as string, policy.key === 'mfa' ? 'mfa_settings' : 'policies');
  for (const domain of domains) count(domain.tenantId as string, 'custom_domains');
  for (const pool of duplicates) count(pool.pool_id, 'users_with_duplicate_email', pool.count);
  return [...counts.entries()]
    .map(([key, n]) => {
      const [tenantId, kind] = key.split('\0') as [string, string];
      return { tenantId, tenantSlug: slugs.get(tenantId) ?? null, kind, count: n };
    })
    .sort((a, b) => a.tenantId.localeCompare(b.tenantId) || a.kind.localeCompare(b.kind));
}

/** Merging the pools would make these collide. Counted by PostgreSQL, whatever the number of users. */
async function duplicateEmailsAcrossPools(em: EntityManager, applicationId: string): Promise<{ pool_id: string; count: number }[]> {
  return executeOwned(
    em,
    applicationId,
    `select pool_id, count(*)::int as count from app_user
      where @owner and pool_id <> ? and email_normalized in (
        select email_normalized from app_user where @owner group by email_normalized having count(distinct pool_id) > 1)
      group by pool_id`,
    [SHARED_POOL],
  );
}

/**
 * A user of several tenants keeps their record in the one they joined first and gets a copy in each other, so that
 * nobody loses access; their second step and recovery codes are copied, their keys and role assignments for those
 * tenants move to the copies. Users in no tenant stay in the application's pool. Seven statements whatever the number
 * of users.
 */
export async function splitPoolsByTenant(em: EntityManager, actor: AuditActor): Promise<void> {
  await copyIntoOtherTenants(em, actor);
  await copySignInFailures(em, actor.applicationId);
  await copySecondSteps(em, actor.applicationId);
  await moveKeysToCopies(em, actor);
  await moveAssignmentsToCopies(em, actor);
  await executeOwned(
    em,
    actor.applicationId,
    `update app_user set pool_id = tenant_ids[1], tenant_ids = array[tenant_ids[1]], updated_at = now()
      where @owner and pool_id = ? and cardinality(tenant_ids) > 0`,
    [SHARED_POOL],
  );
}

/**
 * With the whole lockout state, so it signs in, counts failures and unlocks as the original would, whether its address
 * is proven and the language of its mails.
 */
async function copyIntoOtherTenants(em: EntityManager, actor: AuditActor): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'user.copy', targetType: 'user' }, {
    tenantPerRow: true,
    ctes: `copied as (
      insert into app_user (application_id, id, pool_id, email, email_normalized, name, status, tenant_ids, password_hash,
                            failed_sign_ins, last_failed_sign_in_at, locked_until, locked_when_suspended, email_verified, locale,
                            metadata, created_at, updated_at)
      select original.application_id, ${NEW_ID_SQL}, other.tenant_id, original.email, original.email_normalized, original.name,
             original.status, array[other.tenant_id], original.password_hash,
             original.failed_sign_ins, original.last_failed_sign_in_at, original.locked_until, original.locked_when_suspended,
             original.email_verified, original.locale, original.metadata, now(), now()
        from app_user as original, unnest(original.tenant_ids[2:]) as other (tenant_id)
       where @owner(original) and original.pool_id = ?
      returning *),
    changed as (
      select copy.id::text as target_id, copy.pool_id as tenant_id, null::jsonb as before,
             ${userSnapshotSql('copy')} || jsonb_build_object('copiedFrom', original.id) as after
        from copied as copy
        join app_user as original
          on original.application_id = copy.application_id and original.pool_id = ? and original.email_normalized = copy.email_normalized)`,
    params: [SHARED_POOL, SHARED_POOL],
  });
}

/** So that an address locked out of the original is locked out of every copy. */
async function copySignInFailures(em: EntityManager, applicationId: string): Promise<void> {
  await executeOwned(
    em,
    applicationId,
    `insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at, locked_at, locked_until)
     select f.application_id, copy.id, f.address, f.failures, f.last_failed_at, f.locked_at, f.locked_until
       from sign_in_failure as f
       join app_user as original on original.application_id = f.application_id and original.id = f.user_id and original.pool_id = ?
       join app_user as copy on copy.application_id = f.application_id and copy.pool_id <> ? and copy.email_normalized = original.email_normalized
      where @owner(f)`,
    [SHARED_POOL, SHARED_POOL],
  );
}

/** Each copy's own rows of the original's, joined by the address that makes it the original's copy. */
const OF_COPIES = `join app_user as original on original.application_id = r.application_id and original.id = r.user_id and original.pool_id = ?
  join app_user as copy on copy.application_id = r.application_id and copy.pool_id <> ? and copy.email_normalized = original.email_normalized`;

/**
 * A copy without the original's authenticator app or e-mail codes would sign in with the password alone, or let
 * whoever knows it enrol their own factor. Passkeys stay the original's: a key is one account's (its credential id is
 * unique in the application), and is registered again on the copy.
 */
async function copySecondSteps(em: EntityManager, applicationId: string): Promise<void> {
  await executeOwned(
    em,
    applicationId,
    `insert into mfa_factor (application_id, id, user_id, kind, secret_encrypted, last_step, created_at)
     select r.application_id, ${NEW_ID_SQL}, copy.id, r.kind, r.secret_encrypted, r.last_step, r.created_at from mfa_factor as r ${OF_COPIES}
      where @owner(r)`,
    [SHARED_POOL, SHARED_POOL],
  );
  await executeOwned(
    em,
    applicationId,
    `insert into mfa_recovery_code (application_id, user_id, code_hash, used_at)
     select r.application_id, copy.id, r.code_hash, r.used_at from mfa_recovery_code as r ${OF_COPIES}
      where @owner(r)`,
    [SHARED_POOL, SHARED_POOL],
  );
}

/**
 * A role held in a tenant goes with the membership, to the copy that is its member now: the original, a member of its
 * first tenant only, would otherwise hold it still and have it back on a return (a return starts without them).
 */
async function moveAssignmentsToCopies(em: EntityManager, actor: AuditActor): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'role_assignment.rebind', targetType: 'role_assignment' }, {
    tenantPerRow: true,
    ctes: `rebound as (
      update role_assignment as a set subject_id = copy.id
        from app_user as original, app_user as copy
       where @owner(a) and a.subject_type = 'user' and a.tenant_id is not null
         and original.application_id = a.application_id and original.id = a.subject_id and original.pool_id = ?
         and copy.application_id = a.application_id and copy.pool_id = a.tenant_id and copy.email_normalized = original.email_normalized
      returning a.*, original.id as original_id),
    changed as (
      select rebound.id::text as target_id, rebound.tenant_id,
             ${assignmentSnapshotSql('rebound')} || jsonb_build_object('subjectId', rebound.original_id) as before,
             ${assignmentSnapshotSql('rebound')} as after
        from rebound)`,
    params: [SHARED_POOL],
  });
}

/**
 * A tenant key's user is a member of its tenant, and deleting that record must take the key with it. Cached keys are
 * evicted by the switch's invalidation of the whole application (configurationChanged).
 */
async function moveKeysToCopies(em: EntityManager, actor: AuditActor): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'api_key.rebind', targetType: 'api_key' }, {
    tenantPerRow: true,
    ctes: `rebound as (
      update api_key as k set user_id = copy.id
        from app_user as original, app_user as copy
       where @owner(k) and k.tenant_id is not null
         and original.application_id = k.application_id and original.id = k.user_id and original.pool_id = ?
         and copy.application_id = k.application_id and copy.pool_id = k.tenant_id and copy.email_normalized = original.email_normalized
      returning k.*, original.id as original_id),
    changed as (
      select rebound.id::text as target_id, rebound.tenant_id, ${keySnapshotSql('rebound', 'rebound.original_id')} as before,
             ${keySnapshotSql('rebound')} as after
        from rebound)`,
    params: [SHARED_POOL],
  });
}

/** Allowed only when no e-mail exists in two pools. */
export async function mergePools(em: EntityManager): Promise<number> {
  return em.nativeUpdate(User, { poolId: { $ne: SHARED_POOL } }, { poolId: SHARED_POOL });
}
