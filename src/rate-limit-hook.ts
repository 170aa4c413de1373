import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Sets the `X-RateLimit-*` headers or throws the 429; a request it ran for is not counted again by its route's limiter. */
export type RateLimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The service-wide limit, for a hook that may answer before the route's limiter runs. */
export function serviceRateLimit(app: FastifyInstance): RateLimitHook {
  return app.rateLimit();
}
