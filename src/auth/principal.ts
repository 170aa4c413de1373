import type { RoleSubject } from '../domain/authorization/held-roles.ts';
import type { BearerSubject } from './bearer-subject.ts';
import type { PermissionSet } from './permissions.ts';

/** Who is calling, settled once per request by authenticate() and never re-derived below it. */
export interface Principal {
  /** Stable id of the credential: the rate-limit and idempotency key. */
  readonly credentialId: string;
  readonly applicationId: string;
  /** The tenant the credentials are bound to (Bearer `tenant_id`, else a tenant-scoped key's tenant), if any. */
  readonly tenantId: string | null;
  /**
   * Whose grants the credentials act with: the API key, the Bearer token's user or M2M credential, or both (then only
   * what both may). None on the hosted pages.
   */
  readonly subjects: readonly RoleSubject[];
  /**
   * What the credentials may do in a tenant of their application (null: application-wide), asked once per tenant and
   * request through the instance's cache. Only the scope's tenant counts (context.ts, scopeTenant).
   */
  permissionsIn(tenantId: string | null): Promise<PermissionSet>;
  /**
   * For audit records: whom a Bearer token speaks for when present (an operator's, on an application they manage),
   * else the API key; on the hosted pages before
   * sign-in, the OAuth client that sent the user there (context.ts, endUserScope) or the invitation opened; `system`
   * where the service reads a surface's configuration for them (surfaceReaderScope), which records nothing.
   */
  readonly actor: { readonly type: 'api_key' | BearerSubject['kind'] | 'operator' | 'oauth_client' | 'invitation' | 'system'; readonly id: string };
  readonly apiKeyId: string | null;
  /**
   * When the authenticating API key stops working, if it expires: a key it creates may not outlive it. Null for keys
   * that do not expire, and for Bearer tokens alone (a user's or M2M credential's short session, not a credential).
   */
  readonly apiKeyExpiresAt: Date | null;
  /**
   * Whether the application's organization is deactivated: every operation but the one that reactivates it is then
   * refused (403 `organization_deactivated`, src/graphql/authorize-operation.ts).
   */
  readonly organizationDeactivated: boolean;
}
