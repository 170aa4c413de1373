import type { ClientMetadata } from 'oidc-provider';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { gatehouseData } from './clients.ts';

/**
 * Client metadata the OP read recently on this instance (secrets decrypted, as oidc-provider's own cache holds them):
 * a token request costs no round trip and no decryption. An entry lives OAUTH_CLIENT_CACHE_MS at most and goes at
 * once, on every instance, when the management API publishes a change to `oauth_client`.
 */
export type ClientCache = InvalidatedCache<ClientMetadata>;

export function createClientCache(bus: InvalidationBus, ttlMs: number): ClientCache {
  return new InvalidatedCache<ClientMetadata>(bus, ttlMs, (metadata) => {
    const data = gatehouseData(metadata);
    return { oauth_client: metadata.client_id, application: data?.applicationId ?? null, tenant: data?.tenantId ?? null };
  });
}
