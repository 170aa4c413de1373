import type { ClientMetadata } from 'oidc-provider';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { gatehouseData } from './clients.ts';

/**
 * The client metadata the OP read recently on this instance (secrets decrypted, as oidc-provider's own client cache
 * holds them), by client_id: a token request then costs no database round trip and no decryption. An entry lives
 * OAUTH_CLIENT_CACHE_MS at most and goes at once when the client or M2M credential is changed, rotated, revoked or
 * deleted, or its tenant or application is deleted, on any instance (the management API publishes `oauth_client`).
 */
export type ClientCache = InvalidatedCache<ClientMetadata>;

export function createClientCache(bus: InvalidationBus, ttlMs: number): ClientCache {
  return new InvalidatedCache<ClientMetadata>(bus, ttlMs, (metadata) => {
    const data = gatehouseData(metadata);
    return { oauth_client: metadata.client_id, application: data?.applicationId ?? null, tenant: data?.tenantId ?? null };
  });
}
