import { TENANT_PATH_PREFIX } from '../../domains/surfaces.ts';

/** One fixed URL per provider, registered once upstream (as Auth0's `/login/callback`): `state` names the interaction. */
export const UPSTREAM_CALLBACK_PATH = '/auth/callback';

export function upstreamCallbackUrl(base: string, provider: { readonly id: string; readonly tenantId: string | null }): string {
  const surface = provider.tenantId === null ? '' : `${TENANT_PATH_PREFIX}/${provider.tenantId}`;
  return `${base}${surface}${UPSTREAM_CALLBACK_PATH}/${provider.id}`;
}
