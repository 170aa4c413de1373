import { MAX_STALL_MS } from '../event-stream.ts';

/**
 * A WebSocket's heartbeat: a ping every tick, and the client dropped once a ping has gone unanswered for `stallMs`.
 * Timed from the oldest unanswered ping, not from the last pong: a heartbeat longer than `stallMs` would otherwise
 * drop every healthy client at its first tick, before any ping went out.
 */
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
