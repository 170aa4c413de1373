import type { ApiResource, ApiResourceDraft, DefinedPermissions, PermissionRow } from './operations-api-resources.ts';

export const EMPTY_PERMISSION_ROW: PermissionRow = { key: '', description: '' };

export const NEW_RESOURCE_DRAFT: ApiResourceDraft = { name: '', identifier: '', permissions: [EMPTY_PERMISSION_ROW] };

/** A resource as its edit form starts: each permission with the description the application gives it. */
export function draftOf(resource: ApiResource, defined: DefinedPermissions): ApiResourceDraft {
  const permissions = resource.permissions.map((key) => ({ key, description: defined.get(key) ?? '' }));
  return { name: resource.name, identifier: resource.identifier, permissions };
}
