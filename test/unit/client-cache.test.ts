import type { ClientMetadata } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { createInvalidationBus, type Invalidation } from '../../src/events/invalidations.ts';
import { createClientCache } from '../../src/oidc/client-cache.ts';
import { GATEHOUSE_METADATA, type GatehouseClientData } from '../../src/oidc/clients.ts';

const metadata = (clientId: string, tenantId: string | null = null): ClientMetadata => {
  const data: GatehouseClientData = { applicationId: 'app-1', tenantId, type: 'm2m', permissions: [], managementApi: false };
  return { client_id: clientId, client_secret: 'ghs_secret', [GATEHOUSE_METADATA]: data };
};

/** How many times each client was read from the "database" after the invalidation. */
async function reloadsAfter(invalidation: Invalidation): Promise<Record<string, number>> {
  const bus = createInvalidationBus();
  const cache = createClientCache(bus, 60_000);
  const loads: Record<string, number> = { a: 0, b: 0 };
  const find = (id: string, tenantId: string | null) => cache.find(id, async () => ((loads[id]! += 1), metadata(id, tenantId)));
  await find('a', 'tenant-1');
  await find('b', null);
  await bus.publish(invalidation);
  loads['a'] = 0;
  loads['b'] = 0;
  await find('a', 'tenant-1');
  await find('b', null);
  return loads;
}

describe('the OP client cache', () => {
  it('forgets a client when it changes, and keeps the others', async () => {
    expect(await reloadsAfter({ kind: 'oauth_client', id: 'a' })).toEqual({ a: 1, b: 0 });
  });

  it('forgets the clients of a deleted tenant or application', async () => {
    expect(await reloadsAfter({ kind: 'tenant', id: 'tenant-1' })).toEqual({ a: 1, b: 0 });
    expect(await reloadsAfter({ kind: 'application', id: 'app-1' })).toEqual({ a: 1, b: 1 });
  });

  it('forgets everything after a lost subscription, and nothing for an unrelated change', async () => {
    expect(await reloadsAfter({ kind: 'all' })).toEqual({ a: 1, b: 1 });
    expect(await reloadsAfter({ kind: 'user', id: 'a' })).toEqual({ a: 0, b: 0 });
  });

  it('never remembers an unknown client', async () => {
    const cache = createClientCache(createInvalidationBus(), 60_000);
    let loads = 0;
    for (let i = 0; i < 2; i += 1) expect(await cache.find('x', async () => ((loads += 1), undefined))).toBeUndefined();
    expect(loads).toBe(2);
  });
});
