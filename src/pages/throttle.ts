import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { countRateLimited } from '../observability/metrics.ts';
import { throttledPage, type PageLook } from './pages.ts';
import { browserLook, sendPage } from './reply.ts';
import { guessingAddress } from '../http/request-origin.ts';

/**
 * A tighter per-address limit on credential-guessing POSTs, on the same rate-limit plugin and store (Redis when set).
 * The forms share one budget per address: a guesser gains nothing by spreading over them.
 */

/** Its tenant's branding, when it can be known. */
export type ThrottleLook = (request: FastifyRequest, reply: FastifyReply) => Promise<PageLook>;

/** Counts before the body is parsed, so a refused POST costs no Argon2 work (a preHandler where the look needs the body). */
export type ThrottleHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** A budget of its own within the address's (the SAML ACS: per provider). */
export type ThrottleScope = (request: FastifyRequest) => string;

export interface SignInThrottle {
  /** The plain look when `look` is absent or fails. */
  hook(look?: ThrottleLook, scope?: ThrottleScope): ThrottleHook;
}

/** verification_uri_complete (RFC 8628 3.3.1) tells a right guess from a wrong one by its look, as the POST does (5.1). */
const guessesByQuery = (request: FastifyRequest): boolean =>
  request.method === 'GET' && (request.query as Record<string, unknown> | undefined)?.['user_code'] !== undefined;

/** After the rate-limit plugin: every throttled route, in any plugin scope, shares its counter. */
export function signInThrottle(app: FastifyInstance, limit: Config['signInRateLimit']): SignInThrottle {
  const scopes = new WeakMap<FastifyRequest, string>();
  // Run here: a route's hooks precede the limiter the plugin adds to it, and the throttle's 429 would end them uncounted.
  const serviceLimit = app.rateLimit();
  const count = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => `sign-in:${guessingAddress(request)}${scopes.has(request) ? `:${scopes.get(request)}` : ''}`,
  });
  return {
    hook: (look, scope) => async (request, reply) => {
      await serviceLimit.call(app, request, reply);
      if (request.method !== 'POST' && !guessesByQuery(request)) return undefined;
      if (scope !== undefined) scopes.set(request, scope(request));
      const outcome = await count(request);
      if (outcome.isAllowed || !outcome.isExceeded) return undefined;
      countRateLimited('sign_in');
      // The refusal stands whatever happens to its look. Its headers are the sign-in budget's, the limit that refused.
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
