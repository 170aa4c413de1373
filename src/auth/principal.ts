import type { RoleSubject } from '../domain/authorization/held-roles.ts';
import type { Owners } from '../events/invalidated-cache.ts';
import type { BearerSubject } from './bearer-subject.ts';
import type { PermissionSet } from './permissions.ts';

/** Settled once per request by authenticate() and never re-derived below it. */
export interface Principal {
  /** The rate-limit and idempotency key. */
  readonly credentialId: string;
  readonly applicationId: string;
  /** Bearer `tenant_id`, else a tenant-scoped key's tenant. */
  readonly tenantId: string | null;
  /** With both an API key and a Bearer token, only what both may. None on the hosted pages. */
  readonly subjects: readonly RoleSubject[];
  /** Cached per tenant and request; only the scope's tenant counts (context.ts, scopeTenant). */
  permissionsIn(tenantId: string | null): Promise<PermissionSet>;
  /**
   * Whom a Bearer token speaks for, else the API key; before sign-in, the OAuth client or invitation that opened the page;
   * `system` for surface configuration reads, which record nothing.
   */
  readonly actor: { readonly type: 'api_key' | BearerSubject['kind'] | 'operator' | 'oauth_client' | 'invitation' | 'system'; readonly id: string };
  readonly apiKeyId: string | null;
  /** A key it creates may not outlive it. Null for keys that do not expire, and for Bearer tokens alone. */
  readonly apiKeyExpiresAt: Date | null;
  /** What each credential's authentication read, as invalidations name it: a change to one may end them (a WebSocket
   *  connection then asks them again, src/graphql/websocket.ts). None on the hosted pages. */
  readonly credentialRecords: readonly Owners[];
  /** Every operation but the reactivation is then refused (403, src/graphql/authorize-operation.ts). */
  readonly organizationDeactivated: boolean;
}
