import { FULL_PAGE, readAllPages } from './all-pages.ts';
import { graphql } from './api.ts';
import { callInScope, type NamedTenant, type Page, type SettingsScope } from './operations.ts';
import type { MayDo } from './operations-own-permissions.ts';
import { getTenantChoices, type TenantChoices } from './operations-tenant-choices.ts';

// Roles, the permission catalogue and role assignments, all on the managed application's path.

export interface RoleSummary {
  readonly id: string;
  readonly name: string;
  /** Null: application-wide; else the tenant's own role. */
  readonly tenantId: string | null;
}

export interface Role extends RoleSummary {
  readonly key: string;
  readonly description: string;
  /** Built-in permissions, `resource:*`, `*`, and keys of custom permissions. */
  readonly permissions: readonly string[];
  /** `app_admin`, `tenant_admin` and `member`: shown, never edited or deleted here. */
  readonly builtIn: boolean;
}

export interface Permission {
  readonly key: string;
  readonly description: string;
  /** Null: built-in or application-wide; else a tenant's own. */
  readonly tenantId: string | null;
  /** The management API's own (`users:read`), which no API resource may define. */
  readonly builtIn: boolean;
}

/** A permission as the catalogue lists it: a custom one is deleted by its id. */
export interface CataloguedPermission extends Permission {
  readonly id: string;
}

/** What a role can be given with: every role, and the tenants of a multi-tenant application. */
export interface RoleChoices extends TenantChoices {
  readonly roles: readonly RoleSummary[];
}

export type RoleSubjectType = 'user' | 'operator' | 'm2m_credential' | 'api_key';

export interface RoleSubject {
  readonly type: RoleSubjectType;
  readonly id: string;
}

/** A role, and where it holds: in one tenant, or (null) in every tenant. */
export interface RoleGrant {
  readonly roleId: string;
  readonly tenantId: string | null;
}

export interface RoleAssignment extends RoleGrant {
  readonly id: string;
  /** `email`: an operator's, read for whoever may assign roles in the application; else null. */
  readonly subject: RoleSubject & { readonly email?: string | null };
}

export interface RoleChanges {
  readonly name: string;
  readonly description: string;
  readonly permissions: readonly string[];
}

export interface NewRole extends RoleChanges {
  readonly key: string;
  /** Null: application-wide; else made as that tenant's own. */
  readonly tenantId: string | null;
}

const ROLE_FIELDS = 'id key name description permissions tenantId builtIn';

export async function getRoleChoices(appId: string, may: MayDo): Promise<RoleChoices> {
  const [tenantChoices, roles] = await Promise.all([getTenantChoices(appId, may), listAllRoles(appId, null)]);
  return { ...tenantChoices, roles };
}

/** What a role can be given with in one tenant's scope, which reads neither the application nor its other tenants. */
export async function getTenantRoleChoices(appId: string, tenant: NamedTenant): Promise<RoleChoices> {
  return { multiTenant: true, tenants: [tenant], roles: await listAllRoles(appId, tenant.id) };
}

/** Every role (null `tenantId`), or those a tenant's members can be given: the application-wide ones and the tenant's own. */
export function listAllRoles(appId: string, tenantId: string | null): Promise<readonly RoleSummary[]> {
  const query = `query RoleSummaries($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    roles(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { id name tenantId } next }
  }`;
  return readAllPages(async (cursor) => {
    const data = await graphql<{ roles: Page<RoleSummary> }>(query, { appId, tenantId, pageSize: FULL_PAGE, cursor }, { applicationId: appId });
    return data.roles;
  });
}

/** Every role, application-wide (built-in first) and the tenants' own. */
export async function listRoles(appId: string, cursor: string | null): Promise<Page<Role>> {
  const query = `query Roles($appId: UUID!, $pageSize: Int, $cursor: String) {
    roles(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { ${ROLE_FIELDS} } next }
  }`;
  const data = await graphql<{ roles: Page<Role> }>(query, { appId, pageSize: 25, cursor }, { applicationId: appId });
  return data.roles;
}

/** The whole catalogue, every page: the built-in permissions, then the application's and its tenants' own. */
export function listPermissionCatalogue(appId: string): Promise<readonly CataloguedPermission[]> {
  const query = `query PermissionCatalogue($appId: UUID!, $pageSize: Int, $cursor: String) {
    permissions(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { id key description tenantId builtIn } next }
  }`;
  return readAllPages(async (cursor) => {
    const data = await graphql<{ permissions: Page<CataloguedPermission> }>(query, { appId, pageSize: FULL_PAGE, cursor }, { applicationId: appId });
    return data.permissions;
  });
}

