import { graphql } from './api.ts';
import type { Page } from './operations.ts';
import { listPermissionCatalogue } from './operations-roles.ts';

// Only an application-wide scope may write a resource; its permissions are the application's own.

export interface ApiResource {
  readonly id: string;
  /** The resource indicator a client names as `resource`, and its tokens' `aud`. */
  readonly identifier: string;
  /** Another application registered `identifier` first: grants naming it are refused until it is saved again once free. */
  readonly identifierHeldElsewhere: boolean;
  readonly name: string;
  readonly permissions: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One of a resource's permissions as the form holds it; the description is used when the key is not yet defined. */
export interface PermissionRow {
  readonly key: string;
  readonly description: string;
}

export interface ApiResourceDraft {
  readonly name: string;
  readonly identifier: string;
  readonly permissions: readonly PermissionRow[];
}

/** The application's own application-wide permissions, key → description: those a resource may define. */
export type DefinedPermissions = ReadonlyMap<string, string>;

interface ApiResourceInput {
  readonly name: string;
  readonly identifier: string;
  readonly permissions: readonly string[];
  readonly newPermissions: readonly PermissionRow[];
}

const PAGE_SIZE = 25;
const RESOURCE_FIELDS = 'id identifier identifierHeldElsewhere name permissions createdAt updatedAt';

export async function listApiResources(appId: string, cursor: string | null): Promise<Page<ApiResource>> {
  const query = `query ApiResources($appId: UUID!, $pageSize: Int, $cursor: String) {
    apiResources(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { ${RESOURCE_FIELDS} } next }
  }`;
  const data = await graphql<{ apiResources: Page<ApiResource> }>(query, { appId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.apiResources;
}

export async function listDefinedPermissions(appId: string): Promise<DefinedPermissions> {
  const catalogue = await listPermissionCatalogue(appId);
  return new Map(catalogue.filter((permission) => !permission.builtIn && permission.tenantId === null).map((permission) => [permission.key, permission.description]));
}

function filledRows(rows: readonly PermissionRow[]): PermissionRow[] {
  const filled = rows.map((row) => ({ key: row.key.trim(), description: row.description.trim() })).filter((row) => row.key !== '');
  return filled.filter((row, at) => filled.findIndex((other) => other.key === row.key) === at);
}

/** Keys defined already are listed, the others defined with the resource in its transaction (`newPermissions`), so a
 *  refused save leaves nothing behind. */
async function inputOf(appId: string, draft: ApiResourceDraft): Promise<ApiResourceInput> {
  const rows = filledRows(draft.permissions);
  const defined = await listDefinedPermissions(appId);
  return {
    name: draft.name.trim(),
    identifier: draft.identifier.trim(),
    permissions: rows.filter((row) => defined.has(row.key)).map((row) => row.key),
    newPermissions: rows.filter((row) => !defined.has(row.key)),
  };
}

export async function createApiResource(appId: string, draft: ApiResourceDraft): Promise<ApiResource> {
  const mutation = `mutation CreateApiResource($appId: UUID!, $input: CreateApiResourceInput!) {
    createApiResource(appId: $appId, input: $input) { ${RESOURCE_FIELDS} }
  }`;
  const data = await graphql<{ createApiResource: ApiResource }>(mutation, { appId, input: await inputOf(appId, draft) }, { applicationId: appId });
  return data.createApiResource;
}

/** Saving the identifier claims one held elsewhere (409 while held), so a rename leaves it out (`withIdentifier` false). */
export async function updateApiResource(appId: string, resourceId: string, draft: ApiResourceDraft, withIdentifier: boolean): Promise<ApiResource> {
  const mutation = `mutation UpdateApiResource($appId: UUID!, $resourceId: UUID!, $input: UpdateApiResourceInput!) {
    updateApiResource(appId: $appId, resourceId: $resourceId, input: $input) { ${RESOURCE_FIELDS} }
  }`;
  const { identifier, ...unchanged } = await inputOf(appId, draft);
  const input = withIdentifier ? { ...unchanged, identifier } : unchanged;
  const data = await graphql<{ updateApiResource: ApiResource }>(mutation, { appId, resourceId, input }, { applicationId: appId });
  return data.updateApiResource;
}

/** From then on a grant naming its identifier is refused (`invalid_target`); its permissions stay the application's. */
export async function deleteApiResource(appId: string, resourceId: string): Promise<void> {
  const mutation = 'mutation DeleteApiResource($appId: UUID!, $resourceId: UUID!) { deleteApiResource(appId: $appId, resourceId: $resourceId) }';
  await graphql<{ deleteApiResource: boolean }>(mutation, { appId, resourceId }, { applicationId: appId });
}
