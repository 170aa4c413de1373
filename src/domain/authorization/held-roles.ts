import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import { PermissionSet } from '../../auth/permissions.ts';
import type { RoleSubjectType } from '../../db/entities/role-assignment.entity.ts';
import { InvalidatedCache, type Owners } from '../../events/invalidated-cache.ts';
import { consoleOfSql } from '../console/console-of.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';
import { keyUserMayActNowSql, mayActNowSql } from '../users/sign-in-user.ts';

export interface RoleSubject {
  readonly type: RoleSubjectType;
  readonly id: string;
}

/** In one tenant (or application-wide). */
export interface HeldGrants {
  /** Empty for a user. */
  readonly own: readonly string[];
  /** False for a user who is not a member of the tenant asked about (application-wide roles still hold there). */
  readonly member: boolean;
  /** The user a user-bound API key acts as (and holds while they may act); null otherwise. */
  readonly keyUser: string | null;
  /** What that user holds in the same tenant, which bounds the key (spec: Authentication, rule 1); null for other subjects. */
  readonly keyUserHolds: readonly string[] | null;
  /** A key or M2M credential bound to no tenant: the application's own, which credentials bound to a tenant do not see. */
  readonly applicationWide: boolean;
  readonly roles: readonly { readonly id: string; readonly key: string; readonly permissions: readonly string[] }[];
}

/** Nulls when the subject holds no role; `acts` false: a subject left out only until `until`, all else null. */
type HeldRow = RoleSubject & { acts: boolean; own: string[]; in_tenant: boolean; key_user: string | null; until: Date | string | null; application_wide: boolean | null } & ({ role_id: string; key: string; permissions: string[] } | { role_id: null; key: null; permissions: null });

/** What subjects hold, and when an answer changes with no write to announce it: a key's expiry, a lockout's end. */
export interface Holdings {
  readonly held: Map<string, HeldGrants>;
  readonly until: Map<string, Date>;
}

export const subjectKey = (subject: RoleSubject): string => `${subject.type}:${subject.id}`;

/** Whose rights credentials act with, to be weighed again later: both subjects for a key with a Bearer token. */
export const actingSubjects = (principal: { readonly subjects: readonly RoleSubject[] }): RoleSubject[] => principal.subjects.map(({ type, id }) => ({ type, id }));

/** Whether a role is assigned to the user application-wide: what they hold is then more than any one tenant's. */
export async function holdsApplicationWideRole(connection: SqlRunner, applicationId: string, userId: string): Promise<boolean> {
  const rows = await executeOwned<unknown[]>(
    connection,
    applicationId,
    `select 1 from role_assignment as a where @owner(a) and a.tenant_id is null and a.subject_type = 'user' and a.subject_id = ? limit 1`,
    [userId],
  );
  return rows.length > 0;
}

/** One statement for any number of subjects; one that cannot act in `tenantId` (another application's, inactive, revoked,
 *  expired, bound elsewhere; an operator not of the console) is left out. Application-wide assignments hold in every
 *  tenant (API.md), a tenant's only while the user is a member. `connection`: a transaction's EntityManager reads in it
 *  (the embedded database serves one session at a time). `anyStatus`: suspended and locked subjects count too. */
export async function readHeldGrants(
  connection: SqlRunner,
  applicationId: string,
  tenantId: string | null,
  subjects: readonly RoleSubject[],
  options: { anyStatus?: boolean } = {},
): Promise<Map<string, HeldGrants>> {
  return (await readHoldings(connection, applicationId, tenantId, subjects, options)).held;
}

/** readHeldGrants, with when each answer ends by time alone: a key's expiry, or the end of a lockout that leaves a
 *  subject out (a user's, a key's user's, an operator's). */
