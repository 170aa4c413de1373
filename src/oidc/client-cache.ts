import type { ClientMetadata } from 'oidc-provider';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { gatehouseData } from './clients.ts';

/** Secrets decrypted, as oidc-provider's own cache holds them; goes at once on every instance when `oauth_client` changes. */
export type ClientCache = InvalidatedCache<ClientMetadata>;

export function createClientCache(bus: InvalidationBus, ttlMs: number): ClientCache {
  return new InvalidatedCache<ClientMetadata>(bus, ttlMs, (metadata) => {
    const data = gatehouseData(metadata);
    return { oauth_client: metadata.client_id, application: data?.applicationId ?? null, tenant: data?.tenantId ?? null };
  });
}
