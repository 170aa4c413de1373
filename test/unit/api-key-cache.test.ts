import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from '../../src/auth/api-key-cache.ts';
import type { ApiKeyRecord } from '../../src/domain/api-keys/working-key.ts';
import { createInvalidationBus } from '../../src/events/invalidations.ts';

const record = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  id: 'key-1',
  application_id: 'app-1',
  tenant_id: null,
  user_id: null,
  permissions: ['*'],
  secret_hash: 'hash-1',
  expires_at: null,
  ...overrides,
});

describe('ApiKeyCache', () => {
  it('answers from memory until the entry is invalidated', async () => {
    const bus = createInvalidationBus();
    const cache = new ApiKeyCache(bus, 60_000);
    let loads = 0;
    const load = async () => ((loads += 1), record());
    await cache.find('hash-1', load);
    await cache.find('hash-1', load);
    expect(loads).toBe(1);
    await bus.publish({ kind: 'application', id: 'app-1' });
    await cache.find('hash-1', load);
    expect(loads).toBe(2);
  });

  it('refuses a cached key once it has expired', async () => {
    const cache = new ApiKeyCache(createInvalidationBus(), 60_000);
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    await cache.find('hash-1', async () => record({ expires_at: expiresAt }), new Date('2029-12-31T23:59:59Z'));
    expect(await cache.find('hash-1', async () => undefined, new Date('2030-01-01T00:00:01Z'))).toBeUndefined();
  });

  it('does not keep what a read saw when an invalidation arrived during that read', async () => {
    const bus = createInvalidationBus();
    const cache = new ApiKeyCache(bus, 60_000);
    await cache.find('hash-1', async () => {
      await bus.publish({ kind: 'api_key', id: 'key-1' });
      return record();
    });
    let loads = 0;
    await cache.find('hash-1', async () => ((loads += 1), record()));
    expect(loads).toBe(1);
  });

  it('never remembers with a lifetime of 0', async () => {
    const cache = new ApiKeyCache(createInvalidationBus(), 0);
    let loads = 0;
    for (let i = 0; i < 3; i += 1) await cache.find('hash-1', async () => ((loads += 1), record()));
    expect(loads).toBe(3);
  });
});
