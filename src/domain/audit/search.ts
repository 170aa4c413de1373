import type { Scope } from '../../context.ts';
import type { AuditOutcome } from '../../db/entities/audit-log.entity.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { likePrefix } from '../../db/like-prefix.ts';
import { invalid, notFound } from '../../errors.ts';
import { pageSize, scopedList, type Page, type PageArgs } from '../pagination.ts';
import { NAMED_ACTORS } from './actions.ts';
import { EARLIEST_ID_TIME, firstIdAt } from '../../ids.ts';
import { visibleTenantIds } from '../users/users.ts';

export interface AuditRecordView {
  readonly id: string;
  readonly time: Date;
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly actor: { readonly type: string; readonly id: string };
  readonly apiKeyId: string | null;
  readonly action: string;
  readonly target: { readonly type: string; readonly id: string | null };
  readonly outcome: AuditOutcome;
  readonly requestId: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly changes: { readonly before: unknown; readonly after: unknown } | null;
}

export interface AuditFilter {
  /** A user, credential or key id. */
  actor?: string | null;
  /** An API key's id: what was done with it, as the actor or beside a Bearer token. */
  apiKey?: string | null;
  /** An action (`user.created`), or every action of a resource (`user.*`). */
  action?: string | null;
  target?: string | null;
  /** Inclusive. */
  from?: Date | null;
  /** Exclusive. */
  to?: Date | null;
}

export interface AuditRow {
  id: string;
  created_at: Date | string;
  application_id: string;
  tenant_id: string | null;
  actor_type: string;
  actor_id: string;
  api_key_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  outcome: AuditOutcome;
  request_id: string;
  ip: string | null;
  user_agent: string | null;
  before: unknown;
  after: unknown;
}

export const COLUMNS = `id, created_at, application_id, tenant_id, actor_type, actor_id, api_key_id, action, target_type, target_id,
  outcome, request_id, ip, user_agent, before, after`;

/** `resource.verb` (API.md), or every action of a resource: `user.*`, `user.mfa.*`. */
const ACTION = /^[a-z0-9_]+(\.[a-z0-9_]+)*\.([a-z0-9_]+|\*)$/;
const ID_MAX = 200;
const ID_SLACK_MS = 10 * 60_000;

/** Who reads a record: what they may see of a user's memberships (visibleTenantIds). */
export type AuditReader = Pick<Scope['principal'], 'tenantId' | 'permissionsIn'>;

/** Counts of what a change ended across every tenant of its user (a suspension's sessions): other tenants' figures. */
const ACROSS_TENANTS = ['grantsRevoked', 'sessionsEnded'];

/** A snapshot's `tenantIds` (a user's memberships) as the users API shows them to the reader (visibleTenantIds); a reader
 *  shown only some of them is not shown what the change counted across all of them either. */
async function snapshotSeenBy(reader: AuditReader, snapshot: unknown): Promise<unknown> {
  if (typeof snapshot !== 'object' || snapshot === null || !('tenantIds' in snapshot) || !Array.isArray(snapshot.tenantIds)) return snapshot;
  const tenantIds = await visibleTenantIds(reader, snapshot.tenantIds as string[]);
  const seen: Record<string, unknown> = { ...snapshot, tenantIds };
  if (tenantIds.length < snapshot.tenantIds.length) for (const key of ACROSS_TENANTS) delete seen[key];
  return seen;
}

export const view = async (reader: AuditReader, row: AuditRow): Promise<AuditRecordView> => ({
  id: row.id,
  // Raw rows keep the driver's text: the API's timestamps are ISO 8601.
  time: new Date(row.created_at),
  applicationId: row.application_id,
  tenantId: row.tenant_id,
  actor: { type: row.actor_type, id: row.actor_id },
  apiKeyId: row.api_key_id,
  action: row.action,
  target: { type: row.target_type, id: row.target_id },
  outcome: row.outcome,
  requestId: row.request_id,
  ip: row.ip,
  userAgent: row.user_agent,
  changes: row.before === null && row.after === null ? null : { before: await snapshotSeenBy(reader, row.before), after: await snapshotSeenBy(reader, row.after) },
});

/** Every record stamped at or after `from` has an id at or above this (ID_SLACK_MS). */
export const firstIdFrom = (from: Date): string => firstIdAt(new Date(from.getTime() - ID_SLACK_MS));

/** No record predates its UUIDv7 id's epoch, and PostgreSQL holds no year 0: an earlier bound is a mistake. */
function timeFilter(field: string, value: Date): Date {
  if (value < EARLIEST_ID_TIME) throw invalid(field, `${field} must not be before ${EARLIEST_ID_TIME.toISOString()}`);
  return value;
}

/** Any UUID version: ids written by earlier releases or imported are found too. */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A target's id: a UUID, a setting's key (`verify_email`), an OAuth grant's id. */
const TARGET_ID = /^[A-Za-z0-9_-]+$/;

/** Our ids are taken in either case everywhere else and stored lower-case: an upper-case one would find nothing. */
const idValue = (value: string): string => (UUID_SHAPE.test(value) ? value.toLowerCase() : value);

