import { describe, expect, it } from 'vitest';
import { PermissionSet } from '../../src/auth/permissions.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { createInvalidationBus } from '../../src/events/invalidations.ts';
import type { StoredResponse } from '../../src/http/idempotency.ts';
import { ReadCache } from '../../src/rest/read-cache.ts';

const principal = (overrides: Partial<Principal> = {}): Principal => ({
  credentialId: 'api_key:key-1',
  applicationId: 'app-1',
  tenantId: null,
  subjects: [{ type: 'api_key', id: 'key-1' }],
  permissionsIn: async () => new PermissionSet(['*']),
  actor: { type: 'api_key', id: 'key-1' },
  apiKeyId: 'key-1',
  apiKeyExpiresAt: null,
  credentialRecords: [],
  organizationDeactivated: false,
  ...overrides,
});

/** An operation that answers `body` with `status`, counting its runs. */
function operation(body: unknown, status = 200) {
  const runs = { count: 0 };
  const execute = async (): Promise<StoredResponse> => ((runs.count += 1), { status, body });
  return { runs, execute };
}

describe('ReadCache', () => {
  it('answers a kept 200 as its JSON text, until its application’s users change; another application’s change leaves it', async () => {
    const bus = createInvalidationBus();
    const cache = new ReadCache(bus, 60_000);
    const { runs, execute } = operation({ data: [{ id: 'u1' }], next: null });
    const ask = () => cache.answer('users', 'ListUsers', principal(), { pageSize: 20 }, execute);
    expect(await ask()).toEqual({ status: 200, json: '{"data":[{"id":"u1"}],"next":null}' });
    await ask();
    expect(runs.count).toBe(1);
    await bus.publish({ kind: 'users', id: 'app-2' });
    await bus.publish({ kind: 'tenant', id: 'app-1' });
    await ask();
    expect(runs.count).toBe(1);
    await bus.publish({ kind: 'users', id: 'app-1' });
    await ask();
    expect(runs.count).toBe(2);
    await bus.publish({ kind: 'application', id: 'app-1' });
    await ask();
    expect(runs.count).toBe(3);
    await bus.publish({ kind: 'all' });
    await ask();
    expect(runs.count).toBe(4);
  });

  it('keeps an answer for one caller and one question: any other principal or variables run the operation', async () => {
    const cache = new ReadCache(createInvalidationBus(), 60_000);
    const { runs, execute } = operation({ data: [] });
    await cache.answer('users', 'ListUsers', principal(), {}, execute);
    const others: [Principal, Record<string, unknown>][] = [
      [principal({ tenantId: 'tenant-1' }), {}],
      [principal({ credentialId: 'api_key:key-2', apiKeyId: 'key-2', actor: { type: 'api_key', id: 'key-2' } }), {}],
      [principal({ actor: { type: 'user', id: 'user-1' } }), {}],
      [principal({ applicationId: 'app-2' }), {}],
      [principal(), { pageSize: 20 }],
    ];
    for (const [other, variables] of others) await cache.answer('users', 'ListUsers', other, variables, execute);
    await cache.answer('users', 'GetUser', principal(), {}, execute);
    expect(runs.count).toBe(1 + others.length + 1);
  });

  it('keeps no refusal, and nothing at all with a lifetime of 0', async () => {
    const notFound = { code: 'not_found', message: 'User not found' };
    const refusing = operation(notFound, 404);
    const cache = new ReadCache(createInvalidationBus(), 60_000);
    for (let i = 0; i < 2; i += 1) expect(await cache.answer('users', 'GetUser', principal(), {}, refusing.execute)).toEqual({ status: 404, body: notFound });
    expect(refusing.runs.count).toBe(2);

    const off = new ReadCache(createInvalidationBus(), 0);
    const answering = operation({ data: [] });
    for (let i = 0; i < 2; i += 1) expect(await off.answer('users', 'ListUsers', principal(), {}, answering.execute)).toEqual({ status: 200, json: '{"data":[]}' });
    expect(answering.runs.count).toBe(2);
  });

  it('does not keep what a read saw when its application’s users changed during that read', async () => {
    const bus = createInvalidationBus();
    const cache = new ReadCache(bus, 60_000);
    const stale = async (): Promise<StoredResponse> => {
      // The change commits, and is announced, while this read's rows are on their way.
      await bus.publish({ kind: 'users', id: 'app-1' });
      return { status: 200, body: { data: ['stale'] } };
    };
    expect(await cache.answer('users', 'ListUsers', principal(), {}, stale)).toEqual({ status: 200, json: '{"data":["stale"]}' });
    const fresh = operation({ data: ['fresh'] });
    expect(await cache.answer('users', 'ListUsers', principal(), {}, fresh.execute)).toEqual({ status: 200, json: '{"data":["fresh"]}' });
    expect(fresh.runs.count).toBe(1);
  });

  it('keeps what a read saw when only other records changed during it; not when too many changes came in to tell', async () => {
    const bus = createInvalidationBus();
    const cache = new ReadCache(bus, 60_000);
    const during = (invalidations: number, other = 'app-2') => async (): Promise<StoredResponse> => {
      for (let i = 0; i < invalidations; i += 1) await bus.publish({ kind: 'users', id: other });
      await bus.publish({ kind: 'grant', id: 'app-1' });
      return { status: 200, body: { data: [] } };
    };
    await cache.answer('users', 'ListUsers', principal(), {}, during(1));
    const kept = operation({ data: ['not read'] });
    expect(await cache.answer('users', 'ListUsers', principal(), {}, kept.execute)).toEqual({ status: 200, json: '{"data":[]}' });
    expect(kept.runs.count).toBe(0);

    await cache.answer('users', 'GetUser', principal(), {}, during(256));
    const read = operation({ data: ['read'] });
    expect(await cache.answer('users', 'GetUser', principal(), {}, read.execute)).toEqual({ status: 200, json: '{"data":["read"]}' });
    expect(read.runs.count).toBe(1);
  });

  it('keeps no answer heavier than its whole budget (16 MiB)', async () => {
    const cache = new ReadCache(createInvalidationBus(), 60_000);
    const huge = operation({ data: 'x'.repeat(9 * 1024 * 1024) });
    for (let i = 0; i < 2; i += 1) await cache.answer('users', 'ListUsers', principal(), {}, huge.execute);
    expect(huge.runs.count).toBe(2);
  });
});
