import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';

/** `apiKeyId` is recorded beside the actor, who differs from it when a Bearer token came too. */
export type AuditActor = Pick<Scope, 'applicationId' | 'tenantId' | 'requestId'> & {
  principal: { actor: { type: string; id: string }; apiKeyId?: string | null };
};
import { AuditLog } from '../../db/entities/index.ts';
import type { AuditOutcome } from '../../db/entities/audit-log.entity.ts';
import type { AuditAction } from './actions.ts';
import { NEW_ID_SQL, newId } from '../../ids.ts';
import { ownedSql } from '../../db/owned-sql.ts';
import { currentRequestOrigin } from '../../http/request-origin.ts';

export interface AuditEntry {
  action: AuditAction;
  targetType: string;
  targetId: string | null;
  /** Defaults to the scope's. */
  tenantId?: string | null;
  /** With no tenant, the tenants whose administrators it concerns too (a shared-pool user's): they read it as theirs. */
  memberTenantIds?: readonly string[] | null;
  before?: unknown;
  after?: unknown;
  /** A change that commits succeeded (the default). */
  outcome?: AuditOutcome;
}

/** Through the mutation's own EntityManager, so the record commits or rolls back with the change it describes. */
export function recordAudit(em: EntityManager, scope: AuditActor, entry: AuditEntry): void {
  const origin = currentRequestOrigin();
  em.create(AuditLog, {
    applicationId: scope.applicationId,
    id: newId(),
    tenantId: entry.tenantId === undefined ? scope.tenantId : entry.tenantId,
    memberTenantIds: entry.memberTenantIds == null ? null : [...entry.memberTenantIds],
    actorType: scope.principal.actor.type,
    actorId: scope.principal.actor.id,
    apiKeyId: scope.principal.apiKeyId ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    requestId: scope.requestId,
    ip: origin?.ip ?? null,
    userAgent: origin?.userAgent ?? null,
    outcome: entry.outcome ?? 'success',
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

export interface ChangedRows {
  /** `changed` returns `target_id` (text), `before`, `after` (jsonb) and `tenant_id` with `tenantPerRow`. A data-modifying
   *  statement must be a CTE (PostgreSQL nests none). `@owner` is the application. */
  readonly ctes: string;
  readonly params: readonly unknown[];
  readonly tenantPerRow?: boolean;
  /** `changed` also returns each row's `action` and `target_type`, in place of the entry's. */
  readonly actionPerRow?: boolean;
}

/** In the change's statement and transaction (`em`'s), not built in memory. Returns the targets' ids. */
export async function recordAuditPerRow(
  em: EntityManager,
  scope: AuditActor,
  entry: Pick<AuditEntry, 'action' | 'targetType' | 'tenantId' | 'outcome'>,
  changed: ChangedRows,
): Promise<string[]> {
  const rows = await recordAuditPerRowThen<{ target_id: string }>(em, scope, entry, changed, 'select target_id from audited');
  return rows.map((row) => row.target_id);
}

/** As recordAuditPerRow, answering `select` (over the CTEs and `audited`, the records' `target_id`s). */
export async function recordAuditPerRowThen<T extends object>(
  em: EntityManager,
  scope: AuditActor,
  entry: Pick<AuditEntry, 'action' | 'targetType' | 'tenantId' | 'outcome'>,
  changed: ChangedRows,
  select: string,
): Promise<T[]> {
  const tenant = changed.tenantPerRow === true ? [] : [entry.tenantId === undefined ? scope.tenantId : entry.tenantId];
  const kind = changed.actionPerRow === true ? [] : [entry.action, entry.targetType];
  const origin = currentRequestOrigin();
  const ctes = changed.ctes.includes('@owner') ? ownedSql(scope.applicationId, changed.ctes, changed.params) : { sql: changed.ctes, params: changed.params };
  return em.execute<T[]>(
    `with ${ctes.sql},
     audited as (insert into audit_log (application_id, id, tenant_id, actor_type, actor_id, api_key_id, action, target_type, target_id, request_id, ip, user_agent, outcome, before, after, created_at)
     select ?, ${NEW_ID_SQL}, ${changed.tenantPerRow === true ? 'changed.tenant_id' : '?'}, ?, ?, ?, ${changed.actionPerRow === true ? 'changed.action, changed.target_type' : '?, ?'},
            changed.target_id, ?, ?, ?, ?, changed.before, changed.after, now()
       from changed
     returning target_id)
     ${select}`,
    [
      ...ctes.params,
      scope.applicationId,
      ...tenant,
      scope.principal.actor.type,
      scope.principal.actor.id,
      scope.principal.apiKeyId ?? null,
      ...kind,
      scope.requestId,
      origin?.ip ?? null,
      origin?.userAgent ?? null,
      entry.outcome ?? 'success',
    ],
  );
}

/** As the audit log's JSON holds a Date (toISOString: UTC, milliseconds). */
export const isoTimestampSql = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What audit records show of secrets (`secretsSet`): their names, never their values. */
export const secretNames = (secrets: Readonly<Record<string, string>> | null | undefined): string[] => Object.keys(secrets ?? {}).sort();

/** A write's `after` with the names of the secrets it gave a value (`secretsWritten`): a replaced secret leaves
 *  `secretsSet` as it was, and the record would show no change. `changes` maps names to values, null removing one. */
export function withWrittenSecrets(after: Record<string, unknown>, changes: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const written = Object.entries(changes ?? {})
    .filter(([, value]) => typeof value === 'string')
    .map(([name]) => name)
    .sort();
  return written.length === 0 ? after : { ...after, secretsWritten: written };
}

/** secretNames in SQL, sorted as `sort()` sorts (code units). */
export const secretNamesSql = (column: string) =>
  `coalesce((select jsonb_agg(name order by name collate "C") from jsonb_object_keys(${column}) as name), '[]'::jsonb)`;
