import type { Configuration } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { OidcDependencies } from './configuration.ts';

/**
 * Cookies per surface: a tenant's path surface shares the service's host, so its session cookie has a name of its
 * own and is scoped to the surface's path: each tenant's surface has its own sign-in session, and the service's
 * session (path `/`) is never taken for one of them. Hosts keep custom domains' cookies apart by themselves.
 *
 * With an https PUBLIC_URL the names carry a prefix (RFC 6265bis 4.1.3) that browsers keep for cookies this host set
 * over https: a sibling subdomain (`Domain=` the parent) or a plain-http answer cannot plant a session there, where
 * the signed session of an attacker's own sign-in would sign the victim in as the attacker. `__Host-` also needs the
 * path `/`, so the path-scoped cookies (interactions, a tenant path's session) take `__Secure-`.
 */
export function cookies(deps: OidcDependencies, surface: Surface): Configuration['cookies'] {
  const prefixed = new URL(deps.config.publicUrl).protocol === 'https:';
  const [host, secure] = prefixed ? ['__Host-', '__Secure-'] : ['', ''];
  const interactions = { interaction: `${secure}_interaction`, resume: `${secure}_interaction_resume` };
  const base = { keys: [deps.cookieSecret] };
  if (surface.kind !== 'tenant_path') return { ...base, names: { session: `${host}_session`, ...interactions } };
  return {
    ...base,
    names: { session: `${secure}_session_t`, ...interactions },
    long: { httpOnly: true, sameSite: 'lax', path: surface.mountPath },
  };
}
