import { randomBytes } from 'node:crypto';
import { INVALID_SPANID, INVALID_TRACEID } from '@opentelemetry/api';

/** Bytes drawn at a time: the trace and span ids of about 250 requests. */
const POOL_BYTES = 6144;

/**
 * Trace and span ids for the SDK (src/tracing.ts): from the CSPRNG, as W3C Trace Context asks of ids that may be sampled
 * on, where the SDK's default draws on Math.random, whose state a few outputs give away. Drawn a pool at a time and
 * hex-encoded once a pool: the default's id-by-id encoding took about 1 µs of every request, traced or dropped
 * (docs/bench.md, "Observability").
 */
export class PooledIdGenerator {
  readonly #draw: (bytes: number) => Buffer;
  #hex = '';
  #offset = 0;

  /** `draw`: the random bytes; the CSPRNG's but in tests. */
  constructor(draw: (bytes: number) => Buffer = randomBytes) {
    this.#draw = draw;
  }

  generateTraceId(): string {
    return this.#next(32, INVALID_TRACEID);
  }

  generateSpanId(): string {
    return this.#next(16, INVALID_SPANID);
  }

  #next(length: number, invalid: string): string {
    for (;;) {
      if (this.#offset + length > this.#hex.length) {
        this.#hex = this.#draw(POOL_BYTES).toString('hex');
        this.#offset = 0;
      }
      const id = this.#hex.slice(this.#offset, (this.#offset += length));
      // All zeros means no id: drawn once in 2^64 span ids, and skipped.
      if (id !== invalid) return id;
    }
  }
}
