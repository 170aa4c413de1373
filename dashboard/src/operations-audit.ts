import { ApiError, graphql, subscribe } from './api.ts';
import { listUsers, type Page, type SettingsScope } from './operations.ts';
import { isItemType, nameFieldOf, readNames, type ItemReference } from './operations-names.ts';

// The Audit log tab's calls (field names as in schema/audit-logs.graphql), and the names its table shows.

const PAGE_SIZE = 25;

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

export interface AuditFilter {
  readonly tenantId?: string;
  readonly action?: string;
  readonly actor?: string;
  readonly target?: string;
  readonly from?: string;
  readonly to?: string;
}

/** A record with the names its references stand for, else their ids (an organization or application: useKnownNames). */
export interface NamedAuditRecord extends AuditRecord {
  readonly actorName: string;
  /** Empty for a target without an id (a setting of the application). */
  readonly targetName: string;
  /** Empty for the application's own events. */
  readonly tenantName: string;
}

const RECORD_FIELDS = `fragment AuditRecordFields on AuditRecord {
  id time tenantId actor { type id } apiKeyId action target { type id } outcome requestId ip userAgent changes { before after }
}`;

const tenantOf = (record: AuditRecord): AuditReference => ({ type: 'tenant', id: record.tenantId });

interface AssignmentSnapshot {
  readonly roleId: string;
  readonly subjectType: string;
  readonly subjectId: string;
}

