import type { FastifyRequest } from 'fastify';
import { cookieNamed } from '../http/cookies.ts';

/** Behind an https public URL the hosted pages' cookies are Secure, with the prefix browsers keep for those. */
export const secureCookiesFor = (publicUrl: string): boolean => new URL(publicUrl).protocol === 'https:';

/** One hosted cookie, by the name its module gives it: `set` and `clear` answer its Set-Cookie lines. */
export interface HostedCookie {
  read(request: FastifyRequest): string | undefined;
  set(path: string, value: string, maxAge: number): string;
  clear(path: string): string;
}

/**
 * The one way a hosted page writes a cookie: HttpOnly, SameSite=Lax (every way back to these pages, an upstream's
 * callback or the application's login URL after a SAML POST, is a top-level GET), and Secure behind https. `__Host-`
 * for a cookie of the path `/` that is not sealed to its user: no other host (a sibling subdomain) can plant one.
 */
export function hostedCookie(secure: boolean, baseName: string, prefix: '__Secure-' | '__Host-' = '__Secure-'): HostedCookie {
  const name = secure ? `${prefix}${baseName}` : baseName;
  const set = (path: string, value: string, maxAge: number) => {
    if (prefix === '__Host-' && path !== '/') throw new Error(`${name} is a cookie of the path / only`);
    return `${name}=${value}; Path=${path}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
  };
  return { read: (request) => cookieNamed(request.headers.cookie, name), set, clear: (path) => set(path, '', 0) };
}
