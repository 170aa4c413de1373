import type { FastifyInstance } from 'fastify';
import { DEFAULT_PORTS, type SurfaceRouter } from '../domain/domains/surfaces.ts';
import { unbrandedErrorPage } from '../pages/pages.ts';

// The pages a browser fills in with the issuer's cookies: the authorization request, its interaction and the device
// code's form (not /oauth2/device_authorization, which the device itself posts).
const SIGN_IN_PATH = /^(?:\/t\/[^/]+)?(?:\/oauth2\/authorize(?:$|\?)|\/oauth2\/device(?:$|[?/])|\/interaction\/)/;

/** Cookies and the dashboard's CSP hold only for that origin; a Host naming its scheme's default port is that origin too. */
export function isPublicHost(host: string | undefined, publicUrl: URL): boolean {
  const name = (host ?? '').toLowerCase();
  const defaultPort = DEFAULT_PORTS[publicUrl.protocol];
  return name === publicUrl.host || (defaultPort !== undefined && name === `${publicUrl.host}:${defaultPort}`);
}

/**
 * 421: their cookies are set for the issuer's host, so the browser would loop on the sign-in form. Counted before the
 * host lookup: this hook runs before the route's limiter, and the 421 carries `X-RateLimit-*` as every answer does.
 */
export function refuseMisdirectedSignIn(app: FastifyInstance, surfaces: SurfaceRouter, publicUrl: string): void {
  const expected = new URL(publicUrl);
  const limit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    if (!SIGN_IN_PATH.test(request.url)) return;
    const host = request.headers.host ?? '';
    if (isPublicHost(host, expected)) return;
    await limit.call(app, request, reply);
    if ((await surfaces.forHost(host)).kind === 'domain') return;
    // For whoever runs the service, in English under the page's sentence.
    const description =
      `This service's address is ${publicUrl} (its PUBLIC_URL), but this page was asked for at ${expected.protocol}//${host}. ` +
      `Sign-in cookies belong to ${publicUrl}: open the sign-in there, or set PUBLIC_URL to the address you use.`;
    const page = unbrandedErrorPage('error.misdirected', { acceptLanguage: request.headers['accept-language'] }, { code: 'misdirected_host', description });
    return reply.status(421).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
  });
}
