/**
 * A Server-Sent Events client for the audit stream's and the subscriptions' tests: the events and comments read so
 * far, and waits on them.
 */
export interface SseEvent {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly data: string;
}

export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** The events received so far, in order. */
  readonly events: SseEvent[];
  /** The comment lines received so far (heartbeats). */
  readonly comments: string[];
  /** What an EventSource would send as `Last-Event-ID`: the last `id` field, an event's or a block's without data. */
  readonly lastEventId: string | undefined;
  /** The error body of a refused stream. */
  readonly body: unknown;
  /** Waits until `done()` holds of what was received (generously: a loaded machine), else throws. */
  until(done: (stream: SseStream) => boolean, what: string, ms?: number): Promise<void>;
  /** Whether the server ended the stream. */
  readonly ended: boolean;
  /** Whether it ended as an answer ends (its last chunk), not by a reset. */
  readonly endedCleanly: boolean;
  close(): void;
}

/** A stream of `url` (GET), or of the answer to a JSON `body` POSTed there (a GraphQL subscription). */
export async function openSse(url: string, headers: Record<string, string>, posted?: unknown): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers, ...(posted === undefined ? {} : { 'content-type': 'application/json' }) },
    signal: controller.signal,
    ...(posted === undefined ? {} : { method: 'POST', body: JSON.stringify(posted) }),
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  let endedCleanly = false;
  let lastEventId: string | undefined;
  let body: unknown;
  if (response.status !== 200) {
    body = await response.json();
    ended = true;
  } else {
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      const reader = response.body!.getReader();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          buffered += decoder.decode(read.value, { stream: true });
          let end: number;
          while ((end = buffered.indexOf('\n\n')) !== -1) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else {
                const colon = line.indexOf(':');
                const name = line.slice(0, colon);
                fields[name] = (fields[name] === undefined ? '' : `${fields[name]}\n`) + line.slice(colon + 1).replace(/^ /, '');
              }
            }
            if (fields['id'] !== undefined) lastEventId = fields['id'];
            if (fields['data'] !== undefined) events.push({ event: fields['event'], id: fields['id'], data: fields['data'] });
          }
        }
        endedCleanly = true;
      } catch {
        // aborted by close(), or dropped by the server
      }
      ended = true;
    })();
  }
  const stream: SseStream = {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    body,
    get ended() {
      return ended;
    },
    get endedCleanly() {
      return endedCleanly;
    },
    get lastEventId() {
      return lastEventId;
    },
    async until(done, what, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!done(stream)) {
        if (Date.now() > deadline) throw new Error(`audit stream: no ${what} within ${ms} ms (${events.length} events: ${events.map((e) => e.data).join(' | ').slice(0, 500)})`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => controller.abort(),
  };
  return stream;
}

/** The audit records an event stream carried. */
export const recordsOf = (stream: SseStream) => stream.events.filter((event) => event.event === 'audit').map((event) => JSON.parse(event.data) as { id: string; action: string; tenantId: string | null; target: { id: string | null }; changes: { before: unknown; after: unknown } | null });
