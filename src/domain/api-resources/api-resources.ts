import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { ApiResource, CustomPermission } from '../../db/entities/index.ts';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_SHARE, HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { definePermission, permissionDefinition, type CreatePermissionInput, type PermissionDefinition } from '../authorization/permission-definition.ts';
import { authorizationLock } from '../authorization/writes.ts';
import { uniquely } from '../db-errors.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { displayName, holdsNul } from '../validate.ts';
import { resourceIdentifier } from './identifier.ts';

export interface CreateApiResourceInput {
  identifier: string;
  name: string;
  permissions?: string[] | null;
  newPermissions?: CreatePermissionInput[] | null;
}

export interface UpdateApiResourceInput {
  identifier?: string | null;
  name?: string | null;
  permissions?: string[] | null;
  newPermissions?: CreatePermissionInput[] | null;
}

export type ApiResourceRow = Row<ApiResource>;

const MAX_PERMISSIONS = 100;

const snapshot = (resource: ApiResource) => ({ identifier: resource.identifier, name: resource.name, permissions: [...resource.permissions] });

const ALREADY_REGISTERED = 'An API resource with this identifier';

/** Registrations of one identifier take turns at it on every instance, so two applications cannot both pass. */
const identifierLock = (identifier: string) => `api-resource-identifier:${identifier}`;

/** 409 when another application holds `identifier`: all tokens share the service's issuer, so a resource server checking
 *  `iss` and `aud` (RFC 9068) trusts whoever holds its identifier. The transaction began in its turn at identifierLock. */
async function assertIdentifierFree(em: EntityManager, scope: Scope, identifier: string): Promise<void> {
  await lockForTransaction(em, identifierLock(identifier));
  // Across applications on purpose (a scan of a small table, on writes only).
  const elsewhere = await em.count(ApiResource, { identifier, applicationId: { $ne: scope.applicationId } }, { filters: false });
  if (elsewhere > 0) {
    throw new GatehouseError('already_exists', 'Another application has an API resource with this identifier: identifiers are unique across the service', {
      field: 'identifier',
    });
  }
}

export async function listApiResources(scope: Scope, args: PageArgs): Promise<Page<ApiResourceRow>> {
  // Application-level rows: a tenant scope reads the application's resources, which serve every tenant.
  return paginate(scope.em, ApiResource, {}, args, scope.services.cursors, scopedList(scope, 'api_resources'));
}

async function findResource(em: EntityManager, resourceId: string, lock = false): Promise<ApiResource> {
  const resource = await em.findOne(ApiResource, { id: resourceId }, lock ? HOLD_FOR_UPDATE : {});
  if (resource === null) throw notFound('API resource', 'resourceId');
  return resource;
}

export async function getApiResource(scope: Scope, resourceId: string): Promise<ApiResource> {
  return findResource(scope.em, resourceId);
}

/** API.md: `resource:action`, lower-case `[a-z0-9_-]` parts. */
const PERMISSION_KEY = /^[a-z0-9_-]{1,100}:[a-z0-9_-]{1,100}$/;

function permissionKeys(keys: readonly string[] | null | undefined): string[] {
  if (keys === null) throw invalid('permissions', 'permissions may not be null');
  const unique = [...new Set(keys ?? [])];
  if (unique.length > MAX_PERMISSIONS) throw invalid('permissions', `permissions may hold at most ${MAX_PERMISSIONS} keys`);
  const malformed = unique.find((key) => !PERMISSION_KEY.test(key));
  if (malformed !== undefined) throw invalid('permissions', `${JSON.stringify(malformed.slice(0, 200))} is no permission key (resource:action)`);
  return unique;
}

/** New permissions the resource defines, as POST /permissions takes them (422 naming the field), each key once. */
function newPermissions(inputs: readonly CreatePermissionInput[] | null | undefined): PermissionDefinition[] {
  if (inputs == null) return [];
  if (inputs.length > MAX_PERMISSIONS) throw invalid('newPermissions', `newPermissions may hold at most ${MAX_PERMISSIONS} permissions`);
  const definitions = inputs.map((input, index) => permissionDefinition(input, `newPermissions[${index}]`));
  const twice = definitions.findIndex((definition, index) => definitions.findIndex((other) => other.key === definition.key) !== index);
  if (twice >= 0) throw invalid(`newPermissions[${twice}].key`, `${definitions[twice]!.key} is listed twice`);
  return definitions;
}

/** Defining permissions takes `permissions:write` too (403), as POST /permissions does. */
function requireMayDefine(scope: Scope, defined: readonly PermissionDefinition[]): void {
  if (defined.length > 0 && !scope.permissions.allows('permissions:write')) {
    throw new GatehouseError('forbidden', 'Missing permission permissions:write (to define permissions)');
  }
}

/** `listed` and the new ones, the new ones defined first in the caller's transaction (409 naming one already defined).
 *  The caller took the application's authorization lock before any row lock, as a permission's deletion does before
 *  locking the resources listing it: the other order could deadlock. */
async function resourcePermissions(em: EntityManager, scope: Scope, listed: readonly string[], defined: readonly PermissionDefinition[]): Promise<string[]> {
  const permissions = permissionKeys([...listed, ...defined.map((definition) => definition.key)]);
  for (const [index, definition] of defined.entries()) await definePermission(em, scope, definition, `newPermissions[${index}].key`);
  const definedKeys = new Set(defined.map((definition) => definition.key));
  await assertDefined(em, permissions.filter((key) => !definedKeys.has(key)));
  return permissions;
}

