import { randomBytes } from 'node:crypto';
import { INVALID_SPANID, INVALID_TRACEID } from '@opentelemetry/api';

/** About 250 requests' ids. */
const POOL_BYTES = 6144;

/**
 * From the CSPRNG, as W3C Trace Context asks; the SDK's default uses Math.random, whose state a few outputs give away.
 * Pooled, hex-encoded once a pool: id-by-id encoding took about 1 µs of every request (docs/bench.md).
 */
export class PooledIdGenerator {
  readonly #draw: (bytes: number) => Buffer;
  #hex = '';
  #offset = 0;

  /** The CSPRNG's but in tests. */
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
      // All zeros means no id: drawn once in 2^64, and skipped.
      if (id !== invalid) return id;
    }
  }
}
