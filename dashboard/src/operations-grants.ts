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

/** Every built-in permission fits in one page of the catalogue, which lists them first. */
export async function getGrantChoices(appId: string): Promise<GrantChoices> {
  const query = `query GrantChoices($appId: UUID!, $pageSize: Int) {
    application(appId: $appId) { multiTenant }
    permissions(appId: $appId, pageSize: $pageSize) { data { key description builtIn } }
  }`;
  const data = await graphql<{ application: { multiTenant: boolean }; permissions: { data: (GrantablePermission & { builtIn: boolean })[] } }>(
    query,
    { appId, pageSize: FULL_PAGE },
    { applicationId: appId },
  );
  const permissions = data.permissions.data.filter((permission) => permission.builtIn).map(({ key, description }) => ({ key, description }));
  return { multiTenant: data.application.multiTenant, permissions };
}