/** A value no record can carry is a mistake (a typo, another field's value), not a search that finds nothing. */
function actorFilter(value: string): string {
  if (!UUID_SHAPE.test(value) && !NAMED_ACTORS.has(value)) throw invalid('actor', 'actor must be a user, credential or key id, or the name of a service job (lockout, …)');
  return idValue(value);
}

function targetFilter(value: string): string {
  if (value.length > ID_MAX || !TARGET_ID.test(value)) throw invalid('target', `target must be an id (letters, digits, - and _) of at most ${ID_MAX} characters`);
  return idValue(value);
}

/** A tenant's records: its own, and those of no tenant about its members (AuditEntry's memberTenantIds). `own` and
 *  `members` each alone, for a search that reads each by its index. */
export type TenantRecords = 'both' | 'own' | 'members';

const TENANT_CLAUSES: Record<TenantRecords, string> = {
  own: 'tenant_id = ?',
  members: 'tenant_id is null and member_tenant_ids is not null and member_tenant_ids @> array[?::uuid]',
  both: '(tenant_id = ? or (tenant_id is null and member_tenant_ids @> array[?::uuid]))',
};

/**
 * Raw SQL, so the entity filters do not apply: the scope (and a tenant scope's tenant) is written here, then the
 * filters, each served by an index that leads with the application. For executeOwned: `@owner` is the application.
 */
export function conditions(scope: Scope, filter: AuditFilter, tenantRecords: TenantRecords = 'both'): { where: string; params: unknown[] } {
  const clauses = ['@owner'];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => (clauses.push(clause), params.push(value));
  if (scope.tenantId !== null) {
    clauses.push(TENANT_CLAUSES[tenantRecords]);
    params.push(...(tenantRecords === 'both' ? [scope.tenantId, scope.tenantId] : [scope.tenantId]));
  }
  if (filter.actor != null) add('actor_id = ?', actorFilter(filter.actor));
  if (filter.apiKey != null) add('api_key_id = ?', filter.apiKey);
  if (filter.target != null) add('target_id = ?', targetFilter(filter.target));
  if (filter.action != null) {
    const { action } = filter;
    if (action.length > ID_MAX || !ACTION.test(action)) throw invalid('action', 'action must be an action (user.created) or a resource’s prefix (user.*)');
    if (action.endsWith('.*')) add(`action like ?`, likePrefix(action.slice(0, -1)));
    else add('action = ?', action);
  }
  // A time range is also a range of ids (UUIDv7), which the primary key serves; the bounds are wider than the times by
  // ID_SLACK_MS, since a record's id and its created_at are taken a moment apart (in a long transaction, seconds).
  if (filter.from != null) {
    add('created_at >= ?', timeFilter('from', filter.from));
    add('id >= ?::uuid', firstIdFrom(filter.from));
  }
  if (filter.to != null) {
    add('created_at < ?', timeFilter('to', filter.to));
    add('id < ?::uuid', firstIdAt(new Date(filter.to.getTime() + ID_SLACK_MS)));
  }
  if (filter.from != null && filter.to != null && filter.from >= filter.to) throw invalid('to', 'to must be later than from');
  return { where: clauses.join(' and '), params };
}

/** A cursor names the filter it was issued for. A tenant's own records and its members' are read by an index each, then
 *  merged: one `or` would read every record of the tenant to sort them. */
export async function listAuditRecords(scope: Scope, { actor, apiKey, action, target, from, to, ...page }: PageArgs & AuditFilter): Promise<Page<AuditRecordView>> {
  const size = pageSize(page);
  const filter = { actor, apiKey, action, target, from, to };
  const list = `${scopedList(scope, 'audit-logs')}:${JSON.stringify([actor, action, target, from, to, apiKey])}`;
  const after = page.cursor == null ? undefined : scope.services.cursors.decode(list, page.cursor);
  const parts = (scope.tenantId === null ? ['both'] : ['own', 'members']) as TenantRecords[];
  const selects = parts.map((part) => {
    const { where, params } = conditions(scope, filter, part);
    return {
      sql: `(select ${COLUMNS} from audit_log where ${where}${after === undefined ? '' : ' and id < ?'} order by id desc limit ?)`,
      params: [...params, ...(after === undefined ? [] : [after]), size + 1],
    };
  });
  const rows = await executeOwned<AuditRow[]>(
    scope.em,
    scope.applicationId,
    selects.length === 1 ? selects[0]!.sql : `select * from (${selects.map((select) => select.sql).join(' union all ')}) as found order by id desc limit ?`,
    [...selects.flatMap((select) => select.params), ...(selects.length === 1 ? [] : [size + 1])],
  );
  const data = await Promise.all(rows.slice(0, size).map((row) => view(scope.principal, row)));
  const last = data.at(-1);
  return { data, next: rows.length > size && last !== undefined ? scope.services.cursors.encode(list, last.id) : null };
}

/** Another application's or (in a tenant scope) another tenant's is not found. */
export async function getAuditRecord(scope: Scope, recordId: string): Promise<AuditRecordView> {
  const { where, params } = conditions(scope, {});
  const [row] = await executeOwned<AuditRow[]>(scope.em, scope.applicationId, `select ${COLUMNS} from audit_log where ${where} and id = ?`, [...params, recordId]);
  if (row === undefined) throw notFound('Audit record', 'recordId');
  return view(scope.principal, row);
}
