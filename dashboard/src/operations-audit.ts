import { graphql, subscribe } from './api.ts';
import type { Page, TenantSummary } from './operations.ts';
import { listConsoleUsers } from './operations-operators.ts';
import { listAllTenants } from './operations-tenant-choices.ts';

// The Audit log tab's calls (field names as in schema/audit-logs.graphql), and the names its table shows.

const PAGE_SIZE = 25;
/** The largest page the API gives: the users, keys and clients whose names stand for their ids, read in one page each. */
const FULL_PAGE = 100;

export interface AuditReference {
  readonly type: string;
  readonly id: string | null;
}

export interface AuditRecord {
  readonly id: string;
  readonly time: string;
  readonly tenantId: string | null;
  readonly actor: AuditReference;
  readonly apiKeyId: string | null;
  readonly action: string;
  readonly target: AuditReference;
  readonly outcome: 'success' | 'failure';
  readonly requestId: string;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly changes: { readonly before: unknown; readonly after: unknown } | null;
}

/** The search's filters as the API takes them; `from` and `to` are ISO instants. */
export interface AuditFilter {
  readonly tenantId?: string;
  readonly action?: string;
  readonly actor?: string;
  readonly target?: string;
  readonly from?: string;
  readonly to?: string;
}

export interface AuditDirectory {
  readonly multiTenant: boolean;
  readonly tenants: readonly TenantSummary[];
  /** Names (a user's or operator's e-mail) by `{type}:{id}`, for the references the table shows. */
  readonly names: ReadonlyMap<string, string>;
}

const RECORD_FIELDS = `fragment AuditRecordFields on AuditRecord {
  id time tenantId actor { type id } apiKeyId action target { type id } outcome requestId ip userAgent changes { before after }
}`;

export async function listAuditRecords(appId: string, filter: AuditFilter, cursor: string | null): Promise<Page<AuditRecord>> {
  const query = `query AuditLogs($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String, $actor: String, $action: String,
    $target: String, $from: DateTime, $to: DateTime) {
    auditLogs(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor, actor: $actor, action: $action, target: $target,
      from: $from, to: $to) { data { ...AuditRecordFields } next }
  }
  ${RECORD_FIELDS}`;
  const data = await graphql<{ auditLogs: Page<AuditRecord> }>(query, { appId, pageSize: PAGE_SIZE, cursor, ...filter }, { applicationId: appId });
  return data.auditLogs;
}

/** Follows the records committed after `after` (a record id; null: from now on), oldest first; returns the unsubscribe. */
export function followAuditRecords(
  appId: string,
  filter: AuditFilter,
  after: string | null,
  onRecord: (record: AuditRecord) => void,
  onEnd: (message: string) => void,
): () => void {
  const query = `subscription FollowAuditLogs($appId: UUID!, $tenantId: UUID, $after: UUID, $actor: String, $action: String, $target: String,
    $from: DateTime, $to: DateTime) {
    auditLogs(appId: $appId, tenantId: $tenantId, after: $after, actor: $actor, action: $action, target: $target, from: $from, to: $to) {
      ...AuditRecordFields
    }
  }
  ${RECORD_FIELDS}`;
  return subscribe<{ auditLogs: AuditRecord }>(query, { appId, after, ...filter }, { applicationId: appId }, {
    next: (data) => onRecord(data.auditLogs),
    end: onEnd,
  });
}

/** The lists whose names stand for the ids of the references of their `type` (an actor, a target). */
const NAMED_LISTS = [
  { type: 'user', list: 'users', name: 'email' },
  { type: 'api_key', list: 'apiKeys', name: 'name' },
  { type: 'm2m_credential', list: 'm2mCredentials', name: 'name' },
  { type: 'oauth_client', list: 'oauthClients', name: 'name' },
] as const;

type Names = readonly (readonly [string, string])[];

async function namesOf(appId: string, { type, list, name }: (typeof NAMED_LISTS)[number]): Promise<Names> {
  const query = `query AuditNames($appId: UUID!, $pageSize: Int) { list: ${list}(appId: $appId, pageSize: $pageSize) { data { id name: ${name} } } }`;
  const data = await graphql<{ list: { data: { id: string; name: string }[] } }>(query, { appId, pageSize: FULL_PAGE }, { applicationId: appId });
  return data.list.data.map((item) => [`${type}:${item.id}`, item.name]);
}

async function operatorNames(): Promise<Names> {
  return (await listConsoleUsers()).map((user) => [`operator:${user.id}`, user.email]);
}

// A name only stands in for an id: a list the operator may not read leaves the ids shown.
const orNone = (names: Promise<Names>): Promise<Names> => names.catch(() => []);

/** Whether the application has tenants, its tenants, and the names of its users, keys, clients, operators and tenants. */
export async function getAuditDirectory(appId: string): Promise<AuditDirectory> {
  const query = 'query AuditApplication($appId: UUID!) { application(appId: $appId) { multiTenant } }';
  const [{ application }, ...names] = await Promise.all([
    graphql<{ application: { multiTenant: boolean } }>(query, { appId }, { applicationId: appId }),
    orNone(operatorNames()),
    ...NAMED_LISTS.map((list) => orNone(namesOf(appId, list))),
  ]);
  const tenants = application.multiTenant ? await listAllTenants(appId) : [];
  const tenantNames = tenants.map((tenant) => [`tenant:${tenant.id}`, tenant.name] as const);
  return { multiTenant: application.multiTenant, tenants, names: new Map([...names.flat(), ...tenantNames]) };
}

/** A reference as the table shows it: its name when known, else its id (a setting of the application has none). */
export function referenceName(directory: AuditDirectory, reference: AuditReference): string {
  if (reference.id === null) return '';
  return directory.names.get(`${reference.type}:${reference.id}`) ?? reference.id;
}
