import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import type { Invalidation } from '../../src/events/invalidations.ts';
import { credentialWatch, RECHECKS_AT_ONCE } from '../../src/graphql/credential-watch.ts';

interface Connection {
  readonly name: string;
  closed: boolean;
}

/** A bus the test speaks on, and re-checks that run until the test lets them end. */
function watched() {
  let tell!: (invalidation: Invalidation) => void;
  const asked: string[] = [];
  const ends: (() => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const watch = credentialWatch<Connection>({ subscribe: (listener) => (tell = listener) }, async (connection) => {
    asked.push(connection.name);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await new Promise<void>((resolve) => ends.push(resolve));
    running -= 1;
  });
  /** Lets every running re-check end, and those waiting start. */
  const settle = async () => {
    while (ends.length > 0) {
      for (const end of ends.splice(0)) end();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { watch, tell: (invalidation: Invalidation) => tell(invalidation), asked, settle, mostAtOnce: () => mostAtOnce };
}

const principalOn = (...credentialRecords: Principal['credentialRecords']) => ({ credentialRecords }) as Principal;
const connection = (name: string): Connection => ({ name, closed: false });

afterEach(() => vi.useRealTimers());

describe('credentialWatch', () => {
  it('asks every connection again on `all`, a few at a time: once however often it is told while waiting, again if told once its read began', async () => {
    const { watch, tell, asked, settle, mostAtOnce } = watched();
    const connections = Array.from({ length: 10 }, (_, index) => connection(`c${index}`));
    for (const each of connections) watch.watch(each, principalOn({ api_key: each.name }), Infinity);
    tell({ kind: 'all' });
    tell({ kind: 'all' });
    tell({ kind: 'api_key', id: 'c9' });
    expect(asked).toEqual(['c0', 'c1', 'c2', 'c3']);
    await settle();
    const timesAsked = Object.fromEntries(connections.map(({ name }) => [name, asked.filter((each) => each === name).length]));
    expect(timesAsked).toEqual({ c0: 2, c1: 2, c2: 2, c3: 2, c4: 1, c5: 1, c6: 1, c7: 1, c8: 1, c9: 1 });
    expect(mostAtOnce()).toBe(RECHECKS_AT_ONCE);
    expect(watch.heard).toBe(3);
  });

  it('asks only the connections standing on the changed record, not those closed or unwatched since', async () => {
    const { watch, tell, asked, settle } = watched();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(connection) as [Connection, Connection, Connection, Connection];
    watch.watch(a, principalOn({ api_key: 'k1', user: 'u1' }), Infinity);
    watch.watch(b, principalOn({ api_key: 'k2' }, { user: 'u1' }), Infinity);
    watch.watch(c, principalOn({ api_key: 'k3' }), Infinity);
    watch.watch(d, principalOn({ api_key: 'k1' }), Infinity);
    watch.unwatch(d);
    tell({ kind: 'user', id: 'u1' });
    await settle();
    tell({ kind: 'api_key', id: 'k1' });
    await settle();
    expect(asked).toEqual(['a', 'b', 'a']);
    asked.length = 0;
    // Told before its turn came, closed before it: no read for it.
    const [e, f, g] = ['e', 'f', 'g'].map(connection) as [Connection, Connection, Connection];
    for (const each of [e, f, g]) watch.watch(each, principalOn({ api_key: 'same' }), Infinity);
    for (let index = 0; index < RECHECKS_AT_ONCE; index += 1) watch.watch(connection(`busy${index}`), principalOn({ api_key: 'busy' }), Infinity);
    tell({ kind: 'api_key', id: 'busy' });
    tell({ kind: 'api_key', id: 'same' });
    g.closed = true;
    await settle();
    expect(asked.filter((name) => !name.startsWith('busy'))).toEqual(['e', 'f']);
  });

  it('asks a connection again when its key or token runs out, unless it was unwatched first', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { watch, asked, settle } = watched();
    const [expiring, unwatched, lasting] = ['expiring', 'unwatched', 'lasting'].map(connection) as [Connection, Connection, Connection];
    watch.watch(expiring, principalOn({ api_key: 'k1' }), 60_000);
    watch.watch(unwatched, principalOn({ api_key: 'k2' }), 60_000);
    watch.watch(lasting, principalOn({ api_key: 'k3' }), Infinity);
    watch.unwatch(unwatched);
    vi.advanceTimersByTime(59_999);
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(asked).toEqual(['expiring']);
    // Still authenticating (a timer a moment early, a database clock behind): asked again each second until closed.
    vi.advanceTimersByTime(1_000);
    await settle();
    expect(asked).toEqual(['expiring', 'expiring']);
    expiring.closed = true;
    watch.unwatch(expiring);
    vi.advanceTimersByTime(5_000);
    await settle();
    expect(asked).toEqual(['expiring', 'expiring']);
  });
});
