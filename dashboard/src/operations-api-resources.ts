import { ApiError, graphql } from './api.ts';
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

/** The field a refusal of the draft's row `at` names (`permissionRows[2].key`): the API's counts the new keys only. */
export const permissionRowField = (at: number, part: 'key' | 'description') => `permissionRows[${at}].${part}`;

/** A row with a key, trimmed, and its place among the draft's rows. */
interface FilledRow extends PermissionRow {
  readonly at: number;
}

function filledRows(rows: readonly PermissionRow[]): FilledRow[] {
  const filled = rows.map((row, at) => ({ key: row.key.trim(), description: row.description.trim(), at })).filter((row) => row.key !== '');
  return filled.filter((row, index) => filled.findIndex((other) => other.key === row.key) === index);
}

/** Keys defined already are listed, the others defined with the resource in its transaction (`newPermissions`), so a
 *  refused save leaves nothing behind. `newRows`: the draft's row of each new permission. */
async function inputOf(appId: string, draft: ApiResourceDraft): Promise<{ input: ApiResourceInput; newRows: readonly number[] }> {
  const rows = filledRows(draft.permissions);
  const defined = await listDefinedPermissions(appId);
  const created = rows.filter((row) => !defined.has(row.key));
  const input = {
    name: draft.name.trim(),
    identifier: draft.identifier.trim(),
    permissions: rows.filter((row) => defined.has(row.key)).map((row) => row.key),
    newPermissions: created.map(({ key, description }) => ({ key, description })),
  };
  return { input, newRows: created.map((row) => row.at) };
}

const NEW_PERMISSION_FIELD = /^newPermissions\[(\d+)\]\.(key|description)$/;

/** A refusal naming `newPermissions[i].key` names the draft's row it came from instead; the whole list, the rows'. */
function inRows(error: unknown, newRows: readonly number[]): unknown {
  if (!(error instanceof ApiError) || error.field === undefined) return error;
  const [, index, part] = NEW_PERMISSION_FIELD.exec(error.field) ?? [];
  const at = index === undefined ? undefined : newRows[Number(index)];
  let field: string | undefined;
  if (at !== undefined) field = permissionRowField(at, part as 'key' | 'description');
  else if (error.field === 'newPermissions') field = 'permissions';
  return field === undefined ? error : error.naming(field);
}

async function save<T>(appId: string, draft: ApiResourceDraft, send: (input: ApiResourceInput) => Promise<T>): Promise<T> {
  const { input, newRows } = await inputOf(appId, draft);
  try {
    return await send(input);
  } catch (error) {
    throw inRows(error, newRows);
  }
}

export async function createApiResource(appId: string, draft: ApiResourceDraft): Promise<ApiResource> {
  const mutation = `mutation CreateApiResource($appId: UUID!, $input: CreateApiResourceInput!) {
    createApiResource(appId: $appId, input: $input) { ${RESOURCE_FIELDS} }
  }`;
  return save(appId, draft, async (input) => {
    const data = await graphql<{ createApiResource: ApiResource }>(mutation, { appId, input }, { applicationId: appId });
    return data.createApiResource;
  });
}

/** Saving the identifier claims one held elsewhere (409 while held), so a rename leaves it out (`withIdentifier` false). */
export async function updateApiResource(appId: string, resourceId: string, draft: ApiResourceDraft, withIdentifier: boolean): Promise<ApiResource> {
  const mutation = `mutation UpdateApiResource($appId: UUID!, $resourceId: UUID!, $input: UpdateApiResourceInput!) {
    updateApiResource(appId: $appId, resourceId: $resourceId, input: $input) { ${RESOURCE_FIELDS} }
  }`;
  return save(appId, draft, async ({ identifier, ...unchanged }) => {
    const input = withIdentifier ? { ...unchanged, identifier } : unchanged;
    const data = await graphql<{ updateApiResource: ApiResource }>(mutation, { appId, resourceId, input }, { applicationId: appId });
    return data.updateApiResource;
  });
}

/** From then on a grant naming its identifier is refused (`invalid_target`); its permissions stay the application's. */
export async function deleteApiResource(appId: string, resourceId: string): Promise<void> {
  const mutation = 'mutation DeleteApiResource($appId: UUID!, $resourceId: UUID!) { deleteApiResource(appId: $appId, resourceId: $resourceId) }';
  await graphql<{ deleteApiResource: boolean }>(mutation, { appId, resourceId }, { applicationId: appId });
}
