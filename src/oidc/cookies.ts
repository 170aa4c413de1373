import type { IncomingHttpHeaders } from 'node:http';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import { cookieNamed, cookiesWithout } from '../http/cookies.ts';
import type { OidcDependencies } from './configuration.ts';

/**
 * With https the names carry a prefix (RFC 6265bis 4.1.3) so a sibling subdomain or plain-http answer cannot plant a
 * session (signing the victim in as the attacker): the session's is `__Host-` (path `/`), and a tenant path, sharing the
 * service's host, has a session cookie of its own name rather than of its own path. The interaction's cookies, which
 * oidc-provider scopes to its paths, take `__Secure-`, which a plain-http answer cannot plant but a sibling subdomain on
 * https can (interactionBinding).
 */
export function cookies(deps: OidcDependencies, surface: Surface): Configuration['cookies'] {
  const prefixed = new URL(deps.config.publicUrl).protocol === 'https:';
  const [host, secure] = prefixed ? ['__Host-', '__Secure-'] : ['', ''];
  const session = surface.kind === 'tenant_path' ? `_session_t.${surface.tenantRef}` : '_session';
  return { keys: [deps.cookieSecret], names: { session: `${host}${session}`, interaction: `${secure}_interaction`, resume: resumeCookie(prefixed) } };
}

const resumeCookie = (prefixed: boolean) => `${prefixed ? '__Secure-' : ''}_interaction_resume`;

/**
 * oidc-provider ties an interaction to its browser by cookies scoped to the interaction's paths, which `__Host-` cannot
 * carry: over https a sibling subdomain could plant an attacker's, and walk a victim's browser through the attacker's
 * sign-in or its resume (login CSRF). So the browser that starts one also gets a host-only cookie named after it,
 * which its pages and its resume require.
 */
export interface InteractionBinding {
  /** On the answer that sends the browser to the interaction's first page; it lasts as long as the interaction (a resume
   *  may come twice: once more after the OP's sign-out of another account). */
  bind(ctx: KoaContextWithOIDC, uid: string, seconds: number): void;
  holds(headers: IncomingHttpHeaders, uid: string): boolean;
  /** The `Cookie` header without the OP's resume cookie: resumed without its binding, the OP answers as it does a resume
   *  whose cookie has expired. */
  withoutResume(headers: IncomingHttpHeaders): string;
}

export function interactionBinding(publicUrl: string): InteractionBinding {
  const secure = new URL(publicUrl).protocol === 'https:';
  const name = (uid: string) => `${secure ? '__Host-' : ''}gh_interaction.${uid}`;
  return {
    bind: (ctx, uid, seconds) => ctx.cookies.set(name(uid), '1', { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: seconds * 1000, signed: false, overwrite: true }),
    holds: (headers, uid) => cookieNamed(headers.cookie, name(uid)) !== undefined,
    withoutResume: (headers) => cookiesWithout(headers.cookie, (cookie) => cookie === resumeCookie(secure) || cookie === `${resumeCookie(secure)}.sig`),
  };
}

