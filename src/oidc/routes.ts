import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { TENANT_PATH_PREFIX, type Surface } from '../domain/domains/surfaces.ts';
import { lookFor, PLAIN_LOOK, SECURITY_HEADERS, standaloneErrorPage, unbrandedErrorPage } from '../pages/pages.ts';
import { authorizationRefusal } from './surface-gate.ts';
import type { SignInThrottle } from '../pages/throttle.ts';
import { currentRequestLog } from '../observability/log.ts';
import { sayWhenToRetry } from '../http/retry-after.ts';
import { overloadRefusal } from './overload.ts';
import type { Services } from '../services.ts';
import { clientAddress } from '../http/request-origin.ts';
import { OIDC_PATHS } from './configuration.ts';
import { logoutRefusal, sessionApplicationOf, withSessionOf } from './session-application.ts';

/**
 * One table, so the Fastify router and the OP cannot disagree; other methods get 405 with `Allow` (the provider would
 * say 404). `throttled`: POSTs guessing a user code. `metadata`: also served in RFC 8414's form under a tenant's path.
 */
const { authorization, token, revocation, introspection, userinfo, device_authorization, code_verification, end_session, jwks } = OIDC_PATHS;
export const OIDC_ROUTES: readonly { path: string; methods: readonly HTTPMethods[]; page?: true; throttled?: true; metadata?: true }[] = [
  { path: '/.well-known/openid-configuration', methods: ['GET', 'OPTIONS'], metadata: true },
  { path: '/.well-known/oauth-authorization-server', methods: ['GET', 'OPTIONS'], metadata: true },
  { path: jwks, methods: ['GET', 'OPTIONS'] },
  // A page for response_mode=form_post (the OP's self-submitting form, carrying the code).
  { path: authorization, methods: ['GET'], page: true },
  // Or, when the sign-in switches the session's account, the OP's sign-out of the other one.
  { path: `${authorization}/:uid`, methods: ['GET'], page: true },
  { path: token, methods: ['POST', 'OPTIONS'] },
  { path: revocation, methods: ['POST', 'OPTIONS'] },
  { path: introspection, methods: ['POST', 'OPTIONS'] },
  { path: userinfo, methods: ['GET', 'POST', 'OPTIONS'] },
  { path: device_authorization, methods: ['POST', 'OPTIONS'] },
  // verification_uri_complete's self-submitting form is replaced by a prefilled page (user-code-prefill.ts).
  { path: code_verification, methods: ['GET', 'POST'], page: true, throttled: true },
  { path: `${code_verification}/:uid`, methods: ['GET'], page: true },
  { path: end_session, methods: ['GET'], page: true },
  { path: `${end_session}/confirm`, methods: ['POST'], page: true },
  { path: `${end_session}/success`, methods: ['GET'], page: true },
];

/** `script-src` with no source, so that oidc-provider has a directive to add its self-submitting form's hash to. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'content-security-policy': "default-src 'none'; script-src; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
};

const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const TENANT_PATH = `${TENANT_PATH_PREFIX}/:tenantRef`;

interface SurfaceParams {
  tenantRef?: string;
}

/** RFC 6749 §5.2. */
const oauthRefusal = (reply: FastifyReply, status: number, description: string) =>
  reply.status(status).header('cache-control', 'no-store').send({ error: 'invalid_request', error_description: description });

/** The body is the OP's to read, so only headers it cannot parse; in OAuth terms, as oidc-provider answers a bad body. */
const TRANSPORT_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 'the Content-Type header cannot be parsed; send application/x-www-form-urlencoded'],
  ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'the Content-Length header does not match the body'],
]);

