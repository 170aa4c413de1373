import { TENANT_PATH_PREFIX } from '../../domains/surfaces.ts';

/**
 * One fixed URL per provider, registered once at the upstream (as Auth0's `/login/callback`), whatever the interaction
 * (`state` names it). A custom domain's sign-in comes back to the domain.
 */
export const UPSTREAM_CALLBACK_PATH = '/auth/callback';

export function upstreamCallbackUrl(base: string, provider: { readonly id: string; readonly tenantId: string | null }): string {
  const surface = provider.tenantId === null ? '' : `${TENANT_PATH_PREFIX}/${provider.tenantId}`;
  return `${base}${surface}${UPSTREAM_CALLBACK_PATH}/${provider.id}`;
}
