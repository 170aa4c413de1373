import { FULL_PAGE } from './all-pages.ts';
import { graphql } from './api.ts';

// What a credential (an API key, an M2M credential) may be given: the built-in permissions (schema/permissions.graphql).

export interface GrantablePermission {
  readonly key: string;
  readonly description: string;
}

export interface GrantChoices {
  readonly multiTenant: boolean;
  /** The built-in permissions: an application's own permissions are for its roles, a credential may not carry them. */
  readonly permissions: readonly GrantablePermission[];
}

/** Every built-in permission fits in one page of the catalogue. Read only when `creating`: it needs `permissions:read`,
 *  and the service asks for every field a document names, `@include` or not. */
export async function getGrantChoices(appId: string, creating: boolean): Promise<GrantChoices> {
  const catalogue = creating ? 'permissions(appId: $appId, pageSize: $pageSize) { data { key description builtIn } }' : '';
  const query = `query GrantChoices($appId: UUID!${creating ? ', $pageSize: Int' : ''}) { application(appId: $appId) { multiTenant } ${catalogue} }`;
  const data = await graphql<{ application: { multiTenant: boolean }; permissions?: { data: (GrantablePermission & { builtIn: boolean })[] } }>(
    query,
    creating ? { appId, pageSize: FULL_PAGE } : { appId },
    { applicationId: appId },
  );
  const permissions = (data.permissions?.data ?? []).filter((permission) => permission.builtIn).map(({ key, description }) => ({ key, description }));
  return { multiTenant: data.application.multiTenant, permissions };
}
