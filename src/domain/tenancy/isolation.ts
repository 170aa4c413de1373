import type { EntityManager } from '@mikro-orm/postgresql';
import { AuthProvider, Domain, Setting, Tenant } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { ErrorDetail } from '../../errors.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { NEW_ID_SQL } from '../../ids.ts';
import { markCopiesActiveAsTheirOriginals } from '../analytics.ts';
import { keySnapshotSql } from '../api-keys/issue.ts';
import { assignmentSnapshotSql } from '../authorization/role-assignments.ts';
import type { AuditAction } from '../audit/actions.ts';
import { recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { userSnapshotSql } from '../users/users.ts';
import { endSignIns } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { MODEL, PAYLOAD } from '../../db/oidc-model.ts';

/** A user's rows looked up in the pool of the sign-in (`pool_id`, their user's), unique there by `key`. */
interface PoolKeyedRows {
  readonly table: string;
  readonly key: readonly string[];
}

const UPSTREAM_LINKS: PoolKeyedRows = { table: 'user_identity', key: ['provider_id', 'subject'] };
const PASSKEYS: PoolKeyedRows = { table: 'webauthn_credential', key: ['rp_id', 'credential_id'] };

/** One detail per tenant and kind, so the caller knows exactly what to remove (API.md, Tenancy configuration). */
export async function tenantAuthDataRemaining(em: EntityManager, applicationId: string): Promise<ErrorDetail[]> {
  const [providers, policies, domains, duplicates, duplicateLinks, duplicateKeys, tenants] = await Promise.all([
    em.find(AuthProvider, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    em.find(Setting, { feature: 'policy', tenantId: { $ne: null } }, { fields: ['tenantId', 'key'] }),
    em.find(Domain, { tenantId: { $ne: null } }, { fields: ['tenantId'] }),
    duplicateEmailsAcrossPools(em, applicationId),
    duplicateRowsAcrossPools(em, applicationId, UPSTREAM_LINKS),
    duplicateRowsAcrossPools(em, applicationId, PASSKEYS),
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
  for (const pool of duplicateLinks) count(pool.pool_id, 'users_with_duplicate_upstream_link', pool.count);
  for (const pool of duplicateKeys) count(pool.pool_id, 'users_with_duplicate_passkey', pool.count);
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

/** A tenant's pool's users holding what another pool holds too, by `key`: an upstream account's link, or a passkey. Merged,
 *  the rows would collide, and one upstream account or key signs in to one user. */
async function duplicateRowsAcrossPools(em: EntityManager, applicationId: string, rows: PoolKeyedRows): Promise<{ pool_id: string; count: number }[]> {
  const key = rows.key.join(', ');
  return executeOwned(
    em,
    applicationId,
    `select pool_id, count(distinct user_id)::int as count from ${rows.table}
      where @owner and pool_id <> ? and (${key}) in (
        select ${key} from ${rows.table} where @owner group by ${key} having count(distinct pool_id) > 1)
      group by pool_id`,
    [SHARED_POOL],
  );
}

/** A user of several tenants keeps their record in the one joined first and gets a copy, with its own upstream links, in
 *  each other, so nobody loses access. Users in no tenant stay in the application's pool. The same statements whatever
 *  the number of users. `cutoffs`: the session policy before the split, by which the sign-ins it ends are recorded. */
export async function splitPoolsByTenant(em: EntityManager, actor: AuditActor, cutoffs: PolicyCutoffs): Promise<void> {
  const { applicationId } = actor;
  await copyIntoOtherTenants(em, actor);
  await markCopiesActiveAsTheirOriginals(em, applicationId, SHARED_POOL);
  await copyUserRows(em, applicationId, 'sign_in_failure', ['address', 'failures', 'last_failed_at', 'locked_at', 'locked_until']);
  await copyUserRows(em, applicationId, 'mfa_factor', ['kind', 'secret_encrypted', 'secret_id', 'last_step', 'created_at'], { newIds: true });
  await copyUserRows(em, applicationId, 'mfa_recovery_code', ['code_hash', 'code_id', 'used_at', 'issued_at']);
  // The same ids: the history is read newest first by id.
  await copyUserRows(em, applicationId, 'password_history', ['id', 'password_hash', 'created_at']);
  await copyUserRows(em, applicationId, 'replaced_password', ['id', 'password_hash', 'replaced_at', 'expires_at']);
  await copyUserRows(em, applicationId, 'user_identity', ['provider_id', 'subject', 'created_at'], { newIds: true, poolOfCopy: true });
  await copyUserRows(em, applicationId, 'webauthn_credential', ['rp_id', 'credential_id', 'public_key', 'counter', 'transports', 'device_type', 'backed_up', 'name', 'created_at', 'last_used_at'], {
    newIds: true,
    poolOfCopy: true,
  });
  await moveToCopies(em, actor, { table: 'api_key', userColumn: 'user_id', where: '', action: 'api_key.rebound', targetType: 'api_key', snapshot: keySnapshotSql });
  await moveToCopies(em, actor, {
    table: 'role_assignment',
    userColumn: 'subject_id',
    where: " and r.subject_type = 'user'",
    action: 'role_assignment.rebound',
    targetType: 'role_assignment',
    snapshot: assignmentSnapshotSql,
  });
  await endSignInsToTenantsLeft(em, actor, cutoffs);
  await moveUsers(em, actor, { set: 'pool_id = u.tenant_ids[1], tenant_ids = array[u.tenant_ids[1]]', where: 'u.pool_id = ? and cardinality(u.tenant_ids) > 0' });
  await bindKeysToTheirUsersTenants(em, actor);
  await moveToTheirUsersPools(em, applicationId);
}

/** An application-wide key acting as a user now of a tenant's pool becomes that tenant's key, audited: the user exists
 *  only there (spec, rule 7), so their key acts there only, as their sign-ins to the tenants left end. The original's
 *  tenant, the first: the key named that record, not a copy. */
async function bindKeysToTheirUsersTenants(em: EntityManager, actor: AuditActor): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'api_key.rebound', targetType: 'api_key' }, {
    tenantPerRow: true,
    ctes: `bound as (
      update api_key as k set tenant_id = u.pool_id
        from app_user as u
       where @owner(k) and k.tenant_id is null and u.application_id = k.application_id and u.id = k.user_id and u.pool_id <> ?
      returning k.*),
    changed as (
      select bound.id::text as target_id, bound.tenant_id, ${keySnapshotSql('bound', { tenant_id: 'null' })} as before, ${keySnapshotSql('bound')} as after
        from bound)`,
    params: [SHARED_POOL],
  });
}

/** As when a user leaves a tenant: else those sign-ins would stand again once the original returned. */
async function endSignInsToTenantsLeft(em: EntityManager, actor: AuditActor, cutoffs: PolicyCutoffs): Promise<void> {
  const left = `select u.id::text as user_id, t.tenant_id::text as tenant_id from app_user as u, unnest(u.tenant_ids[2:]) as t (tenant_id)
    where @owner(u) and u.pool_id = ?`;
  const ended = await endSignIns(
    em,
    actor,
    {
      where: `(s.user_id::text, s.tenant_id::text) in (${left})`,
      params: [SHARED_POOL],
      ends: 'sign_in',
      grants: {
        sql: `select gt.id from oidc_model as gt join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = gt.id
          where gt.model = '${MODEL.GrantTenant}' and @owner(gt) and (g.payload->>'${PAYLOAD.accountId}', gt.payload->>'${PAYLOAD.tenantId}') in (${left})`,
        params: [SHARED_POOL],
      },
      cutoffs,
    },
    'membership_removed',
  );
  changed(em, ...grantsEnded(ended.grants));
}

/** With the whole lockout state and the password's age, so the copy signs in, counts failures, unlocks and must change
 *  an expired password as the original would, whether its address is proven and the language of its mails. */
async function copyIntoOtherTenants(em: EntityManager, actor: AuditActor): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'user.copied', targetType: 'user' }, {
    tenantPerRow: true,
    ctes: `copied as (
      insert into app_user (application_id, id, pool_id, email, email_normalized, name, status, tenant_ids, password_hash,
                            password_changed_at, failed_sign_ins, last_failed_sign_in_at, locked_until, locked_when_suspended, email_verified, locale,
                            metadata, created_at, updated_at)
      select original.application_id, ${NEW_ID_SQL}, other.tenant_id, original.email, original.email_normalized, original.name,
             original.status, array[other.tenant_id], original.password_hash,
             original.password_changed_at, original.failed_sign_ins, original.last_failed_sign_in_at, original.locked_until, original.locked_when_suspended,
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

/** A copy of each of the original's `table` rows (`id` new, `pool_id` the copy's where the table has them): what it must
 *  hold to sign in as the original would (failures and locks per address, TOTP, e-mail and recovery codes and passkeys,
 *  without which the password alone would sign in or let its knower enrol, the password history, upstream links). */
async function copyUserRows(
  em: EntityManager,
  applicationId: string,
  table: string,
  columns: readonly string[],
  { newIds = false, poolOfCopy = false } = {},
): Promise<void> {
  const copied = [...(newIds ? ['id'] : []), 'user_id', ...(poolOfCopy ? ['pool_id'] : [])];
  const values = [...(newIds ? [NEW_ID_SQL] : []), 'copy.id', ...(poolOfCopy ? ['copy.pool_id'] : [])];
  await executeOwned(
    em,
    applicationId,
    `insert into ${table} (application_id, ${[...copied, ...columns].join(', ')})
     select r.application_id, ${[...values, ...columns.map((column) => `r.${column}`)].join(', ')}
       from ${table} as r
       join app_user as original on original.application_id = r.application_id and original.id = r.user_id and original.pool_id = ?
       join app_user as copy on copy.application_id = r.application_id and copy.pool_id <> ? and copy.email_normalized = original.email_normalized
      where @owner(r)`,
    [SHARED_POOL, SHARED_POOL],
  );
}

/** A tenant's own rows naming an original (`userColumn`) move to its copy there, audited: a tenant key's user and a tenant
 *  role's holder are members, so deleting the copy takes them and the original returns without them. */
async function moveToCopies(
  em: EntityManager,
  actor: AuditActor,
  rows: { table: string; userColumn: string; where: string; action: AuditAction; targetType: string; snapshot: (row: string, instead?: Readonly<Record<string, string>>) => string },
): Promise<void> {
  await recordAuditPerRow(em, actor, { action: rows.action, targetType: rows.targetType }, {
    tenantPerRow: true,
    ctes: `rebound as (
      update ${rows.table} as r set ${rows.userColumn} = copy.id
        from app_user as original, app_user as copy
       where @owner(r) and r.tenant_id is not null${rows.where}
         and original.application_id = r.application_id and original.id = r.${rows.userColumn} and original.pool_id = ?
         and copy.application_id = r.application_id and copy.pool_id = r.tenant_id and copy.email_normalized = original.email_normalized
      returning r.*, original.id as original_id),
    changed as (
      select rebound.id::text as target_id, rebound.tenant_id, ${rows.snapshot('rebound', { [rows.userColumn]: 'rebound.original_id' })} as before,
             ${rows.snapshot('rebound')} as after
        from rebound)`,
    params: [SHARED_POOL],
  });
}

/** Allowed only when no e-mail, upstream account or passkey exists in two pools: nothing then collides. A tenant's
 *  administrator vouches for its isolated pool, not for the identity every tenant shares: an address only it set joins
 *  the shared pool unconfirmed, with that tenant kept as its voucher, as if set there (users.ts, createUser). */
export async function mergePools(em: EntityManager, actor: AuditActor): Promise<void> {
  await moveUsers(em, actor, { set: `pool_id = '${SHARED_POOL}', email_verified = u.email_verified and u.vouched_by_tenant_id is null`, where: 'u.pool_id <> ?' });
  await moveToTheirUsersPools(em, actor.applicationId);
}

/** Users of one pool moved to another in one statement, each recorded as the change it is to them (`user.updated`, in
 *  the tenant whose pool they leave or join). `move.where` takes the shared pool's id as its one parameter. */
async function moveUsers(em: EntityManager, actor: AuditActor, move: { readonly set: string; readonly where: string }): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'user.updated', targetType: 'user' }, {
    tenantPerRow: true,
    ctes: `leaving as (select u.id, u.pool_id, u.tenant_ids, u.email_verified from app_user as u where @owner(u) and ${move.where}),
    moved as (
      update app_user as u set ${move.set}, updated_at = now()
        from leaving
       where @owner(u) and u.id = leaving.id
      returning u.*, leaving.pool_id as left_pool_id, leaving.tenant_ids as left_tenant_ids, leaving.email_verified as left_email_verified),
    changed as (
      select u.id::text as target_id, case when u.pool_id = '${SHARED_POOL}' then u.left_pool_id else u.pool_id end as tenant_id,
             ${userSnapshotSql('u', { pool_id: 'u.left_pool_id', tenant_ids: 'u.left_tenant_ids', email_verified: 'u.left_email_verified' })} as before,
             ${userSnapshotSql('u')} as after
        from moved as u)`,
    params: [SHARED_POOL],
  });
}

/** Upstream links and passkeys are their user's, wherever they went. */
async function moveToTheirUsersPools(em: EntityManager, applicationId: string): Promise<void> {
  for (const { table } of [UPSTREAM_LINKS, PASSKEYS]) {
    await executeOwned(
      em,
      applicationId,
      `update ${table} as r set pool_id = u.pool_id
         from app_user as u
        where @owner(r) and u.application_id = r.application_id and u.id = r.user_id and u.pool_id <> r.pool_id`,
    );
  }
}
