import type { EntityManager, RequiredEntityData } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import type { AuthIsolation, CustomizationScope } from '../../db/entities/application.entity.ts';
import { Application } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { newId } from '../../ids.ts';
import { lifetimeWithin } from '../api-keys/api-keys.ts';
import { issueApiKey, recordKeyIssued, type ApiKeyWithSecret, type IssueApiKey } from '../api-keys/issue.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { insertPasswordProvider } from '../auth-providers/auth-providers.ts';
import { assignAppAdmin, createBuiltInRoles } from '../authorization/built-in-roles.ts';
import { endSurfaceSignIns } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { configurationChanged } from '../tenancy/changed.ts';
import { lockForTenancyChange } from '../tenancy/config-lock.ts';
import { paginate, scopedList, type Page, type PageArgs, type Row } from '../pagination.ts';
import { mergePools, splitPoolsByTenant, tenantAuthDataRemaining } from '../tenancy/isolation.ts';
import { displayName } from '../validate.ts';

export interface TenancyConfigInput {
  brandingScope?: CustomizationScope | null;
  emailTemplatesScope?: CustomizationScope | null;
  emailProviderScope?: CustomizationScope | null;
  authIsolation?: AuthIsolation | null;
}

export interface CreateApplicationInput {
  name: string;
  multiTenant?: boolean | null;
  tenancyConfig?: TenancyConfigInput | null;
}

export interface UpdateApplicationInput {
  name?: string | null;
  tenancyConfig?: TenancyConfigInput | null;
  auditRetentionDays?: number | null;
}

export type CreatedApplication = Application & { initialApiKey: ApiKeyWithSecret };

/** The tenancy switches only where tenants exist. */
export function tenancyConfigOf(application: Application) {
  if (!application.multiTenant) return null;
  return {
    brandingScope: application.brandingScope,
    emailTemplatesScope: application.emailTemplatesScope,
    emailProviderScope: application.emailProviderScope,
    authIsolation: application.authIsolation,
  };
}

export function snapshot(application: Application) {
  return {
    name: application.name,
    multiTenant: application.multiTenant,
    tenancyConfig: tenancyConfigOf(application),
    auditRetentionDays: application.auditRetentionDays,
  };
}

/** Migration 0024's check. */
function auditRetentionDays(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw invalid('auditRetentionDays', 'auditRetentionDays must be a whole number of days from 1 to 3650');
  return days;
}

/** The GraphQL `Application` type's codegen mapper. */
export type ApplicationRow = Row<Application>;

export async function listApplications(scope: Scope, args: PageArgs): Promise<Page<ApplicationRow>> {
  return paginate(scope.em, Application, {}, args, scope.services.cursors, scopedList(scope, 'applications'));
}

export async function getApplication(scope: Scope, applicationId: string): Promise<Application> {
  const application = await scope.em.findOne(Application, { id: applicationId });
  if (application === null) throw notFound('Application', 'appId');
  return application;
}

function nonNull<T>(value: T | null | undefined, field: string): T | undefined {
  if (value === null) throw invalid(field, `${field} may not be null`);
  return value;
}

export type NewApplicationRow = RequiredEntityData<Application> & { readonly id: string };

/** With the defaults POST /applications applies (422 for bad input). */
export function newApplicationRow(organizationId: string, input: CreateApplicationInput): NewApplicationRow {
  const name = displayName('name', input.name);
  const multiTenant = input.multiTenant ?? false;
  if (!multiTenant && input.tenancyConfig != null) {
    throw invalid('tenancyConfig', 'A single-tenant application has no tenancy configuration');
  }
  const tenancy = input.tenancyConfig ?? {};
  return {
    id: newId(),
    organizationId,
    name,
    multiTenant,
    brandingScope: nonNull(tenancy.brandingScope, 'tenancyConfig.brandingScope') ?? 'application',
    emailTemplatesScope: nonNull(tenancy.emailTemplatesScope, 'tenancyConfig.emailTemplatesScope') ?? 'application',
    emailProviderScope: nonNull(tenancy.emailProviderScope, 'tenancyConfig.emailProviderScope') ?? 'application',
    authIsolation: nonNull(tenancy.authIsolation, 'tenancyConfig.authIsolation') ?? 'shared',
  };
}

/** Application-wide, bound to no user. */
export type InitialKey = Pick<IssueApiKey, 'name' | 'permissions' | 'expiresAt' | 'secret'>;

