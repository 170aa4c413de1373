import type { OAuthClientType } from '../../db/entities/oauth-client.entity.ts';

/** Extra client metadata `gatehouse` the OP carries (src/oidc/clients.ts). */
export interface GatehouseClientData {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly type: OAuthClientType;
  readonly permissions: readonly string[];
  readonly managementApi: boolean;
  /** Its `initiateLoginUri`, when registered (the OP's own `initiate_login_uri` takes https only). */
  readonly initiateLoginUri?: string;
  /** Origins answered with CORS besides those of its redirect URIs, in their normal form. */
  readonly allowedOrigins?: readonly string[];
  readonly previousSecret?: { readonly value: string; readonly expiresAtMs: number };
}
