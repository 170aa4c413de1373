import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { rateLimited } from '../metrics.ts';
import { throttledPage, type PageLook } from './pages.ts';
import { browserLook, sendPage } from './reply.ts';
import { guessingAddress } from '../request-origin.ts';

/**
 * The per-address throttle of the hosted pages' credential-guessing POSTs (sign-in, sign-up, the device user code):
 * a tighter limit than the service-wide one, counted by the same @fastify/rate-limit plugin and store (Redis when
 * REDIS_URL is set, so every instance shares the counters; in memory otherwise). The three forms share one budget
 * per address: a guesser gains nothing by spreading over them.
 */

/** The look of the refusal: the page the form belongs to (its tenant's branding), when it can be known. */
export type ThrottleLook = (request: FastifyRequest, reply: FastifyReply) => Promise<PageLook>;

/**
 * An onRequest hook for a throttled route: it counts the route's POSTs (and a GET naming a user code, guessesByQuery),
 * before their body is parsed, so a refused POST costs no Argon2 work (a preHandler where the look needs the body).
 */
export type ThrottleHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** A budget of its own within the address's, for a route that is not one of the forms (the SAML ACS: per provider). */
export type ThrottleScope = (request: FastifyRequest) => string;

export interface SignInThrottle {
  /** The hook for one route; `look` brands the 429 page (the plain look when absent or failing). */
  hook(look?: ThrottleLook, scope?: ThrottleScope): ThrottleHook;
}

/**
 * A GET that guesses too: verification_uri_complete (`GET /oauth2/device?user_code=…`, RFC 8628 3.3.1) answers a live
 * code with its client's look, a wrong one with the plain look, so it tells a right guess from a wrong one as the POST
 * does (RFC 8628 5.1).
 */
const guessesByQuery = (request: FastifyRequest): boolean =>
  request.method === 'GET' && (request.query as Record<string, unknown> | undefined)?.['user_code'] !== undefined;

/** Made once per server, after the rate-limit plugin: every throttled route, in any plugin scope, shares its counter. */
export function signInThrottle(app: FastifyInstance, limit: Config['signInRateLimit']): SignInThrottle {
  const scopes = new WeakMap<FastifyRequest, string>();
  // createRateLimit counts without marking the request, so the service-wide limit still counts these requests too.
  const count = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => `sign-in:${guessingAddress(request)}${scopes.has(request) ? `:${scopes.get(request)}` : ''}`,
  });
  return {
    hook: (look, scope) => async (request, reply) => {
      if (request.method !== 'POST' && !guessesByQuery(request)) return undefined;
      if (scope !== undefined) scopes.set(request, scope(request));
      const outcome = await count(request);
      if (outcome.isAllowed || !outcome.isExceeded) return undefined;
      rateLimited.inc({ limit: 'sign_in' });
      // The refusal stands whatever happens to its look (e.g. an expired interaction has none).
      const pageLook = look === undefined ? browserLook(request) : await look(request, reply).catch(() => browserLook(request));
      reply.headers({
        'retry-after': String(outcome.ttlInSeconds),
        'x-ratelimit-limit': String(outcome.max),
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(outcome.ttlInSeconds),
      });
      return sendPage(reply, 429, (nonce) => throttledPage(pageLook, nonce, outcome.ttlInSeconds));
    },
  };
}
