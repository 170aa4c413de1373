import { TENANT_PATH_PREFIX } from '../../domains/surfaces.ts';

/**
 * Where an upstream sends the browser back: one fixed URL per provider, which its administrator registers once at the
 * upstream (as Auth0's `/login/callback` is), whatever interaction the sign-in belongs to (the `state` names it). On
 * the service's URL, an isolated tenant's own provider answers under the tenant's surface (`/t/{tenant id}`); a custom
 * domain's sign-in comes back to the domain (`https://{domain}/auth/callback/{id}`, registered beside it).
 */
export const UPSTREAM_CALLBACK_PATH = '/auth/callback';

export function upstreamCallbackUrl(base: string, provider: { readonly id: string; readonly tenantId: string | null }): string {
  const surface = provider.tenantId === null ? '' : `${TENANT_PATH_PREFIX}/${provider.tenantId}`;
  return `${base}${surface}${UPSTREAM_CALLBACK_PATH}/${provider.id}`;
}
