import type { Configuration } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { OidcDependencies } from './configuration.ts';

/**
 * A tenant path shares the service's host, so its session cookie has its own name and path. With https the names carry
 * a prefix (RFC 6265bis 4.1.3) so a sibling subdomain or plain-http answer cannot plant a session (signing the victim in
 * as the attacker); `__Host-` needs path `/`, so path-scoped cookies take `__Secure-`.
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

/** RFC 6265 5.1.4. */
export const sessionCookiePath = (surface: Surface): string => (surface.kind === 'tenant_path' ? surface.mountPath : '/');

/** RFC 6265 5.1.4. */
export function cookieSentTo(cookiePath: string, url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return cookiePath === '/' || path === cookiePath || path.startsWith(`${cookiePath}/`);
}
