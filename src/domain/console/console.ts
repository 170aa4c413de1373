import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { lockedTransaction } from '../../db/advisory-lock.ts';
import { PermissionSet, type Permission } from '../../auth/permissions.ts';
import { OAuthClient, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import type { Scope } from '../../context.ts';
import { newId } from '../../ids.ts';
import { insertApplicationRow, newApplicationRow } from '../applications/applications.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { assignAppAdmin } from '../authorization/built-in-roles.ts';
import { oauthClientSnapshot } from '../oauth-clients/oauth-clients.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { issueLink } from '../users/link-tokens.ts';
import { userSnapshot } from '../users/users.ts';
import { DASHBOARD_CLIENT_SQL, dashboardUrl } from './dashboard-client.ts';

const CONSOLE_ACTOR = { type: 'system', id: 'console' } as const;

/** `.localhost` is reserved (RFC 6761): no one else's address. */
export const DEFAULT_OPERATOR_EMAIL = 'admin@gatehouse.localhost';

export interface FirstOperatorOutcome {
  readonly email: string;
  readonly passwordLink: string | null;
}

/** At each start, as PUBLIC_URL may have changed; locked, so that instances starting together make one console. */
export async function ensureConsoles(orm: MikroORM, publicUrl: string, requestId: string, firstOperator?: FirstOperator): Promise<FirstOperatorOutcome | null> {
  return lockedTransaction(orm.em.fork(), 'gatehouse:console', async (em) => {
    const organizations = await em.getConnection().execute<{ id: string; console_id: string | null }[]>(
      `select o.id, (select a.id from application as a where a.organization_id = o.id and a.console order by a.id limit 1) as console_id
         from organization as o order by o.id`,
      [],
      'all',
      em.getTransactionContext(),
    );
    const dashboardClients: string[] = [];
    for (const organization of organizations) {
      const consoleId = organization.console_id ?? createConsole(em, organization.id, requestId);
      dashboardClients.push(await ensureDashboardClient(em, consoleId, publicUrl, requestId));
    }
    const [oldest] = dashboardClients;
    if (oldest === undefined) return null;
    // The roles of a console made above are read back by the statements below.
    await em.flush();
    return ensureFirstOperator(em, { dashboardClientId: oldest, publicUrl, requestId }, firstOperator);
  });
}

/** `gatehouse bootstrap`'s organization gets its console now and, unless the oldest (whose first operator a start
 *  makes), its first operator: a start makes no other organization's. */
export async function ensureOrganizationConsole(orm: MikroORM, publicUrl: string, requestId: string, organizationId: string): Promise<FirstOperatorOutcome | null> {
  return lockedTransaction(orm.em.fork(), 'gatehouse:console', async (em) => {
    const [organization] = await em.getConnection().execute<{ console_id: string | null; oldest: boolean }[]>(
      `select (select a.id from application as a where a.organization_id = o.id and a.console order by a.id limit 1) as console_id,
              not exists (select 1 from organization as p where p.id < o.id) as oldest
         from organization as o where o.id = ?`,
      [organizationId],
      'all',
      em.getTransactionContext(),
    );
    if (organization === undefined) return null;
    const consoleId = organization.console_id ?? createConsole(em, organizationId, requestId);
    const dashboardClientId = await ensureDashboardClient(em, consoleId, publicUrl, requestId);
    if (organization.oldest) return null;
    await em.flush();
    return ensureFirstOperator(em, { dashboardClientId, publicUrl, requestId }, undefined);
  });
}

/** At each start: a new link for each later organization's first operator who set no password; none is made here. */
export async function laterOperatorLinks(orm: MikroORM, publicUrl: string, requestId: string): Promise<(FirstOperatorOutcome & { readonly organizationId: string })[]> {
  return lockedTransaction(orm.em.fork(), 'gatehouse:console', async (em) => {
    const consoles = await em.getConnection().execute<{ organization_id: string; client_id: string }[]>(
      `select distinct on (a.organization_id) a.organization_id, c.id as client_id from application as a
         join oauth_client as c on c.application_id = a.id and ${DASHBOARD_CLIENT_SQL}
        where a.console and a.organization_id <> (select o.id from organization as o order by o.id limit 1)
        order by a.organization_id, c.id`,
      [dashboardUrl(publicUrl)],
      'all',
      em.getTransactionContext(),
    );
    const links = [];
    for (const { organization_id: organizationId, client_id: dashboardClientId } of consoles) {
      const link = await ensureFirstOperator(em, { dashboardClientId, publicUrl, requestId }, undefined, false);
      if (link !== null) links.push({ organizationId, ...link });
    }
    return links;
  });
}

function createConsole(em: EntityManager, organizationId: string, requestId: string): string {
  const row = { ...newApplicationRow(organizationId, { name: 'Console' }), console: true };
  const actor: AuditActor = { applicationId: row.id, tenantId: null, requestId, principal: { actor: CONSOLE_ACTOR } };
  // Operators are made by operators: no sign-up.
  insertApplicationRow(em, actor, row, { allowSignup: false });
  return row.id;
}

/** Its name tells the clients the service made from the operators' own, which may be at a `/dashboard/` path too. */
const DASHBOARD_CLIENT_NAME = 'Gatehouse dashboard';

/** Earlier PUBLIC_URLs' clients go: whoever later holds a host the service left would get the operators' codes. */
async function ensureDashboardClient(em: EntityManager, consoleId: string, publicUrl: string, requestId: string): Promise<string> {
  const redirect = dashboardUrl(publicUrl);
  const actor: AuditActor = { applicationId: consoleId, tenantId: null, requestId, principal: { actor: CONSOLE_ACTOR } };
  const dashboards = await em.find(OAuthClient, { applicationId: consoleId, type: 'spa', managementApi: true }, { filters: false, orderBy: { id: 'asc' } });
  let current: string | undefined;
  for (const client of dashboards) {
    // DASHBOARD_CLIENT_SQL's condition: the client the page serves and the management API keeps from changes.
    if (current === undefined && client.revokedAt == null && client.redirectUris.length === 1 && client.redirectUris[0] === redirect) {
      current = client.id;
      if (client.initiateLoginUri !== redirect) {
        const before = oauthClientSnapshot(client);
        client.initiateLoginUri = redirect;
        recordAudit(em, actor, { action: 'oauth_client.updated', targetType: 'oauth_client', targetId: client.id, before, after: oauthClientSnapshot(client) });
      }
      continue;
    }
    if (client.name !== DASHBOARD_CLIENT_NAME || client.redirectUris.length !== 1 || !client.redirectUris[0]!.endsWith('/dashboard/')) continue;
    recordAudit(em, actor, { action: 'oauth_client.deleted', targetType: 'oauth_client', targetId: client.id, before: oauthClientSnapshot(client) });
    em.remove(client);
  }
  if (current !== undefined) return current;
  const client = em.create(OAuthClient, {
    applicationId: consoleId,
    id: newId(),
    tenantId: null,
    type: 'spa',
    name: DASHBOARD_CLIENT_NAME,
    redirectUris: [redirect],
    postLogoutRedirectUris: [redirect],
    // Where a done page or a mail leads its operators on: the guess from the redirect URI would be the service's root.
    initiateLoginUri: redirect,
    allowedOrigins: [],
    authMethod: 'none',
    jwks: null,
    permissions: [],
    managementApi: true,
    secretEncrypted: null,
    previousSecretEncrypted: null,
    previousSecretExpiresAt: null,
    revokedAt: null,
  });
  recordAudit(em, actor, { action: 'oauth_client.created', targetType: 'oauth_client', targetId: client.id, after: oauthClientSnapshot(client) });
  return client.id;
}

/** The dashboard's client at `publicUrl` of `organizationId`'s console, else of the oldest organization's, and that organization. */
export async function dashboardClientOf(
  connection: SqlRunner,
  publicUrl: string,
  organizationId?: string,
): Promise<{ readonly clientId: string; readonly organizationId: string } | null> {
  const [row] = (await connection.execute(
    `select c.id, a.organization_id from application as a
       join oauth_client as c on c.application_id = a.id and ${DASHBOARD_CLIENT_SQL}
      where a.console ${organizationId === undefined ? '' : 'and a.organization_id = ?'}
      order by a.organization_id, c.id limit 1`,
    organizationId === undefined ? [dashboardUrl(publicUrl)] : [dashboardUrl(publicUrl), organizationId],
  )) as { id: string; organization_id: string }[];
  return row === undefined ? null : { clientId: row.id, organizationId: row.organization_id };
}

/** Whether `applicationId` is another application of the console's organization and, if so, whether the operator holds a
 *  role there (application-wide or in a tenant): what `managedApplications` lists. One statement, asked on every request. */
export async function operatorPlace(connection: SqlRunner, consoleId: string, operatorId: string, applicationId: string): Promise<'elsewhere' | 'unassigned' | 'managed'> {
  const [row] = (await connection.execute(
    `select exists (select 1 from role_assignment as a left join tenant as t on t.application_id = a.application_id and t.id = a.tenant_id
                     where a.application_id = m.id and a.subject_type = 'operator' and a.subject_id = ? and (a.tenant_id is null or t.id is not null)) as held
       from application as c join application as m on m.organization_id = c.organization_id and not m.console
      where c.id = ? and c.console and m.id = ?`,
    [operatorId, consoleId, applicationId],
  )) as { held: boolean }[];
  return row === undefined ? 'elsewhere' : row.held ? 'managed' : 'unassigned';
}

/** Keys and credentials are no operators. */
export async function listManagedApplications(scope: Scope): Promise<{ data: ManagedApplication[]; next: null; consolePermissions: Permission[] }> {
  const { actor, apiKeyId } = scope.principal;
  if (actor.type !== 'user' || apiKeyId !== null) return { data: [], next: null, consolePermissions: [] };
  const data = await managedApplications(scope.em.getConnection(), scope.applicationId, actor.id);
  return { data, next: null, consolePermissions: scope.permissions.allowed() };
}

export interface ManagedTenant {
  readonly id: string;
  readonly name: string;
  /** The management API's permissions the operator holds there: their application-wide roles' and the tenant's. */
  readonly permissions: Permission[];
}

export interface ManagedApplication {
  readonly id: string;
  readonly name: string;
  readonly multiTenant: boolean;
  /** The management API's permissions the operator's application-wide roles give them (none: tenants only). */
  readonly permissions: Permission[];
  /** Null when the operator holds a role application-wide. */
  readonly tenants: ManagedTenant[] | null;
}

interface HeldRow {
  id: string;
  name: string;
  multi_tenant: boolean;
  tenant_id: string | null;
  tenant_name: string | null;
  permissions: string[];
}

export async function managedApplications(connection: SqlRunner, consoleId: string, operatorId: string): Promise<ManagedApplication[]> {
  const rows = (await connection.execute(
    `select m.id, m.name, m.multi_tenant, a.tenant_id, t.name as tenant_name, r.permissions
       from application as c
       join application as m on m.organization_id = c.organization_id and not m.console
       join role_assignment as a on a.application_id = m.id and a.subject_type = 'operator' and a.subject_id = ?
       join role as r on r.application_id = a.application_id and r.id = a.role_id
       left join tenant as t on t.application_id = a.application_id and t.id = a.tenant_id
      where c.id = ? and c.console and (a.tenant_id is null or t.id is not null)
      order by m.name, m.id`,
    [operatorId, consoleId],
  )) as HeldRow[];
  const byApplication = new Map<string, HeldRow[]>();
  for (const row of rows) byApplication.set(row.id, [...(byApplication.get(row.id) ?? []), row]);
  return [...byApplication.values()].map((held) => {
    const { id, name, multi_tenant: multiTenant } = held[0]!;
    const wide = held.filter((row) => row.tenant_id === null).flatMap((row) => row.permissions);
    const tenants = new Map<string, { name: string; grants: string[] }>();
    for (const row of held) {
      if (row.tenant_id === null) continue;
      const tenant = tenants.get(row.tenant_id) ?? { name: row.tenant_name!, grants: [] };
      tenants.set(row.tenant_id, { ...tenant, grants: [...tenant.grants, ...row.permissions] });
    }
    const byName = [...tenants]
      .map(([tenantId, tenant]) => ({ id: tenantId, name: tenant.name, permissions: new PermissionSet([...wide, ...tenant.grants]).allowed() }))
      .sort((one, other) => one.name.localeCompare(other.name) || one.id.localeCompare(other.id));
    const applicationWide = held.some((row) => row.tenant_id === null);
    return { id, name, multiTenant, permissions: new PermissionSet(wide).allowed(), tenants: applicationWide ? null : byName };
  });
}

export interface FirstOperator {
  readonly email: string;
  /** Hashed before the transaction, which should not wait on Argon2. */
  readonly passwordHash: string;
}

interface ConsoleStart {
  readonly dashboardClientId: string;
  readonly publicUrl: string;
  readonly requestId: string;
}

/** API.md, Bootstrap. A link lasts half an hour, so each start gives another while no password is set. */
async function ensureFirstOperator(em: EntityManager, start: ConsoleStart, configured: FirstOperator | undefined, create = true): Promise<FirstOperatorOutcome | null> {
  const [target] = await em.getConnection().execute<{ console_id: string; application_id: string | null; users: number; passwordless: string | null }[]>(
    `select c.id as console_id,
            (select m.id from application as m where m.organization_id = c.organization_id and not m.console order by m.id limit 1) as application_id,
            (select count(*) from app_user as u where u.application_id = c.id)::int as users,
            (select u.id from app_user as u where u.application_id = c.id and u.password_hash is null and u.email_normalized = ? limit 1) as passwordless
       from oauth_client as d join application as c on c.id = d.application_id
      where d.id = ?`,
    [normalizeEmail(DEFAULT_OPERATOR_EMAIL), start.dashboardClientId],
    'all',
    em.getTransactionContext(),
  );
  if (target === undefined) return null;
  const consoleId = target.console_id;
  const linkFor = async (userId: string) =>
    (await issueLink(em, { applicationId: consoleId, userId, poolId: SHARED_POOL, opener: { type: 'oauth_client', id: start.dashboardClientId }, tenantId: null }, 'password_reset', start.publicUrl)).link;
  if (target.users > 0) {
    // Never a link for an operator made since: they may be meant to sign in otherwise.
    if (target.users > 1 || target.passwordless === null) return null;
    const [{ email }] = await executeOwned<[{ email: string }]>(em, consoleId, 'select email from app_user where @owner and id = ?', [target.passwordless]);
    return { email, passwordLink: await linkFor(target.passwordless) };
  }
  if (!create) return null;
  const actor: AuditActor = { applicationId: consoleId, tenantId: null, requestId: start.requestId, principal: { actor: CONSOLE_ACTOR } };
  const email = configured?.email ?? DEFAULT_OPERATOR_EMAIL;
  const user = em.create(User, {
    applicationId: consoleId,
    id: newId(),
    poolId: SHARED_POOL,
    email,
    emailNormalized: normalizeEmail(email),
    name: null,
    metadata: {},
    status: 'active',
    tenantIds: [],
    passwordHash: configured?.passwordHash ?? null,
  });
  recordAudit(em, actor, { action: 'user.created', targetType: 'user', targetId: user.id, after: userSnapshot(user) });
  await assignAppAdmin(em, actor, { type: 'user', id: user.id });
  if (target.application_id !== null) await assignAppAdmin(em, { ...actor, applicationId: target.application_id }, { type: 'operator', id: user.id });
  // The link's row names the user, whose row must be written first.
  await em.flush();
  return { email, passwordLink: configured === undefined ? await linkFor(user.id) : null };
}