/** `application.created` in the actor's application, `api_key.created` in the new one (the API and bootstrap alike). */
export function insertApplication(em: EntityManager, actor: AuditActor, row: NewApplicationRow, key: InitialKey): CreatedApplication {
  const application = insertApplicationRow(em, actor, row);
  const initialApiKey = issueApiKey(em, { applicationId: application.id, tenantId: null, userId: null, ...key });
  recordKeyIssued(em, actor, initialApiKey.key);
  return Object.assign(application, { initialApiKey });
}

/**
 * The application with its built-in roles, its `application.created` record in the actor's application, and its
 * password provider (`passwordConfig`, else the defaults).
 */
export function insertApplicationRow(em: EntityManager, actor: AuditActor, row: NewApplicationRow, passwordConfig?: Record<string, unknown>): Application {
  const application = em.create(Application, row);
  createBuiltInRoles(em, application.id);
  recordAudit(em, actor, { action: 'application.created', targetType: 'application', targetId: application.id, after: snapshot(application) });
  insertPasswordProvider(em, actor, application.id, passwordConfig);
  return application;
}

/**
 * The creator's own permissions and no later expiry than its key: a key may not mint a wider key (requireCovered,
 * lifetimeWithin), and `*` in the new application includes `organizations:*` and `applications:*` there.
 */
function initialKeyFor(scope: Scope): InitialKey {
  const held = scope.permissions;
  const appAdmin = held.covers(BUILT_IN_ROLES.app_admin.permissions);
  return {
    name: appAdmin ? 'Initial app_admin key' : 'Initial key',
    permissions: appAdmin ? [...BUILT_IN_ROLES.app_admin.permissions] : held.allowed(),
    expiresAt: lifetimeWithin(scope, null),
  };
}

/** The operator creating an application (a console user, or acting on another application), made its `app_admin` so it
 *  is in their dashboard, when they hold all of that: creating gives no more than they hold. Null for other creators. */
function creatingOperator(scope: Scope, owner: Application): string | null {
  const { actor, apiKeyId } = scope.principal;
  const operator = actor.type === 'operator' || (actor.type === 'user' && apiKeyId === null && owner.console);
  return operator && scope.permissions.covers(BUILT_IN_ROLES.app_admin.permissions) ? actor.id : null;
}

export async function createApplication(scope: Scope, input: CreateApplicationInput): Promise<CreatedApplication> {
  const owner = await scope.application();
  const row = newApplicationRow(owner.organizationId, input);
  const key = initialKeyFor(scope);
  const operator = creatingOperator(scope, owner);
  return scope.transactional(async (em) => {
    const created = insertApplication(em, scope, row, key);
    if (operator === null) return created;
    // The assignment reads the new application's app_admin role back.
    await em.flush();
    await assignAppAdmin(em, { ...scope, applicationId: created.id, tenantId: null }, { type: 'operator', id: operator });
    return created;
  });
}

/** A shared application's tenants have no path of their own: what was signed in there ends, or going back to isolated
 *  would revive it. Its custom domains stay (none of a tenant's remains) and so does the service's surface. */
async function endTenantPathSignIns(em: EntityManager, scope: Scope, cutoffs: PolicyCutoffs): Promise<void> {
  changed(em, ...grantsEnded(await endSurfaceSignIns(em, scope, scope.services.surfaces.tenantPathIssuers(), 'auth_isolation_shared', cutoffs)));
}

/**
 * Switching `authIsolation` moves users between pools in the same transaction; `isolated` → `shared` is 409 while any
 * tenant holds its own auth data, and ends the sign-ins made on the tenants' paths. The row is held FOR UPDATE
 * throughout (config-lock.ts).
 */