const isAssignmentSnapshot = (value: unknown): value is AssignmentSnapshot =>
  typeof value === 'object' && value !== null && ['roleId', 'subjectType', 'subjectId'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string');

/** The role and subject a role assignment's record names (its id alone says nothing), else null. */
function assignmentOf(record: AuditRecord): AssignmentSnapshot | null {
  if (record.target.type !== 'role_assignment') return null;
  const snapshot = record.changes?.after ?? record.changes?.before;
  return isAssignmentSnapshot(snapshot) ? snapshot : null;
}

/** Targets no list names, by the field their snapshots name them with. */
const RECORDED_NAME_FIELDS: Readonly<Record<string, string>> = { auth_provider: 'name', domain: 'hostname' };

/** The name the record's own snapshot gives its target, as it was then: for one deleted since, or of a type no list
 *  names. Undefined without one (a session, a setting). */
function recordedTargetName(record: AuditRecord): string | undefined {
  const { type } = record.target;
  const field = isItemType(type) ? nameFieldOf(type) : RECORDED_NAME_FIELDS[type];
  const snapshot = record.changes?.after ?? record.changes?.before;
  if (field === undefined || typeof snapshot !== 'object' || snapshot === null) return undefined;
  const name = (snapshot as Record<string, unknown>)[field];
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** Names read for the whole page at once, else as the record's snapshot names its target; what neither names (a
 *  session, an actor deleted since) stands for its id. */
async function named(place: SettingsScope, records: readonly AuditRecord[]): Promise<NamedAuditRecord[]> {
  const references = records.flatMap((record) => {
    const assignment = assignmentOf(record);
    const parts = assignment === null ? [] : [{ type: 'role', id: assignment.roleId }, { type: assignment.subjectType, id: assignment.subjectId }];
    return [record.actor, record.target, tenantOf(record), ...parts];
  });
  const nameable = references.flatMap(({ type, id }): ItemReference[] => (isItemType(type) && id !== null ? [{ type, id }] : []));
  const nameIn = await readNames(place, nameable);
  const nameOf = ({ type, id }: AuditReference) => (id === null ? '' : (nameIn(type, id) ?? id));
  const targetNameOf = (record: AuditRecord) => {
    const assignment = assignmentOf(record);
    if (assignment === null) {
      const { type, id } = record.target;
      return id === null ? '' : (nameIn(type, id) ?? recordedTargetName(record) ?? id);
    }
    const { roleId, subjectType, subjectId } = assignment;
    return `role ${nameOf({ type: 'role', id: roleId })} → ${subjectType} ${nameOf({ type: subjectType, id: subjectId })}`;
  };
  return records.map((record) => ({ ...record, actorName: nameOf(record.actor), targetName: targetNameOf(record), tenantName: nameOf(tenantOf(record)) }));
}

/** The variables of a search of the log where it is shown: a tenant's place searches that tenant's records alone. */
const searchOf = ({ appId, tenantId }: SettingsScope, filter: AuditFilter) => ({ appId, ...filter, ...(tenantId === null ? {} : { tenantId }) });

/** The records of the application's log or, in a tenant's place (an operator of that tenant), of that tenant's. */
export async function listAuditRecords(place: SettingsScope, filter: AuditFilter, cursor: string | null): Promise<Page<NamedAuditRecord>> {
  const query = `query AuditLogs($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String, $actor: String, $action: String,
    $target: String, $from: DateTime, $to: DateTime) {
    auditLogs(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor, actor: $actor, action: $action, target: $target,
      from: $from, to: $to) { data { ...AuditRecordFields } next }
  }
  ${RECORD_FIELDS}`;
  const data = await graphql<{ auditLogs: Page<AuditRecord> }>(query, { ...searchOf(place, filter), pageSize: PAGE_SIZE, cursor }, { applicationId: place.appId });
  return { data: await named(place, data.auditLogs.data), next: data.auditLogs.next };
}

/** The most users one address may name: one per pool, each tenant's own while authentication is isolated. */
const SAME_ADDRESS_MAX = 100;

interface Addressed {
  readonly id: string;
  readonly email: string;
}

/** An address whole (`email`, compared as sign-in compares it) or its start (`emailPrefix`), in a tenant if given. */
interface AddressFilter {
  readonly email?: string;
  readonly emailPrefix?: string;
  readonly tenantId?: string;
}

/** The application's users, or with `appId` null the console's, its operators (read as the operator themself). */
async function usersByEmail(appId: string | null, filter: AddressFilter, pageSize: number): Promise<readonly Addressed[]> {
  const variables = { ...filter, pageSize };
  if (appId === null) {
    const query = `query OperatorsByEmail($email: String, $emailPrefix: String, $pageSize: Int) {
      users(email: $email, emailPrefix: $emailPrefix, pageSize: $pageSize) { data { id email } }
    }`;
    return (await graphql<{ users: Page<Addressed> }>(query, variables)).users.data;
  }
  const query = `query UsersByEmail($appId: UUID!, $tenantId: UUID, $email: String, $emailPrefix: String, $pageSize: Int) {
    users(appId: $appId, tenantId: $tenantId, email: $email, emailPrefix: $emailPrefix, pageSize: $pageSize) { data { id email } }
  }`;
  return (await graphql<{ users: Page<Addressed> }>(query, { appId, ...variables }, { applicationId: appId })).users.data;
}

/** The console's operators with the address; none for an operator who may not read them there (most hold no console role). */
async function operatorsByEmail(email: string): Promise<readonly Addressed[]> {
  try {
    return await usersByEmail(null, { email }, 1);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') return [];
    throw error;
  }
}

export async function suggestEmails(place: SettingsScope, prefix: string): Promise<string[]> {
  const found = await Promise.all([listUsers(place, prefix, null).then((page) => page.data), usersByEmail(null, { emailPrefix: prefix }, PAGE_SIZE).catch(() => [])]);
  return [...new Set(found.flat().map((user) => user.email))];
}

export interface AddressedReference {
  readonly type: 'user' | 'operator';
  readonly id: string;
}

/** Among the application's users (isolated pools: one per tenant, `tenantId` picks) and the console's operators; an
 *  address of both a user and an operator is refused with both ids. */
export async function referenceByEmail(appId: string, field: string, email: string, tenantId: string | undefined): Promise<AddressedReference> {
  const [users, operators] = await Promise.all([usersByEmail(appId, { email, tenantId }, SAME_ADDRESS_MAX), operatorsByEmail(email)]);
  const refuse = (message: string) => new ApiError(message, 'not_found', [], field);
  const [user, ...otherUsers] = users;
  const [operator] = operators;
  if (otherUsers.length > 0) throw refuse(`${users.length} users have the address ${email}, one per tenant: pick the tenant to search for its own.`);
  if (user !== undefined && operator !== undefined) {
    throw refuse(`${email} is both a user of the application (ID ${user.id}) and an operator (ID ${operator.id}): search by the ID of the one you mean.`);
  }
  if (user !== undefined) return { type: 'user', id: user.id };
  if (operator !== undefined) return { type: 'operator', id: operator.id };
  throw refuse(`No user${tenantId === undefined ? '' : ' of this tenant'} and no operator has the address ${email}.`);
}

/** Follows the records committed after `after` (a record id; null: from now on), oldest first; returns the unsubscribe. */
export function followAuditRecords(
  place: SettingsScope,
  filter: AuditFilter,
  after: string | null,
  onRecord: (record: NamedAuditRecord) => void,
  onEnd: (message: string, failed: boolean) => void,
): () => void {
  const query = `subscription FollowAuditLogs($appId: UUID!, $tenantId: UUID, $after: UUID, $actor: String, $action: String, $target: String,
    $from: DateTime, $to: DateTime) {
    auditLogs(appId: $appId, tenantId: $tenantId, after: $after, actor: $actor, action: $action, target: $target, from: $from, to: $to) {
      ...AuditRecordFields
    }
  }
  ${RECORD_FIELDS}`;
  // Each record waits for its names, in a chain: one whose names come sooner does not overtake an earlier one.
  let handed = Promise.resolve();
  let following = true;
  // A stream asked again (its access token renewed) resumes after the last record received: none is lost or repeated.
  let last = after;
  const unsubscribe = subscribe<{ auditLogs: AuditRecord }>(query, () => ({ ...searchOf(place, filter), after: last }), { applicationId: place.appId }, {
    next: (data) => {
      last = data.auditLogs.id;
      const naming = named(place, [data.auditLogs]);
      handed = handed.then(async () => {
        const [record] = await naming;
        // Once unsubscribed, none is handed on: following again resumes after the newest record shown.
        if (following && record !== undefined) onRecord(record);
      });
    },
    end: onEnd,
  });
  return () => {
    following = false;
    unsubscribe();
  };
}
