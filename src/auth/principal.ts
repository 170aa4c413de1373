import type { PermissionSet } from './permissions.ts';

/** Who is calling, settled once per request by authenticate() and never re-derived below it. */
export interface Principal {
  /** Stable id of the credential: the rate-limit and idempotency key. */
  readonly credentialId: string;
  readonly applicationId: string;
  /** The tenant the credentials are bound to (Bearer `tenant_id`, else a tenant-scoped key's tenant), if any. */
  readonly tenantId: string | null;
  readonly permissions: PermissionSet;
  /**
   * For audit records: the user when a Bearer token is present, else the API key; on the hosted sign-in pages,
   * before anyone is signed in, the OAuth client that sent the end user there (context.ts, endUserScope).
   */
  readonly actor: { readonly type: 'api_key' | 'user' | 'oauth_client'; readonly id: string };
  readonly apiKeyId: string | null;
  /**
   * When the authenticating API key stops working, if it expires: a key it creates may not outlive it. Null for keys
   * that do not expire, and for Bearer tokens alone (a user's or M2M credential's short session, not a credential).
   */
  readonly apiKeyExpiresAt: Date | null;
}
