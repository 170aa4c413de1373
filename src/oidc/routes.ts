import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { SECURITY_HEADERS } from '../hosted/pages.ts';
import type { SignInThrottle } from '../hosted/throttle.ts';
import { OIDC_PATHS, type OidcProvider } from './provider.ts';

/**
 * The OP's routes and the methods it answers on each; everything else on these paths is 405 with `Allow`
 * (the provider itself would answer 404). One table, so the Fastify router and the OP cannot disagree.
 * `page`: the route answers a browser with HTML (the hosted look through provider.ts's page hooks, or the OP's own
 * self-submitting form): never framed, cached or sniffed. `throttled`: its POSTs are guesses at a user code and
 * count towards the sign-in throttle (src/hosted/throttle.ts).
 */
const { authorization, token, revocation, userinfo, device_authorization, code_verification, end_session, jwks } = OIDC_PATHS;
export const OIDC_ROUTES: readonly { path: string; methods: readonly HTTPMethods[]; page?: true; throttled?: true }[] = [
  { path: '/.well-known/openid-configuration', methods: ['GET', 'OPTIONS'] },
  { path: '/.well-known/oauth-authorization-server', methods: ['GET', 'OPTIONS'] },
  { path: jwks, methods: ['GET', 'OPTIONS'] },
  { path: authorization, methods: ['GET'] },
  { path: `${authorization}/:uid`, methods: ['GET'] },
  { path: token, methods: ['POST', 'OPTIONS'] },
  { path: revocation, methods: ['POST', 'OPTIONS'] },
  { path: userinfo, methods: ['GET', 'POST', 'OPTIONS'] },
  { path: device_authorization, methods: ['POST', 'OPTIONS'] },
  { path: code_verification, methods: ['GET', 'POST'], page: true, throttled: true },
  { path: `${code_verification}/:uid`, methods: ['GET'], page: true },
  { path: end_session, methods: ['GET'], page: true },
  { path: `${end_session}/confirm`, methods: ['POST'], page: true },
  { path: `${end_session}/success`, methods: ['GET'], page: true },
];

const ALL_METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Mounts the OP on its routes (register without fastify-plugin: the body handling below stays in this scope).
 * Fastify's hooks still run first (request id, rate limit); then the reply is hijacked and oidc-provider answers
 * on the raw request and response, with its own OAuth error bodies.
 */
export function oidcRoutes(oidc: OidcProvider, publicUrl: string, throttle: SignInThrottle) {
  const origin = new URL(publicUrl);
  const forwardedProto = origin.protocol.slice(0, -1);

  // The page hooks replace this policy with their page's own (style nonce, images, form targets).
  const pageHeaders = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.headers({ ...SECURITY_HEADERS, 'content-security-policy': "frame-ancestors 'none'; base-uri 'none'" });
  };

  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const { handle } = await oidc.get();
    reply.hijack();
    // The OP builds its URLs and decides cookie security from these (provider.proxy is on): always PUBLIC_URL's,
    // never what the client claims.
    const headers = request.raw.headers;
    headers['x-forwarded-proto'] = forwardedProto;
    headers['x-forwarded-host'] = origin.host;
    headers['x-forwarded-for'] = request.ip;
    // Headers set by Fastify's hooks (x-request-id, the rate limit's) live on the reply, which is bypassed.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    await handle(request.raw, reply.raw);
  };

  return async function register(app: FastifyInstance): Promise<void> {
    oidc.onServerError = (error) => app.log.error({ err: error }, 'unexpected error in the OAuth provider');
    // oidc-provider reads (and size-limits) the request body itself: leave the stream untouched.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    for (const { path, methods, page, throttled } of OIDC_ROUTES) {
      app.route({
        method: [...methods],
        url: path,
        onRequest: [...(page === true ? [pageHeaders] : []), ...(throttled === true ? [throttle.hook()] : [])],
        handler: dispatch,
      });
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].join(', ');
      const others = ALL_METHODS.filter((method) => !methods.includes(method) && !(method === 'HEAD' && methods.includes('GET')));
      app.route({
        method: others,
        url: path,
        handler: async (request, reply) =>
          reply
            .status(405)
            .header('allow', allow)
            .header('cache-control', 'no-store')
            .send({ error: 'invalid_request', error_description: `${request.method} is not allowed here; use ${allow}` }),
      });
    }
  };
}