export async function readHoldings(
  connection: SqlRunner,
  applicationId: string,
  tenantId: string | null,
  subjects: readonly RoleSubject[],
  { anyStatus = false } = {},
): Promise<Holdings> {
  const held = new Map<string, HeldGrants>();
  const until = new Map<string, Date>();
  if (subjects.length === 0) return { held, until };
  const params: unknown[] = [subjects.map((s) => s.type), subjects.map((s) => s.id)];
  const app = () => (params.push(applicationId), '?');
  const tenant = () => (params.push(tenantId), '?::uuid');
  // A credential bound to a tenant acts there only: application-wide it holds nothing.
  // The console's lookup only where an operator is asked about: never on a key's or user's request.
  const operators = subjects.some((subject) => subject.type === 'operator');
  const mayAct = (alias: string) => (anyStatus ? 'true' : mayActNowSql(alias));
  const inTenant = (alias: string) => (tenantId === null ? ` and ${alias}.tenant_id is null` : ` and (${alias}.tenant_id is null or ${alias}.tenant_id = ${tenant()})`);
  const rows = (await connection.execute(
    `with asked (type, id) as (select * from unnest(array[?]::text[], array[?]::uuid[])),
     -- A user-bound key's user, read beside it: the key holds no more than they do.
     subject (type, id) as (
       select * from asked
       union select 'user', k.user_id from asked as s join api_key as k on s.type = 'api_key' and k.application_id = ${app()} and k.id = s.id
        where k.user_id is not null),
     live as (
       select s.type, s.id, coalesce(k.permissions, c.permissions, '{}'::text[]) as own, k.user_id as key_user, k.expires_at as until,
              coalesce(k.tenant_id, c.tenant_id) is null and (k.id is not null or c.id is not null) as application_wide,
              ${tenantId === null ? 'true' : `coalesce(${tenant()} = any(u.tenant_ids), true)`} as in_tenant
         from subject as s
         left join app_user as u on s.type = 'user' and u.application_id = ${app()} and u.id = s.id and ${mayAct('u')}
         left join api_key as k on s.type = 'api_key' and k.application_id = ${app()} and k.id = s.id and k.revoked_at is null
           and (k.expires_at is null or k.expires_at > now())${inTenant('k')}${anyStatus ? '' : ` and ${keyUserMayActNowSql('k')}`}
         left join oauth_client as c on s.type = 'm2m_credential' and c.application_id = ${app()} and c.id = s.id and c.type = 'm2m'
           and c.revoked_at is null${inTenant('c')}
         ${operators ? `left join app_user as o on s.type = 'operator' and o.application_id = (${consoleOfSql(app())}) and o.id = s.id and ${mayAct('o')}` : ''}
        where u.id is not null or k.id is not null or c.id is not null${operators ? ' or o.id is not null' : ''})
     select true as acts, l.type, l.id, l.own, l.in_tenant, l.key_user, l.until, r.id as role_id, r.key, r.permissions, l.application_wide
       from live as l
       left join role_assignment as a on a.application_id = ${app()} and a.subject_type = l.type and a.subject_id = l.id
         and (a.tenant_id is null${tenantId === null ? '' : ` or (a.tenant_id = ${tenant()} and l.in_tenant)`})
       left join role as r on r.application_id = a.application_id and r.id = a.role_id
     ${anyStatus ? '' : lockedOutSql(operators, app, inTenant)}`,
    params,
  )) as HeldRow[];
  for (const row of rows) {
    const key = subjectKey(row);
    if (row.until !== null) until.set(key, new Date(row.until));
    if (!row.acts) continue;
    const grants = held.get(key) ?? {
      own: row.own,
      member: row.in_tenant,
      keyUser: row.key_user,
      keyUserHolds: null,
      applicationWide: row.application_wide === true,
      roles: [],
    };
    const roles = row.role_id === null ? grants.roles : [...grants.roles, { id: row.role_id, key: row.key, permissions: row.permissions }];
    held.set(key, { ...grants, roles });
  }
  for (const [key, grants] of held) {
    if (grants.keyUser === null) continue;
    const user = held.get(subjectKey({ type: 'user', id: grants.keyUser }));
    held.set(key, { ...grants, keyUserHolds: user === undefined ? [] : ownGrants(user) });
  }
  return { held, until };
}

/** Rows of subjects left out only by a lockout that ends, with its end. Built in place: `app` and `inTenant` push their
 *  parameters in the statement's order. */
function lockedOutSql(operators: boolean, app: () => string, inTenant: (alias: string) => string): string {
  const lockedOut = (alias: string) => `${alias}.status = 'locked' and ${alias}.locked_until > now()`;
  return `union all
     select false, s.type, s.id, null, null, null, coalesce(lu.locked_until, lku.locked_until${operators ? ', lo.locked_until' : ''}), null, null, null, null
       from subject as s
       left join app_user as lu on s.type = 'user' and lu.application_id = ${app()} and lu.id = s.id and ${lockedOut('lu')}
       left join api_key as lk on s.type = 'api_key' and lk.application_id = ${app()} and lk.id = s.id and lk.revoked_at is null
         and (lk.expires_at is null or lk.expires_at > now())${inTenant('lk')}
       left join app_user as lku on lku.application_id = lk.application_id and lku.id = lk.user_id and ${lockedOut('lku')}
       ${operators ? `left join app_user as lo on s.type = 'operator' and lo.application_id = (${consoleOfSql(app())}) and lo.id = s.id and ${lockedOut('lo')}` : ''}
      where lu.id is not null or lku.id is not null${operators ? ' or lo.id is not null' : ''}`;
}

