import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import { handOverSlot } from './concurrency-cap.ts';
import { rateLimitRefusal } from '../observability/metrics.ts';

/**
 * Server-Sent Events hold a connection for hours: a slow reader is dropped rather than buffered for, heartbeats keep
 * proxies from closing an idle one, and shutdown ends them rather than waiting.
 */

/** Then dropped rather than buffered for. */
export const MAX_UNREAD_BYTES = 1 << 20;
/** While events wait for it. */
export const MAX_STALL_MS = 30_000;

export interface StreamSlot {
  release(): void;
}

export class EventStream {
  readonly #reply: FastifyReply;
  #closed = false;
  #resumeAt: string | undefined;

  /** Closed at once, `onClose` not called, when its client left before (`destroyed` is set as `close` is emitted). */
  constructor(reply: FastifyReply, heartbeatMs: number, onClose: () => void) {
    this.#reply = reply;
    const raw = reply.raw;
    if (raw.destroyed) {
      this.#closed = true;
      return;
    }
    // A hijacked reply sends only what it writes.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) raw.setHeader(name, value);
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    raw.write(': stream open\n\n');
    const heartbeat = setInterval(() => {
      // An `id` without data sets an EventSource's Last-Event-ID and dispatches nothing.
      const id = this.#resumeAt;
      this.#resumeAt = undefined;
      this.#write(`: heartbeat\n${id === undefined ? '' : `id: ${id}\n`}\n`);
    }, heartbeatMs).unref();
    raw.once('close', () => {
      this.#closed = true;
      clearInterval(heartbeat);
      onClose();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  get unread(): number {
    return this.#reply.raw.writableLength;
  }

  /** Sent as the next heartbeat's `id` unless an event is sent first: where a client resumes that was sent nothing
   *  since (a filtered stream passing other records). */
  resumeAt(id: string): void {
    this.#resumeAt = id;
  }

  /** Resolves once the client can take more, or once it is dropped. */
  async send(event: string, data: string, id?: string): Promise<void> {
    // A place set before this event is behind it (a subscription's `next` carries no id of its own).
    this.#resumeAt = undefined;
    if (this.#write(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`)) return;
    const raw = this.#reply.raw;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        raw.off('drain', done);
        raw.off('close', done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.end();
        done();
      }, MAX_STALL_MS);
      raw.once('drain', done);
      raw.once('close', done);
    });
  }

  finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reply.raw.end();
  }

  end(): void {
    this.#closed = true;
    this.#reply.raw.destroy();
  }

  /** False when the client must read first. */
  #write(text: string): boolean {
    if (this.#closed) return true;
    const raw = this.#reply.raw;
    if (raw.writableLength > MAX_UNREAD_BYTES) {
      this.end();
      return true;
    }
    return raw.write(text);
  }
}

/** Per instance: all ended by the server's shutdown, and counted per credential. */
export class EventStreams {
  readonly #open = new Set<EventStream>();
  readonly #held = new Map<string, number>();
  readonly #heartbeatMs: number;
  readonly #perCredential: number;
  readonly #leftUnfinished: (reply: FastifyReply) => void;

  /**
   * `leftUnfinished` logs and measures a stream its client left: its response closes without `finish`, which is all
   * Fastify waits for to run onResponse and write the request's line.
   */
  constructor(app: FastifyInstance, heartbeatMs: number, perCredential: number, leftUnfinished: (reply: FastifyReply) => void = () => undefined) {
    this.#heartbeatMs = heartbeatMs;
    this.#perCredential = perCredential;
    this.#leftUnfinished = leftUnfinished;
    // One whose client has read everything ends as an answer does; one behind would hold the shutdown: dropped.
    app.addHook('preClose', async () => {
      for (const stream of this.#open) {
        if (stream.unread === 0) stream.finish();
        else stream.end();
      }
    });
  }

  /** Bounded with GraphQL's WebSocket connections (websocket.ts): each holds a connection and reads the database. */
  take(principal: Principal): StreamSlot {
    const credential = principal.credentialId;
    const held = this.#held.get(credential) ?? 0;
    if (held >= this.#perCredential) {
      throw rateLimitRefusal('streams', `These credentials hold ${held} streams open, as many as allowed at once: close one first`);
    }
    this.#held.set(credential, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.#held.get(credential) ?? 1) - 1;
        if (left === 0) this.#held.delete(credential);
        else this.#held.set(credential, left);
      },
    };
  }

  /** With the headers Fastify's hooks have set so far; closed already when its client has left. */
  open(reply: FastifyReply, slot: StreamSlot): EventStream {
    handOverSlot(reply.request);
    reply.hijack();
    const stream = new EventStream(reply, this.#heartbeatMs, () => {
      this.#open.delete(stream);
      slot.release();
      if (!reply.raw.writableFinished) this.#leftUnfinished(reply);
    });
    if (stream.closed) {
      slot.release();
      this.#leftUnfinished(reply);
    } else this.#open.add(stream);
    return stream;
  }
}
