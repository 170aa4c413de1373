import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import type { AuditAction } from '../audit/actions.ts';
import type { SettingFeature } from '../../db/entities/setting.entity.ts';
import { keySnapshotSql } from '../api-keys/issue.ts';
import { recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { authProviderSnapshotSql } from '../auth-providers/auth-providers.ts';
import { permissionSnapshotSql } from '../authorization/permission-definition.ts';
import { assignmentSnapshotSql, removeAssignments } from '../authorization/role-assignments.ts';
import { roleSnapshotSql } from '../authorization/roles.ts';
import { domainSnapshotSql } from '../domains/domains.ts';
import { adoptAccountDeletedMails } from '../email/deferred-mail.ts';
import { deliverySnapshotSql } from '../email/outbox.ts';
import { invitationSnapshotSql } from '../invitations/invitations.ts';
import { senderDomainSnapshotSql } from '../email/sender-domain.ts';
import { m2mCredentialSnapshotSql } from '../m2m-credentials/m2m-credentials.ts';
import { oauthClientSnapshotSql } from '../oauth-clients/oauth-clients.ts';
import { endTenantSessions } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { GOVERNING_SWITCH, removedOverrideSql } from '../tenancy/settings.ts';

/** The rows a tenant owns besides its users, which a cascade would take unrecorded: each kind deleted in one statement
 *  writing an audit record per row (no secrets), so the log's target and tenant filters find every one. */
interface OwnedKind {
  readonly action: AuditAction;
  readonly targetType: string;
  readonly table: string;
  /** The row is `r`; all of the tenant's rows of `table` when absent. */
  readonly where?: string;
  readonly params?: readonly unknown[];
  readonly targetId?: string;
  readonly before: string;
}

const SETTING_FEATURES = Object.keys(GOVERNING_SWITCH) as SettingFeature[];

/** The rollups (docs/audit.md, "Analytics") keyed by series: the application's, or one tenant's. */
const ANALYTICS_TABLES = ['analytics_active_user', 'analytics_active_users', 'analytics_sign_ins'] as const;

const OWNED_KINDS: readonly OwnedKind[] = [
  { action: 'api_key.deleted', targetType: 'api_key', table: 'api_key', before: keySnapshotSql('r') },
  { action: 'oauth_client.deleted', targetType: 'oauth_client', table: 'oauth_client', where: `r.type <> 'm2m'`, before: oauthClientSnapshotSql('r') },
  { action: 'm2m_credential.deleted', targetType: 'm2m_credential', table: 'oauth_client', where: `r.type = 'm2m'`, before: m2mCredentialSnapshotSql('r') },
  // As "Remove tenant override" records them (branding.ts, templates.ts, provider.ts, policies.ts).
  ...SETTING_FEATURES.map((feature): OwnedKind => ({
    action: `${feature}.override.removed`,
    targetType: feature,
    table: 'setting',
    where: 'r.feature = ?',
    params: [feature],
    targetId: `nullif(r.key, '')`,
    before: removedOverrideSql('r'),
  })),
  { action: 'auth_provider.deleted', targetType: 'auth_provider', table: 'auth_provider', before: authProviderSnapshotSql('r') },
  { action: 'domain.deleted', targetType: 'domain', table: 'domain', before: domainSnapshotSql('r') },
  // Assignments before their roles, roles before the permissions they hold: each as its own deletion records it.
  { action: 'role_assignment.deleted', targetType: 'role_assignment', table: 'role_assignment', before: assignmentSnapshotSql('r') },
  { action: 'role.deleted', targetType: 'role', table: 'role', before: roleSnapshotSql('r') },
  { action: 'permission.deleted', targetType: 'permission', table: 'permission', before: permissionSnapshotSql('r') },
  { action: 'email_delivery.deleted', targetType: 'email_delivery', table: 'email_delivery', before: deliverySnapshotSql('r') },
  { action: 'invitation.deleted', targetType: 'invitation', table: 'invitation', before: invitationSnapshotSql('r') },
  { action: 'email_sender_domain.deleted', targetType: 'email_sender_domain', table: 'email_sender_domain', before: senderDomainSnapshotSql('r') },
];

/** Every table with a foreign key to `tenant` (a test checks): `user_session` ends by endTenantSessions, `revoked_sign_in`
 *  goes by the cascade unrecorded, and a mailed link ends (endLinksOfTenantOutbox), its row kept as the application's. */
export const TENANT_OWNED_TABLES: readonly string[] = [
  ...new Set([...OWNED_KINDS.map((kind) => kind.table), 'user_session', 'revoked_sign_in', 'email_link_token']),
].sort();

/** In the caller's transaction (holding the tenant's row), a constant number of statements; before the tenant's users
 *  go, so a tenant key bound to one of them is recorded too. */
export async function removeTenantOwnedRows(em: EntityManager, actor: AuditActor, tenantId: string, cutoffs: PolicyCutoffs): Promise<void> {
  // The application-wide roles of the tenant's keys and credentials (those held in the tenant go with its rows below).
  await removeAssignments(
    em,
    actor,
    `a.tenant_id is null and (a.subject_type = 'api_key' and a.subject_id in (select k.id from api_key as k where k.application_id = a.application_id and k.tenant_id = ?)
       or a.subject_type = 'm2m_credential' and a.subject_id in (select c.id from oauth_client as c where c.application_id = a.application_id and c.tenant_id = ?))`,
    [tenantId, tenantId],
  );
  // Sign-ins end with what the OP keeps of them (sessions, grants, tokens), before the clients their index rows name go.
  await endTenantSessions(em, actor, [tenantId], null, cutoffs);
  // Before its deliveries go: a deleted account's notice still queued outlives the tenant.
  await adoptAccountDeletedMails(em, actor, tenantId);
  // Its analytics series, which nothing reads once it is gone: its members' marks there are theirs, not the application's.
  for (const table of ANALYTICS_TABLES) await executeOwned(em, actor.applicationId, `delete from ${table} where @owner and scope_tenant_id = ?`, [tenantId]);
  for (const kind of OWNED_KINDS) {
    await recordAuditPerRow(em, actor, { action: kind.action, targetType: kind.targetType, tenantId }, {
      ctes: `changed as (
        delete from ${kind.table} as r where @owner(r) and r.tenant_id = ?${kind.where === undefined ? '' : ` and ${kind.where}`}
        returning ${kind.targetId ?? 'r.id::text'} as target_id, ${kind.before} as before, null::jsonb as after)`,
      params: [tenantId, ...(kind.params ?? [])],
    });
  }
}
