import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { TENANT_PATH_PREFIX, type Surface } from '../domain/domains/surfaces.ts';
import { lookFor, PLAIN_LOOK, SECURITY_HEADERS, standaloneErrorPage } from '../pages/pages.ts';
import { authorizationRefusal } from './surface-gate.ts';
import type { SignInThrottle } from '../pages/throttle.ts';
import { currentRequestLog } from '../log.ts';
import { sayWhenToRetry } from '../retry-after.ts';
import { overloadRefusal } from './overload.ts';
import type { Services } from '../services.ts';
import { OIDC_PATHS } from './configuration.ts';
import { logoutRefusal, sessionApplicationOf, withSessionOf } from './session-application.ts';

/**
 * The OP's routes and the methods it answers on each; anything else on these paths is 405 with `Allow` (the provider
 * would say 404). One table, so the Fastify router and the OP cannot disagree. `page`: HTML for a browser, never
 * framed, cached or sniffed. `throttled`: POSTs guessing a user code, counted by the sign-in throttle. `metadata`: a
 * well-known document, also served in RFC 8414's form under a tenant's path (tenantMetadata).
 */
const { authorization, token, revocation, introspection, userinfo, device_authorization, code_verification, end_session, jwks } = OIDC_PATHS;
export const OIDC_ROUTES: readonly { path: string; methods: readonly HTTPMethods[]; page?: true; throttled?: true; metadata?: true }[] = [
  { path: '/.well-known/openid-configuration', methods: ['GET', 'OPTIONS'], metadata: true },
  { path: '/.well-known/oauth-authorization-server', methods: ['GET', 'OPTIONS'], metadata: true },
  { path: jwks, methods: ['GET', 'OPTIONS'] },
  // Redirects as a rule, but a page for response_mode=form_post (the OP's self-submitting form, carrying the code).
  { path: authorization, methods: ['GET'], page: true },
  // The same after a sign-in; or, when the sign-in switches the session's account, the OP's sign-out of the other one.
  { path: `${authorization}/:uid`, methods: ['GET'], page: true },
  { path: token, methods: ['POST', 'OPTIONS'] },
  { path: revocation, methods: ['POST', 'OPTIONS'] },
  { path: introspection, methods: ['POST', 'OPTIONS'] },
  { path: userinfo, methods: ['GET', 'POST', 'OPTIONS'] },
  { path: device_authorization, methods: ['POST', 'OPTIONS'] },
  // verification_uri_complete's self-submitting form is replaced by a prefilled page (user-code-prefill.ts).
  { path: code_verification, methods: ['GET', 'POST'], page: true, throttled: true },
  { path: `${code_verification}/:uid`, methods: ['GET'], page: true },
  // The confirmation page when there is a session to end; the OP's self-submitting sign-out when there is none.
  { path: end_session, methods: ['GET'], page: true },
  { path: `${end_session}/confirm`, methods: ['POST'], page: true },
  { path: `${end_session}/success`, methods: ['GET'], page: true },
];

/**
 * What a page route's answers carry. The hosted pages replace the policy with their own; the OP's self-submitting form
 * keeps it: `script-src` is written with no source so that oidc-provider has a directive to add its script's hash to.
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'content-security-policy': "default-src 'none'; script-src; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
};

const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The same routes under a tenant's path surface: `/t/{tenant id or slug}/...` (src/domain/domains/surfaces.ts). */
const TENANT_PATH = `${TENANT_PATH_PREFIX}/:tenantRef`;

interface SurfaceParams {
  tenantRef?: string;
}

/** An OAuth error body (RFC 6749 §5.2) for the refusals made here, before the OP runs. */
const oauthRefusal = (reply: FastifyReply, status: number, description: string) =>
  reply.status(status).header('cache-control', 'no-store').send({ error: 'invalid_request', error_description: description });

/**
 * Fastify's own refusals of a request's transport on these routes (the body is the OP's to read, so only headers it
 * cannot parse), in OAuth terms: oidc-provider answers a body it cannot take with 400 `invalid_request`.
 */
const TRANSPORT_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'the Content-Type header cannot be parsed; send application/x-www-form-urlencoded'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'the Content-Length header does not match the body'],
]);

/**
 * Mounts the OP (without fastify-plugin, so the body handling stays in this scope). After Fastify's hooks (request id,
 * rate limit) the request's surface is settled, the reply hijacked, and that surface's OP answers on the raw request.
 */
