import { graphql } from './api.ts';
import type { Page } from './operations.ts';
import { readNames, type ItemReference } from './operations-names.ts';

// The API keys tab's calls (field names as in schema/api-keys.graphql). All act at the
// application's scope, which lists every key of the application, its tenants' included, and may act on any of them.

const PAGE_SIZE = 25;
const KEY_FIELDS = 'id tenantId userId name permissions expiresAt revokedAt lastRotatedAt createdAt';

export interface ApiKey {
  readonly id: string;
  /** Null: application-wide. */
  readonly tenantId: string | null;
  /** Null: a standalone key; else the user it acts as. */
  readonly userId: string | null;
  readonly name: string;
  readonly permissions: readonly string[];
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastRotatedAt: string | null;
  readonly createdAt: string;
}

/** A key with the names of its tenant and user, read with its page. */
export interface ListedApiKey extends ApiKey {
  readonly tenantName: string | null;
  readonly userEmail: string | null;
}

export interface ApiKeyWithSecret {
  readonly key: ApiKey;
  readonly secret: string;
}

export interface NewApiKey {
  readonly name: string;
  readonly permissions: readonly string[];
  /** Null: application-wide. */
  readonly tenantId: string | null;
  /** ISO date-time; null for a key that does not expire. */
  readonly expiresAt: string | null;
}

/** The application's keys (every tenant's too), or with `tenantId` that tenant's only; a tenant or user the operator
 *  may not read is shown by its id (readNames reads each list it may). */
export async function listApiKeys(appId: string, tenantId: string | null, cursor: string | null): Promise<Page<ListedApiKey>> {
  const query = `query ApiKeys($appId: UUID!, $tenantId: UUID, $pageSize: Int, $cursor: String) {
    apiKeys(appId: $appId, tenantId: $tenantId, pageSize: $pageSize, cursor: $cursor) { data { ${KEY_FIELDS} } next }
  }`;
  const data = await graphql<{ apiKeys: Page<ApiKey> }>(query, { appId, tenantId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  const owners = data.apiKeys.data.flatMap((key): ItemReference[] => [
    ...(key.tenantId === null ? [] : [{ type: 'tenant' as const, id: key.tenantId }]),
    ...(key.userId === null ? [] : [{ type: 'user' as const, id: key.userId }]),
  ]);
  const nameOf = await readNames(appId, owners);
  const keys = data.apiKeys.data.map((key) => ({
    ...key,
    tenantName: key.tenantId === null ? null : (nameOf('tenant', key.tenantId) ?? key.tenantId),
    userEmail: key.userId === null ? null : (nameOf('user', key.userId) ?? key.userId),
  }));
  return { data: keys, next: data.apiKeys.next };
}

export async function createApiKey(appId: string, input: NewApiKey): Promise<ApiKeyWithSecret> {
  const mutation = `mutation CreateApiKey($appId: UUID!, $input: CreateApiKeyInput!) {
    createApiKey(appId: $appId, input: $input) { key { ${KEY_FIELDS} } secret }
  }`;
  const data = await graphql<{ createApiKey: ApiKeyWithSecret }>(mutation, { appId, input }, { applicationId: appId });
  return data.createApiKey;
}

export async function rotateApiKey(appId: string, keyId: string): Promise<ApiKeyWithSecret> {
  const mutation = `mutation RotateApiKey($appId: UUID!, $keyId: UUID!) {
    rotateApiKey(appId: $appId, keyId: $keyId) { key { ${KEY_FIELDS} } secret }
  }`;
  const data = await graphql<{ rotateApiKey: ApiKeyWithSecret }>(mutation, { appId, keyId }, { applicationId: appId });
  return data.rotateApiKey;
}

export async function revokeApiKey(appId: string, keyId: string): Promise<ApiKey> {
  const mutation = `mutation RevokeApiKey($appId: UUID!, $keyId: UUID!) { revokeApiKey(appId: $appId, keyId: $keyId) { ${KEY_FIELDS} } }`;
  const data = await graphql<{ revokeApiKey: ApiKey }>(mutation, { appId, keyId }, { applicationId: appId });
  return data.revokeApiKey;
}
