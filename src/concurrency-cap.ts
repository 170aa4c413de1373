import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError } from './errors.ts';
import { rateLimited } from './metrics.ts';

/** What a refused request is told: one of its requests in flight ends within a second or so. */
const RETRY_AFTER_SECONDS = 1;

/** Slots held by requests now in flight, for a request whose answer becomes a stream (handOverSlot). */
const slots = new WeakMap<FastifyRequest, () => void>();

/** Bounds one credential's management requests in flight on this instance (429 past `perKey`): the rate limit counts a
 *  minute, and a concurrent burst takes the pool from every other tenant. `preParsing` runs after the limiter's hook,
 *  so its headers are set. Streams and WebSockets are bounded by STREAMS_PER_CREDENTIAL instead. */
export function capConcurrentRequests(app: FastifyInstance, perKey: number, keyOf: (request: FastifyRequest) => string): void {
  const held = new Map<string, number>();
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (request.routeOptions.config.authenticated !== true || request.ws) return done(null, payload);
    const key = keyOf(request);
    const count = held.get(key) ?? 0;
    if (count >= perKey) {
      rateLimited.inc({ limit: 'concurrency' });
      return done(
        new GatehouseError('rate_limited', `These credentials have ${count} requests in flight, as many as allowed at once: retry once one has been answered`, {
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        }),
      );
    }
    held.set(key, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slots.delete(request);
      const left = (held.get(key) ?? 1) - 1;
      if (left === 0) held.delete(key);
      else held.set(key, left);
    };
    slots.set(request, release);
    // A response emits `close` once, whether it was sent whole or its connection was lost first.
    reply.raw.once('close', release);
    done(null, payload);
  });
}

/** Gives the request's slot back: its answer is now a stream, counted among the credential's streams. */
export function handOverSlot(request: FastifyRequest): void {
  slots.get(request)?.();
}