export function oidcRoutes(services: Services, throttle: SignInThrottle) {
  const { oidc, surfaces } = services;
  const origin = new URL(services.config.publicUrl);
  const forwardedProto = origin.protocol.slice(0, -1);

  const pageHeaders = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(PAGE_HEADERS);
  };

  /** The surface of a request, or null for a tenant path that is none (unknown, or under a custom domain). */
  const surfaceOf = (request: FastifyRequest): Promise<Surface | null> =>
    surfaces.forRequest(request.headers.host, (request.params as SurfaceParams).tenantRef, request.raw.url);

  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const surface = await surfaceOf(request);
    if (request.routeOptions.url?.endsWith(authorization) === true && (surface === null || surface.kind !== 'service')) {
      // A browser is here: a surface that refuses the request says so on a page, never by redirecting.
      const refusal = await authorizationRefusal(services, request.id, surface, new URL(request.url, origin).searchParams, request.headers['accept-language']);
      if (refusal !== undefined) return reply.status(refusal.status).headers(refusal.headers).type('text/html; charset=utf-8').send(refusal.html);
    }
    if (surface === null) {
      // A verification URI is typed by hand (RFC 8628 3.3): a browser gets a page, an API client the OAuth body.
      if (!/\btext\/html\b/i.test(request.headers.accept ?? '')) return oauthRefusal(reply, 404, 'There is no such sign-in surface');
      const page = standaloneErrorPage(lookFor(PLAIN_LOOK, request.headers['accept-language']), { key: 'error.unknownSurface' });
      return reply.status(404).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    const opUrl = new URL(request.raw.url!.slice(surface.kind === 'tenant_path' ? surface.mountPath.length : 0), origin);
    // HEAD is GET without the body (RFC 9110 9.3.2), and the OP answers it as GET: the same session, the same refusals.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const { provider, handle } = await oidc.get(surface);
    const refusedLogout = surface.kind === 'domain' ? undefined : await logoutRefusal(provider, method, opUrl);
    if (refusedLogout !== undefined) {
      const look = lookFor(PLAIN_LOOK, request.headers['accept-language'], opUrl.searchParams.get('ui_locales') ?? undefined);
      const page = standaloneErrorPage(look, { key: refusedLogout }, undefined, 'sign_out');
      return reply.status(400).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    // Before the hijack: a failure here must still reach Fastify's error handler, not leave the request unanswered.
    const application = surface.kind === 'domain' ? undefined : await sessionApplicationOf(provider, method, opUrl);
    reply.hijack();
    // A client gone before the OP reads its body: there is no one to answer, and the OP, finding the stream ended,
    // would print a warning outside the JSON log (that a parser read the body before it). No I/O comes between this
    // check and the OP's read, so the client cannot leave in between unseen.
    if (request.raw.destroyed) return;
    // The OP builds its URLs and decides cookie security from these (provider.proxy is on): always the issuer's
    // (PUBLIC_URL's, or the verified domain's), never what the client claims.
    const raw = request.raw;
    raw.headers['x-forwarded-proto'] = forwardedProto;
    raw.headers['x-forwarded-host'] = surface.kind === 'domain' ? surface.hostname : origin.host;
    raw.headers['x-forwarded-for'] = request.ip;
    if (surface.kind === 'tenant_path') {
      // Mounted below the issuer's path: oidc-provider routes on `url` and prefixes its URLs with what `originalUrl`
      // has before it.
      (raw as typeof raw & { originalUrl?: string }).originalUrl = raw.url;
      raw.url = raw.url!.slice(surface.mountPath.length);
    }
    // Headers set by Fastify's hooks (x-request-id, the rate limit's) live on the reply, which is bypassed.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    await withSessionOf(application, () => handle(raw, reply.raw));
  };

  /**
   * RFC 8414 3.1: an issuer with a path (`{PUBLIC_URL}/t/{tenant}`) has its metadata at the well-known path followed by
   * the issuer's path; OIDC Discovery appends the well-known path instead. The inserted form is read as the appended one.
   */
  const tenantMetadata = (wellKnown: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    const url = raw.url ?? '';
    // The raw path must start with the well-known path as written, as a tenant path must (surfaceOf).
    if (!url.startsWith(`${wellKnown}/`)) return oauthRefusal(reply, 404, 'There is no such sign-in surface');
    const query = url.indexOf('?');
    const issuerPath = url.slice(wellKnown.length, query === -1 ? undefined : query);
    raw.url = `${issuerPath}${wellKnown}${query === -1 ? '' : url.slice(query)}`;
    return dispatch(request, reply);
  };

  return async function register(app: FastifyInstance): Promise<void> {
    oidc.onServerError = (error) => currentRequestLog(app.log).error({ err: error }, 'unexpected error in the OAuth provider');
    // oidc-provider reads (and size-limits) the request body itself: leave the stream untouched.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // Anything else (the rate limit's 429) goes on to the service's error handler and keeps the API's body.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      // Met before the OP ran (the surface, the client whose session it is): answered as the OP answers it.
      const overloaded = overloadRefusal(error);
      if (overloaded !== undefined) {
        sayWhenToRetry(reply, overloaded.statusCode);
        const detail = { code: overloaded.error, description: overloaded.error_description };
        if (!/\btext\/html\b/i.test(request.headers.accept ?? '')) {
          return reply.status(overloaded.statusCode).header('cache-control', 'no-store').send({ error: detail.code, error_description: detail.description });
        }
        const page = standaloneErrorPage(lookFor(PLAIN_LOOK, request.headers['accept-language']), { key: 'error.unavailable' }, detail);
        return reply.status(overloaded.statusCode).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
      }
      const description = TRANSPORT_REFUSALS.get(error.code);
      if (description === undefined) throw error;
      return oauthRefusal(reply, 400, description);
    });

    for (const { path, methods, page, throttled, metadata } of OIDC_ROUTES) {
      const forms = [
        { url: path, handler: dispatch },
        { url: `${TENANT_PATH}${path}`, handler: dispatch },
        ...(metadata === true ? [{ url: `${path}${TENANT_PATH}`, handler: tenantMetadata(path) }] : []),
      ];
      for (const { url, handler } of forms) {
        app.route({
          method: [...methods],
          url,
          onRequest: [...(page === true ? [pageHeaders] : []), ...(throttled === true ? [throttle.hook()] : [])],
          handler,
        });
        const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
        const others = ALL_METHODS.filter((method) => !methods.includes(method) && !(method === 'HEAD' && methods.includes('GET')));
        app.route({
          method: others,
          url,
          handler: async (request, reply) => oauthRefusal(reply.header('allow', allow), 405, `${request.method} is not allowed here; use ${allow}`),
        });
      }
    }
  };
}
