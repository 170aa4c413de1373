import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimitRefusal } from '../observability/metrics.ts';

/** One of its requests in flight ends within a second or so. */
const RETRY_AFTER_SECONDS = 1;

/** For a request whose answer becomes a stream (handOverSlot). */
const slots = new WeakMap<FastifyRequest, () => void>();

/**
 * The rate limit counts a minute; a concurrent burst would take the pool from every other tenant. `preParsing` runs
 * after the limiter's hook, so its headers are set. Streams are bounded by STREAMS_PER_CREDENTIAL instead.
 */
export function capConcurrentRequests(app: FastifyInstance, perKey: number, keyOf: (request: FastifyRequest) => string): void {
  const held = new Map<string, number>();
  app.addHook('preParsing', (request, reply, payload, done) => {
    // A client gone while the hooks before waited holds nothing: its `close` came before a listener could hear it.
    if (request.routeOptions.config.authenticated !== true || request.ws || reply.raw.destroyed) return done(null, payload);
    const key = keyOf(request);
    const count = held.get(key) ?? 0;
    if (count >= perKey) {
      return done(
        rateLimitRefusal('concurrency', `These credentials have ${count} requests in flight, as many as allowed at once: retry once one has been answered`, RETRY_AFTER_SECONDS),
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
    // `close` comes once, whether the response was sent whole or its connection lost first.
    reply.raw.once('close', release);
    done(null, payload);
  });
}

/** Its answer is now a stream, counted among the credential's streams. */
export function handOverSlot(request: FastifyRequest): void {
  slots.get(request)?.();
}
