import type { OAuthClientType } from '../../db/entities/oauth-client.entity.ts';

/**
 * What the OP carries of our own about a client (extra client metadata `gatehouse`, src/oidc/clients.ts): whose it is,
 * what its client-credentials tokens may do, and the previous secret while a rotation's grace period runs.
 */
export interface GatehouseClientData {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly type: OAuthClientType;
  readonly permissions: readonly string[];
  readonly previousSecret?: { readonly value: string; readonly expiresAt: number };
}
