import type { Configuration } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { OidcDependencies } from './configuration.ts';

/**
 * Cookies per surface: a tenant's path surface shares the service's host, so its session cookie has its own name and
 * path, and the service's session (path `/`) is never taken for a tenant's. Hosts keep custom domains apart.
 *
 * With an https PUBLIC_URL the names carry a prefix (RFC 6265bis 4.1.3): a sibling subdomain or a plain-http answer
 * cannot plant a session (an attacker's own signed session would sign the victim in as the attacker). `__Host-` needs
 * path `/`, so the path-scoped cookies take `__Secure-`.
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
    long: { httpOnly: true, sameSite: 'lax', path: sessionCookiePath(surface) },
  };
}

/** The path a browser sends the surface's session cookie under (RFC 6265 5.1.4): a tenant path's own, else every path. */
export const sessionCookiePath = (surface: Surface): string => (surface.kind === 'tenant_path' ? surface.mountPath : '/');

/** Whether a browser sends a cookie of path `cookiePath` with a request for `url` (RFC 6265 5.1.4). */
export function cookieSentTo(cookiePath: string, url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return cookiePath === '/' || path === cookiePath || path.startsWith(`${cookiePath}/`);
}