export async function updateApplication(
  scope: Scope,
  applicationId: string,
  input: UpdateApplicationInput,
): Promise<Application> {
  // The policy as the lists judge sign-ins before the switch, whose pools change in its transaction (read before it).
  const cutoffs = input.tenancyConfig?.authIsolation == null ? {} : await grantHoldersCutoffs(scope, scope.em, new Date());
  return scope.transactional(async (em) => {
    const application = await lockForTenancyChange(em, applicationId);
    if (application === null) throw notFound('Application', 'appId');
    const before = snapshot(application);
    const name = nonNull(input.name, 'name');
    if (name !== undefined) application.name = displayName('name', name);
    const retention = nonNull(input.auditRetentionDays, 'auditRetentionDays');
    if (retention !== undefined) application.auditRetentionDays = auditRetentionDays(retention);
    const tenancy = input.tenancyConfig;
    if (tenancy === null) throw invalid('tenancyConfig', 'tenancyConfig may not be null');
    if (tenancy !== undefined) {
      if (!application.multiTenant) {
        throw invalid('tenancyConfig', 'A single-tenant application has no tenancy configuration');
      }
      const brandingScope = nonNull(tenancy.brandingScope, 'tenancyConfig.brandingScope');
      const emailTemplatesScope = nonNull(tenancy.emailTemplatesScope, 'tenancyConfig.emailTemplatesScope');
      const emailProviderScope = nonNull(tenancy.emailProviderScope, 'tenancyConfig.emailProviderScope');
      const authIsolation = nonNull(tenancy.authIsolation, 'tenancyConfig.authIsolation');
      if (brandingScope !== undefined) application.brandingScope = brandingScope;
      if (emailTemplatesScope !== undefined) application.emailTemplatesScope = emailTemplatesScope;
      if (emailProviderScope !== undefined) application.emailProviderScope = emailProviderScope;
      if (authIsolation !== undefined && authIsolation !== application.authIsolation) {
        if (authIsolation === 'shared') {
          const remaining = await tenantAuthDataRemaining(em, application.id);
          if (remaining.length > 0) {
            throw new GatehouseError(
              'tenant_auth_data_remains',
              'Tenants still hold tenant-specific auth data; remove it before sharing the auth stack',
              { field: 'tenancyConfig.authIsolation', details: remaining },
            );
          }
          await endTenantPathSignIns(em, scope, cutoffs);
          await mergePools(em, scope);
        } else {
          // On the way back too: whatever stands on the paths was made before the application went shared.
          await endTenantPathSignIns(em, scope, cutoffs);
          await splitPoolsByTenant(em, scope, cutoffs);
        }
        application.authIsolation = authIsolation;
      }
    }
    recordUpdate(em, scope, application, before, input);
    configurationChanged(em, application.id, null);
    return application;
  });
}

/**
 * A write of the tenancy switches is `tenancy_config.updated` (API.md's name), one of the other fields (or of none, a
 * `PATCH {}`) `application.updated`: each is recorded whether or not it changed a value, as every write is.
 */
function recordUpdate(em: EntityManager, scope: Scope, application: Application, before: ReturnType<typeof snapshot>, input: UpdateApplicationInput): void {
  const { tenancyConfig: configBefore, ...fieldsBefore } = before;
  const { tenancyConfig: configAfter, ...fieldsAfter } = snapshot(application);
  const target = { targetType: 'application', targetId: application.id } as const;
  const { tenancyConfig: configWritten, ...fieldsWritten } = input;
  const wroteConfig = configWritten !== undefined;
  if (!wroteConfig || Object.values(fieldsWritten).some((value) => value !== undefined)) {
    recordAudit(em, scope, { action: 'application.updated', ...target, before: fieldsBefore, after: fieldsAfter });
  }
  if (wroteConfig) recordAudit(em, scope, { action: 'tenancy_config.updated', ...target, before: configBefore, after: configAfter });
}

export async function deleteApplication(scope: Scope, applicationId: string): Promise<boolean> {
  return scope.transactional(async (em) => {
    // Held FOR UPDATE, as committed: a second deletion at once waits for this one, then finds nothing (404).
    const application = await lockForTenancyChange(em, applicationId);
    if (application === null) throw notFound('Application', 'appId');
    // Its users are the organization's operators: the dashboard signs in there.
    if (application.console) throw invalid('appId', 'The organization’s console application cannot be deleted');
    const deletion = { action: 'application.deleted', targetType: 'application', targetId: application.id, before: snapshot(application) } as const;
    recordAudit(em, scope, deletion);
    // Its own log outlives every credential that could read it: the organization's console keeps a copy.
    const [console] = await em.getConnection().execute<{ id: string }[]>(
      `select id from application where organization_id = ? and console`,
      [application.organizationId],
      'all',
      em.getTransactionContext(),
    );
    if (console !== undefined) recordAudit(em, { ...scope, applicationId: console.id, tenantId: null }, deletion);
    // The OP's models of its clients (grants, refresh tokens, codes) have no foreign key to cascade: they would stay,
    // with their users' claims, until they expire. Rows made before a client was known (sessions) carry no application.
    await executeOwned(em, application.id, 'delete from oidc_model where @owner');
    // Its records stay its retention, then go (src/domain/audit/retention.ts): the job has no row of it left to read it from.
    await em
      .getConnection()
      .execute(
        'insert into deleted_application (application_id, audit_retention_days, deleted_at) values (?, ?, now())',
        [application.id, application.auditRetentionDays],
        'run',
        em.getTransactionContext(),
      );
    em.remove(application);
    // Its API keys went with it (cascade).
    changed(em, { kind: 'application', id: application.id });
    return true;
  });
}
