import { describe, expect, it } from 'vitest';
import { PingWatch } from '../../src/graphql/ping-watch.ts';

describe('a WebSocket heartbeat', () => {
  it('keeps a client that answers, however long the heartbeat is (31 s here, over the 30 s stall)', () => {
    const watch = new PingWatch(30_000);
    for (let tick = 1; tick <= 5; tick += 1) {
      expect(watch.tick(tick * 31_000)).toBe('ping');
      watch.pong();
    }
  });

  it('drops a client once a ping has gone unanswered for the stall, pinging until then', () => {
    const watch = new PingWatch(30_000);
    expect(watch.tick(15_000)).toBe('ping');
    expect(watch.tick(30_000)).toBe('ping');
    expect(watch.tick(45_000)).toBe('ping');
    expect(watch.tick(45_001)).toBe('drop');
    // An answer, however late, starts the count again.
    watch.pong();
    expect(watch.tick(100_000)).toBe('ping');
    expect(watch.tick(131_000)).toBe('drop');
  });
});