/** Null when the subject cannot act there. */
interface Holding {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly subject: RoleSubject;
  readonly held: HeldGrants | null;
  /** When the answer ends by time alone (readHoldings). */
  readonly until: Date | null;
}

/** The invalidation that announces a change to a subject's own row: an operator's is their console user's. */
const SUBJECT_INVALIDATION = { user: 'user', api_key: 'api_key', m2m_credential: 'oauth_client', operator: 'user' } as const;

function holdingOwners({ applicationId, tenantId, subject, held }: Holding): Owners {
  return {
    roles: applicationId,
    application: applicationId,
    tenant: tenantId,
    [SUBJECT_INVALIDATION[subject.type]]: subject.id,
    // A user's memberships, which decide where they may act, are announced for the whole application.
    ...(subject.type === 'user' ? { users: applicationId } : {}),
    // A user-bound key holds while its user may act and what they hold (their memberships count, announced as `users`);
    // a key that holds nothing may be one whose user will act again.
    ...(subject.type === 'api_key' ? (held === null || held.keyUser !== null ? { users: applicationId, user: held?.keyUser ?? null } : {}) : {}),
  };
}

/** Per instance for `ttlMs` at most, so a warm cache costs no SQL; dropped on every instance when roles, assignments,
 *  permissions, the subject, its tenant or application change. Subjects that cannot act are remembered too. */
export class HeldGrantsCache {
  private readonly cache: InvalidatedCache<Holding>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.cache = new InvalidatedCache<Holding>(bus, ttlMs, holdingOwners);
  }

  async read(
    connection: PostgreSqlConnection,
    applicationId: string,
    tenantId: string | null,
    subjects: readonly RoleSubject[],
  ): Promise<Map<string, HeldGrants>> {
    const scopeKey = `${applicationId}|${tenantId ?? ''}|`;
    const subjectOf = new Map<string, RoleSubject>();
    for (const subject of subjects) subjectOf.set(scopeKey + subjectKey(subject), subject);
    const now = Date.now();
    for (const key of subjectOf.keys()) {
      const until = this.cache.get(key)?.until;
      if (until != null && until.getTime() <= now) this.cache.delete(key);
    }
    const holdings = await this.cache.findMany([...subjectOf.keys()], async (missing) => {
      const wanted = missing.map((key) => subjectOf.get(key)!);
      const read = await readHoldings(connection, applicationId, tenantId, wanted);
      return new Map(
        wanted.map((subject, index) => {
          const key = subjectKey(subject);
          return [missing[index]!, { applicationId, tenantId, subject, held: read.held.get(key) ?? null, until: read.until.get(key) ?? null }];
        }),
      );
    });
    const held = new Map<string, HeldGrants>();
    for (const { subject, held: grants } of holdings.values()) if (grants !== null) held.set(subjectKey(subject), grants);
    return held;
  }
}

/** A subject's own list and its roles' permissions, before its key's user (if any) bounds them. */
const ownGrants = (held: HeldGrants): string[] => [...held.own, ...held.roles.flatMap((role) => role.permissions)];

export function grantsOf(held: HeldGrants | undefined): PermissionSet {
  if (held === undefined) return new PermissionSet([]);
  const grants = new PermissionSet(ownGrants(held));
  return held.keyUserHolds === null ? grants : grants.intersect(new PermissionSet(held.keyUserHolds));
}

/** Whether a subject holds `permission` (any key, the application's own too), within its key's user's if it has one. */
export function holdsPermission(held: HeldGrants, permission: string): boolean {
  return new PermissionSet(ownGrants(held)).allows(permission) && (held.keyUserHolds === null || new PermissionSet(held.keyUserHolds).allows(permission));
}

/** An API key and a Bearer token's subject acting together may only what both may (spec: Authentication, rule 2); no
 *  subject, or one that cannot act there, may do nothing. */
export function jointPermissions(held: ReadonlyMap<string, HeldGrants>, subjects: readonly RoleSubject[]): PermissionSet {
  if (subjects.length === 0) return new PermissionSet([]);
  const [first, ...others] = subjects.map((subject) => grantsOf(held.get(subjectKey(subject))));
  return others.reduce((narrowed, next) => narrowed.intersect(next), first!);
}

/** jointPermissions through the instance's cache. */
export async function effectivePermissions(
  cache: HeldGrantsCache,
  connection: PostgreSqlConnection,
  applicationId: string,
  tenantId: string | null,
  subjects: readonly RoleSubject[],
): Promise<PermissionSet> {
  if (subjects.length === 0) return new PermissionSet([]);
  return jointPermissions(await cache.read(connection, applicationId, tenantId, subjects), subjects);
}