/** The server refuses a key taken in the scope (409) and one of the management API's resources (422 on `key`). */
export async function createPermission(appId: string, tenantId: string | null, input: { key: string; description: string }): Promise<CataloguedPermission> {
  const mutation = `mutation CreatePermission($appId: UUID!, $tenantId: UUID, $input: CreatePermissionInput!) {
    createPermission(appId: $appId, tenantId: $tenantId, input: $input) { id key description tenantId builtIn }
  }`;
  const data = await graphql<{ createPermission: CataloguedPermission }>(mutation, { appId, tenantId, input }, { applicationId: appId });
  return data.createPermission;
}

/** Every role holding it leaves it, and every API resource listing it. */
export async function deletePermission(appId: string, permissionId: string): Promise<void> {
  const mutation = 'mutation DeletePermission($appId: UUID!, $permissionId: UUID!) { deletePermission(appId: $appId, permissionId: $permissionId) }';
  await graphql<{ deletePermission: boolean }>(mutation, { appId, permissionId }, { applicationId: appId });
}

export async function createRole(appId: string, { tenantId, ...input }: NewRole): Promise<Role> {
  const mutation = `mutation CreateRole($appId: UUID!, $tenantId: UUID, $input: CreateRoleInput!) {
    createRole(appId: $appId, tenantId: $tenantId, input: $input) { ${ROLE_FIELDS} }
  }`;
  const data = await graphql<{ createRole: Role }>(mutation, { appId, tenantId, input }, { applicationId: appId });
  return data.createRole;
}

export async function updateRole(appId: string, roleId: string, input: RoleChanges): Promise<Role> {
  const mutation = `mutation UpdateRole($appId: UUID!, $roleId: UUID!, $input: UpdateRoleInput!) {
    updateRole(appId: $appId, roleId: $roleId, input: $input) { ${ROLE_FIELDS} }
  }`;
  const data = await graphql<{ updateRole: Role }>(mutation, { appId, roleId, input }, { applicationId: appId });
  return data.updateRole;
}

export async function deleteRole(appId: string, roleId: string): Promise<void> {
  const mutation = 'mutation DeleteRole($appId: UUID!, $roleId: UUID!) { deleteRole(appId: $appId, roleId: $roleId) }';
  await graphql<{ deleteRole: boolean }>(mutation, { appId, roleId }, { applicationId: appId });
}

/** Every subject of a kind's assignments (the application's operators), or with `subjectId` one subject's. */
/** The assignments the scope sees: in a tenant's, those made there and the application-wide ones of its subjects. */
export async function listRoleAssignments(
  scope: SettingsScope,
  filter: { subjectType: RoleSubjectType; subjectId?: string },
  cursor: string | null,
): Promise<Page<RoleAssignment>> {
  const query = `query RoleAssignments($appId: UUID!, $tenantId: UUID, $subjectType: RoleSubjectType, $subjectId: UUID, $pageSize: Int, $cursor: String) {
    roleAssignments(appId: $appId, tenantId: $tenantId, subjectType: $subjectType, subjectId: $subjectId, pageSize: $pageSize, cursor: $cursor) {
      data { id subject { type id email } roleId tenantId }
      next
    }
  }`;
  const data = await callInScope<{ roleAssignments: Page<RoleAssignment> }>(query, scope, { ...filter, pageSize: FULL_PAGE, cursor });
  return data.roleAssignments;
}

/** The server refuses a role the caller could not hand out (403) and the same grant twice (409). */
export async function assignRole(scope: SettingsScope, subject: RoleSubject, grant: RoleGrant): Promise<RoleAssignment> {
  const mutation = `mutation AssignRole($appId: UUID!, $tenantId: UUID, $input: CreateRoleAssignmentInput!) {
    createRoleAssignment(appId: $appId, tenantId: $tenantId, input: $input) { id subject { type id } roleId tenantId }
  }`;
  const input = { subject, roleId: grant.roleId, tenantId: grant.tenantId };
  const data = await callInScope<{ createRoleAssignment: RoleAssignment }>(mutation, scope, { input });
  return data.createRoleAssignment;
}

export async function removeRoleAssignment(scope: SettingsScope, assignmentId: string): Promise<void> {
  const mutation = `mutation RemoveRoleAssignment($appId: UUID!, $tenantId: UUID, $assignmentId: UUID!) {
    deleteRoleAssignment(appId: $appId, tenantId: $tenantId, assignmentId: $assignmentId)
  }`;
  await callInScope<{ deleteRoleAssignment: boolean }>(mutation, scope, { assignmentId });
}
