import type { IncomingHttpHeaders } from 'node:http';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import { cookieNamed, cookiesWithout } from '../http/cookies.ts';
import type { OidcDependencies } from './configuration.ts';

/**
 * With https, prefixed (RFC 6265bis 4.1.3) so that no other host plants a session: `__Host-` needs path `/`, so a tenant
 * path's session has a name of its own; the interactions' path-scoped cookies can only be `__Secure-` (interactionBinding).
 */
export function cookies(deps: OidcDependencies, surface: Surface): Configuration['cookies'] {
  const prefixed = new URL(deps.config.publicUrl).protocol === 'https:';
  const [host, secure] = prefixed ? ['__Host-', '__Secure-'] : ['', ''];
  const session = surface.kind === 'tenant_path' ? `_session_t.${surface.tenantRef}` : '_session';
  return { keys: [deps.cookieSecret], names: { session: `${host}${session}`, interaction: `${secure}_interaction`, resume: resumeCookie(prefixed) } };
}

const resumeCookie = (prefixed: boolean) => `${prefixed ? '__Secure-' : ''}_interaction_resume`;

/** A sibling subdomain can plant an attacker's `__Secure-` interaction cookies (login CSRF), so an interaction's pages
 *  and resume also require a `__Host-` cookie named after it, set in the browser that started it. */
export interface InteractionBinding {
  /** For the interaction's whole life: a resume comes twice where the OP signs another account out first. */
  bind(ctx: KoaContextWithOIDC, uid: string, seconds: number): void;
  holds(headers: IncomingHttpHeaders, uid: string): boolean;
  /** Without the OP's resume cookie, which the OP then answers as expired. */
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

