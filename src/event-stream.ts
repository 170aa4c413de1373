import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Server-Sent Events answers (the REST audit stream, GraphQL subscriptions): a stream holds its connection for hours,
 * so a client that reads too little is dropped rather than buffered for, heartbeats keep proxies from closing an idle
 * one, and the server's shutdown ends them all rather than waiting for them.
 */

/** Bytes a client may leave unread before it is dropped rather than buffered for. */
const MAX_UNREAD_BYTES = 1 << 20;
/** How long a client may read nothing while events wait for it. */
const MAX_STALL_MS = 30_000;

export class EventStream {
  readonly #reply: FastifyReply;
  #closed = false;

  constructor(reply: FastifyReply, heartbeatMs: number, onClose: () => void) {
    this.#reply = reply;
    const raw = reply.raw;
    const heartbeat = setInterval(() => this.#write(': heartbeat\n\n'), heartbeatMs);
    raw.once('close', () => {
      this.#closed = true;
      clearInterval(heartbeat);
      onClose();
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once the client can take more (it read what it had), or once it is dropped. */
  async send(event: string, data: string, id?: string): Promise<void> {
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

  /** Ends the answer once what was written is sent. */
  finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#reply.raw.end();
  }

  /** Drops the connection. */
  end(): void {
    this.#closed = true;
    this.#reply.raw.destroy();
  }

  /** Writes unless closed; false when the client must read first. Past MAX_UNREAD_BYTES unread, the client is dropped. */
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

/** The server's open streams: each reply opened as one, and all of them ended by the server's shutdown. */
export class EventStreams {
  readonly #open = new Set<EventStream>();
  readonly #heartbeatMs: number;

  constructor(app: FastifyInstance, heartbeatMs: number) {
    this.#heartbeatMs = heartbeatMs;
    app.addHook('preClose', async () => {
      for (const stream of this.#open) stream.end();
    });
  }

  /** Takes `reply` over as a 200 `text/event-stream` answer, with the headers Fastify's hooks have set so far. */
  open(reply: FastifyReply): EventStream {
    reply.hijack();
    // A hijacked reply sends only what it writes: the request id and rate-limit headers go out too.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx buffers responses unless told not to.
      'x-accel-buffering': 'no',
    });
    reply.raw.write(': stream open\n\n');
    const stream = new EventStream(reply, this.#heartbeatMs, () => this.#open.delete(stream));
    this.#open.add(stream);
    return stream;
  }
}
