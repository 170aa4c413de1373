import { AUTH_PROVIDER_FIELDS, type AuthProvider, type AuthProviderType, type PolicyKind } from './operations-email-auth.ts';
import { callInScope, type SettingsScope } from './operations.ts';
import type { SettingValues } from './setting-fields.ts';

// A tenant scope writes the tenant's own provider or policy override, refused (409) unless authentication is isolated.

export interface CreateAuthProviderInput {
  readonly type: AuthProviderType;
  /** Left out: the server derives one from the type. */
  readonly name?: string;
  readonly enabled: boolean;
  readonly config: SettingValues;
  readonly secrets: Readonly<Record<string, string>>;
}

/** A partial update: `config` merges field by field (a null restores a default); secrets left out are kept. */
export interface UpdateAuthProviderInput {
  readonly name?: string;
  readonly enabled?: boolean;
  readonly config?: SettingValues;
  readonly secrets?: Readonly<Record<string, string>>;
}

export async function createAuthProvider(scope: SettingsScope, input: CreateAuthProviderInput): Promise<AuthProvider> {
  const mutation = `mutation CreateAuthProvider($appId: UUID!, $tenantId: UUID, $input: CreateAuthProviderInput!) {
    createAuthProvider(appId: $appId, tenantId: $tenantId, input: $input) { ...AuthProviderFields }
  }
  ${AUTH_PROVIDER_FIELDS}`;
  const data = await callInScope<{ createAuthProvider: AuthProvider }>(mutation, scope, { input });
  return data.createAuthProvider;
}

export async function updateAuthProvider(scope: SettingsScope, providerId: string, input: UpdateAuthProviderInput): Promise<void> {
  const mutation = `mutation UpdateAuthProvider($appId: UUID!, $tenantId: UUID, $providerId: UUID!, $input: UpdateAuthProviderInput!) {
    updateAuthProvider(appId: $appId, tenantId: $tenantId, providerId: $providerId, input: $input) { id }
  }`;
  await callInScope<{ updateAuthProvider: { id: string } }>(mutation, scope, { providerId, input });
}

/** A SAML provider's SP key as a rotation leaves it: the certificate to register at the IdP (never a private key). */
export interface SamlSpKey {
  readonly certificate: string;
  /** When the previous key stops decrypting assertions and leaves the metadata; null when none is kept. */
  readonly previousCertificateExpiresAt: string | null;
  readonly metadataUrl: string;
}

/** How long the previous SP key keeps decrypting assertions: the API's default, time to register the new certificate. */
export const SP_KEY_GRACE_DAYS = 7;

export async function rotateSamlSpKey(scope: SettingsScope, providerId: string): Promise<SamlSpKey> {
  const mutation = `mutation RotateSamlSpKey($appId: UUID!, $tenantId: UUID, $providerId: UUID!) {
    rotateSamlSpKey(appId: $appId, tenantId: $tenantId, providerId: $providerId) { certificate previousCertificateExpiresAt metadataUrl }
  }`;
  const data = await callInScope<{ rotateSamlSpKey: SamlSpKey }>(mutation, scope, { providerId });
  return data.rotateSamlSpKey;
}

/** Deletes a provider of the scope's own level; a tenant left without any uses the application's again. */
export async function deleteAuthProvider(scope: SettingsScope, providerId: string): Promise<void> {
  const mutation = `mutation DeleteAuthProvider($appId: UUID!, $tenantId: UUID, $providerId: UUID!) {
    deleteAuthProvider(appId: $appId, tenantId: $tenantId, providerId: $providerId)
  }`;
  await callInScope<{ deleteAuthProvider: boolean }>(mutation, scope, { providerId });
}

/** Replaces the whole policy: a field left out would take its built-in default, so the form sends them all. */
export async function putPolicy(scope: SettingsScope, kind: PolicyKind, input: SettingValues): Promise<void> {
  const mutation = `mutation PutPolicy($appId: UUID!, $tenantId: UUID, $kind: PolicyKind!, $input: PolicyInput!) {
    putPolicy(appId: $appId, tenantId: $tenantId, kind: $kind, input: $input) { kind }
  }`;
  await callInScope<{ putPolicy: { kind: PolicyKind } }>(mutation, scope, { kind, input });
}
