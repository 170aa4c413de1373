import { MAX_STALL_MS } from '../http/event-stream.ts';

/** A WebSocket's heartbeat: a ping every tick; the client is dropped once a ping has gone unanswered for `stallMs`
 *  (timed from the ping, so a heartbeat longer than `stallMs` drops no one who answers). */
export class PingWatch {
  #unansweredSince: number | undefined;
  readonly #stallMs: number;

  constructor(stallMs = MAX_STALL_MS) {
    this.#stallMs = stallMs;
  }

  pong(): void {
    this.#unansweredSince = undefined;
  }

  /** `ping`: send one; `drop`: the client has answered nothing for too long. */
  tick(now = Date.now()): 'ping' | 'drop' {
    if (this.#unansweredSince !== undefined && now - this.#unansweredSince > this.#stallMs) return 'drop';
    this.#unansweredSince ??= now;
    return 'ping';
  }
}