/** Held FOR SHARE until the write commits, so a permission deleted meanwhile waits, then removes itself from the resource
 *  (removePermissionFromApiResources). Else 422 naming the first unknown key. */
async function assertDefined(em: EntityManager, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const rows = await em.find(CustomPermission, { key: { $in: [...keys] }, tenantId: null }, HOLD_FOR_SHARE);
  const defined = new Set(rows.map((row) => row.key));
  const unknown = keys.find((key) => !defined.has(key));
  if (unknown !== undefined) {
    throw invalid('permissions', `Unknown permission ${JSON.stringify(unknown)}: an API resource's permissions are the application's own: define it with newPermissions, or POST /permissions first`);
  }
}

/** Application-wide scopes only: it serves every tenant. */
export async function createApiResource(scope: Scope, input: CreateApiResourceInput): Promise<ApiResource> {
  const identifier = resourceIdentifier(scope.services.signingKeys.managementAudience, input.identifier);
  const name = displayName('name', input.name);
  const listed = permissionKeys(input.permissions ?? []);
  const defined = newPermissions(input.newPermissions);
  scope.requireApplicationWide();
  requireMayDefine(scope, defined);
  const created = await uniquely('identifier', ALREADY_REGISTERED, () =>
    scope.transactional(async (em) => {
      await assertIdentifierFree(em, scope, identifier);
      const permissions = await resourcePermissions(em, scope, listed, defined);
      const resource = em.create(ApiResource, { applicationId: scope.applicationId, id: newId(), identifier, name, permissions });
      recordAudit(em, scope, { action: 'api_resource.created', targetType: 'api_resource', targetId: resource.id, tenantId: null, after: snapshot(resource) });
      return resource;
    }, [authorizationLock(scope.applicationId), identifierLock(identifier)]),
  );
  return created;
}

/** Tokens already issued keep what they carry until they expire; the next grant follows the change. */
export async function updateApiResource(scope: Scope, resourceId: string, input: UpdateApiResourceInput): Promise<ApiResource> {
  if (input.identifier === null) throw invalid('identifier', 'identifier may not be null');
  if (input.name === null) throw invalid('name', 'name may not be null');
  const identifier = input.identifier === undefined ? undefined : resourceIdentifier(scope.services.signingKeys.managementAudience, input.identifier);
  const name = input.name === undefined ? undefined : displayName('name', input.name);
  if (input.newPermissions === null) throw invalid('newPermissions', 'newPermissions may not be null');
  const listed = input.permissions === undefined ? undefined : permissionKeys(input.permissions);
  const defined = newPermissions(input.newPermissions);
  scope.requireApplicationWide();
  requireMayDefine(scope, defined);
  const permissionsChange = listed !== undefined || defined.length > 0;
  const updated = await uniquely('identifier', ALREADY_REGISTERED, () =>
    scope.transactional(async (em) => {
      const resource = await findResource(em, resourceId, true);
      const before = snapshot(resource);
      // Saving the identifier again claims it once its first registrant no longer holds it (migration 0060).
      if (identifier !== undefined && (identifier !== resource.identifier || resource.identifierHeldElsewhere)) {
        await assertIdentifierFree(em, scope, identifier);
        resource.identifierHeldElsewhere = false;
      }
      if (identifier !== undefined) resource.identifier = identifier;
      if (name !== undefined) resource.name = name;
      // New permissions without a list join the resource's own.
      if (permissionsChange) resource.permissions = await resourcePermissions(em, scope, listed ?? resource.permissions, defined);
      recordAudit(em, scope, { action: 'api_resource.updated', targetType: 'api_resource', targetId: resource.id, tenantId: null, before, after: snapshot(resource) });
      return resource;
    }, [...(permissionsChange ? [authorizationLock(scope.applicationId)] : []), ...(identifier === undefined ? [] : [identifierLock(identifier)])]),
  );
  return updated;
}

/** From the commit, a grant naming its identifier is `invalid_target`. */
export async function deleteApiResource(scope: Scope, resourceId: string): Promise<boolean> {
  scope.requireApplicationWide();
  return scope.transactional(async (em) => {
    const resource = await findResource(em, resourceId, true);
    recordAudit(em, scope, { action: 'api_resource.deleted', targetType: 'api_resource', targetId: resource.id, tenantId: null, before: snapshot(resource) });
    em.remove(resource);
    return true;
  });
}

/** In the caller's transaction, one audit record per resource: the permission's deletion calls it. */
export async function removePermissionFromApiResources(em: EntityManager, scope: AuditActor, key: string): Promise<void> {
  const listing = await em.find(ApiResource, { applicationId: scope.applicationId, permissions: { $contains: [key] } }, HOLD_FOR_UPDATE);
  for (const resource of listing) {
    const before = snapshot(resource);
    resource.permissions = resource.permissions.filter((permission) => permission !== key);
    recordAudit(em, scope, { action: 'api_resource.updated', targetType: 'api_resource', targetId: resource.id, tenantId: null, before, after: snapshot(resource) });
  }
}

/** Null when there is no such resource (`invalid_target`). */
export async function readResourcePermissions(connection: PostgreSqlConnection, applicationId: string, identifier: string): Promise<string[] | null> {
  // A request's `resource`: PostgreSQL cannot compare a text holding NUL, and no identifier holds one.
  if (holdsNul(identifier)) return null;
  const [row] = await executeOwned<{ permissions: string[] }[]>(
    connection,
    applicationId,
    'select permissions from api_resource where @owner and identifier = ? and not identifier_held_elsewhere',
    [identifier],
  );
  return row?.permissions ?? null;
}
