import { describe, expect, it } from 'vitest';
import { InvalidatedCache } from '../../src/events/invalidated-cache.ts';
import { createInvalidationBus } from '../../src/events/invalidations.ts';

interface Record {
  readonly name: string;
  readonly tenant: string | null;
  readonly size?: number;
}

/** A cache of records owned by their tenant (and none), counting the reads it sends to `load`. */
function setUp(weight?: { maxBytes: number }) {
  const bus = createInvalidationBus();
  const cache = new InvalidatedCache<Record>(
    bus,
    60_000,
    (record) => ({ tenant: record.tenant }),
    weight === undefined ? undefined : { maxBytes: weight.maxBytes, sizeOf: (record) => record.size ?? 1 },
  );
  const reads = { count: 0 };
  const find = (key: string, record: Record) => cache.find(key, async () => ((reads.count += 1), record));
  return { bus, cache, reads, find };
}

describe('InvalidatedCache', () => {
  it('findMany reads only the keys it lacks, in one load, and keeps none whose owner changed during the load', async () => {
    const { bus, cache, find } = setUp();
    await find('a', { name: 'a', tenant: 't1' });
    const asked: string[][] = [];
    const found = await cache.findMany(['a', 'b', 'c'], async (missing) => {
      asked.push(missing);
      await bus.publish({ kind: 'tenant', id: 't2' });
      return new Map(missing.map((key) => [key, { name: key, tenant: key === 'b' ? 't2' : 't3' }]));
    });
    expect(asked).toEqual([['b', 'c']]);
    expect([...found.keys()].sort()).toEqual(['a', 'b', 'c']);
    // b's owner changed while it was read: not kept; c was.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toEqual({ name: 'c', tenant: 't3' });
  });

  it('evicts exactly the entries of the invalidated owner, among many, and keeps the others', async () => {
    const { bus, reads, find } = setUp();
    for (let i = 0; i < 1_000; i += 1) await find(`k${i}`, { name: `r${i}`, tenant: `t${i % 10}` });
    await bus.publish({ kind: 'tenant', id: 't3' });
    await bus.publish({ kind: 'user', id: 't4' });
    reads.count = 0;
    for (let i = 0; i < 1_000; i += 1) await find(`k${i}`, { name: `r${i}`, tenant: `t${i % 10}` });
    expect(reads.count).toBe(100);
  });

  it('files a key again under its new owners when its entry is replaced: the old owner no longer evicts it', async () => {
    const { bus, cache, reads, find } = setUp();
    await find('k', { name: 'first', tenant: 't1' });
    cache.delete('k');
    await find('k', { name: 'second', tenant: 't2' });
    await bus.publish({ kind: 'tenant', id: 't1' });
    expect(cache.get('k')).toEqual({ name: 'second', tenant: 't2' });
    await bus.publish({ kind: 'tenant', id: 't2' });
    expect(cache.get('k')).toBeUndefined();
    expect(reads.count).toBe(2);
  });

  it('evicts by owner as before once entries were pushed out by the weight bound, refused as too heavy, or cleared by `all`', async () => {
    const { bus, cache, find } = setUp({ maxBytes: 10 });
    await find('light', { name: 'light', tenant: 't1', size: 4 });
    await find('too heavy', { name: 'too heavy', tenant: 't1', size: 11 });
    expect(cache.get('too heavy')).toBeUndefined();
    await find('pushes out light', { name: 'pushes out light', tenant: 't2', size: 8 });
    expect(cache.get('light')).toBeUndefined();
    await bus.publish({ kind: 'tenant', id: 't1' });
    expect(cache.get('pushes out light')).toBeDefined();
    await bus.publish({ kind: 'all' });
    expect(cache.get('pushes out light')).toBeUndefined();
    await find('after all', { name: 'after all', tenant: 't2', size: 1 });
    await bus.publish({ kind: 'tenant', id: 't2' });
    expect(cache.get('after all')).toBeUndefined();
  });
});