/** Without fastify-plugin, so the body handling stays in this scope; the OP answers on the raw, hijacked request. */
export function oidcRoutes(services: Services, throttle: SignInThrottle) {
  const { oidc, surfaces } = services;
  const origin = new URL(services.config.publicUrl);
  const forwardedProto = origin.protocol.slice(0, -1);

  const pageHeaders = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(PAGE_HEADERS);
  };

  /** Null for a tenant path that is none. */
  const surfaceOf = (request: FastifyRequest): Promise<Surface | null> =>
    surfaces.forRequest(request.headers.host, (request.params as SurfaceParams).tenantRef, request.raw.url);

  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const surface = await surfaceOf(request);
    if (request.routeOptions.url?.endsWith(authorization) === true && (surface === null || surface.kind !== 'service')) {
      // A browser is here: a refusal is said on a page, never by redirecting.
      const refusal = await authorizationRefusal(services, request.id, surface, new URL(request.url, origin).searchParams, request.headers['accept-language']);
      if (refusal !== undefined) return reply.status(refusal.status).headers(refusal.headers).type('text/html; charset=utf-8').send(refusal.html);
    }
    if (surface === null) {
      // Typed by hand (RFC 8628 3.3): a browser gets a page, an API client the OAuth body.
      if (!/\btext\/html\b/i.test(request.headers.accept ?? '')) return oauthRefusal(reply, 404, 'There is no such sign-in surface');
      const page = unbrandedErrorPage('error.unknownSurface', { acceptLanguage: request.headers['accept-language'] });
      return reply.status(404).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    const opUrl = new URL(request.raw.url!.slice(surface.kind === 'tenant_path' ? surface.mountPath.length : 0), origin);
    // RFC 9110 9.3.2: the OP answers HEAD as GET, the same session, the same refusals.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const { provider, handle } = await oidc.get(surface);
    const refusedLogout = surface.kind === 'domain' ? undefined : await logoutRefusal(provider, method, opUrl);
    if (refusedLogout !== undefined) {
      const languages = { acceptLanguage: request.headers['accept-language'], uiLocales: opUrl.searchParams.get('ui_locales') ?? undefined };
      const page = unbrandedErrorPage(refusedLogout, languages, undefined, 'sign_out');
      return reply.status(400).headers(page.headers).type('text/html; charset=utf-8').send(page.html);
    }
    // Before the hijack: a failure here must still reach Fastify's error handler.
    const application = surface.kind === 'domain' ? undefined : await sessionApplicationOf(provider, method, opUrl);
    // An interaction resumes in the browser that started it only (cookies.ts interactionBinding).
    const resumed = (request.params as { uid?: string }).uid;
    if (resumed !== undefined && !oidc.binding.holds(request.headers, resumed)) request.raw.headers.cookie = oidc.binding.withoutResume(request.headers);
    reply.hijack();
    // A client gone before the OP reads its body: the OP would warn outside the JSON log. No I/O comes before its read.
    if (request.raw.destroyed) return;
    // provider.proxy is on: the OP builds URLs and cookie security from these, always the issuer's, never the client's claim.
    const raw = request.raw;
    raw.headers['x-forwarded-proto'] = forwardedProto;
    raw.headers['x-forwarded-host'] = surface.kind === 'domain' ? surface.hostname : origin.host;
    raw.headers['x-forwarded-for'] = clientAddress(request);
    if (surface.kind === 'tenant_path') {
      // oidc-provider routes on `url` and prefixes its URLs with what `originalUrl` has before it.
      (raw as typeof raw & { originalUrl?: string }).originalUrl = raw.url;
      raw.url = raw.url!.slice(surface.mountPath.length);
    }
    // Headers set by Fastify's hooks live on the reply, which is bypassed.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    await withSessionOf(application, () => handle(raw, reply.raw));
  };

  /** RFC 8414 3.1 inserts the issuer's path after the well-known path (OIDC Discovery appends): read as the appended form. */
  const tenantMetadata = (wellKnown: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    const url = raw.url ?? '';
    if (!url.startsWith(`${wellKnown}/`)) return oauthRefusal(reply, 404, 'There is no such sign-in surface');
    const query = url.indexOf('?');
    const issuerPath = url.slice(wellKnown.length, query === -1 ? undefined : query);
    raw.url = `${issuerPath}${wellKnown}${query === -1 ? '' : url.slice(query)}`;
    return dispatch(request, reply);
  };

  return async function register(app: FastifyInstance): Promise<void> {
    oidc.onServerError = (error) => currentRequestLog(app.log).error({ err: error }, 'unexpected error in the OAuth provider');
    // oidc-provider reads (and size-limits) the body itself: leave the stream untouched.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    // Anything else (the rate limit's 429) keeps the API's body.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      // Met before the OP ran: answered as the OP answers it.
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
