import { timingSafeEqual, createHash } from 'node:crypto';
import type Provider from 'oidc-provider';
import { errors, type ClientMetadata } from 'oidc-provider';
import type { SecretBox } from '../auth/client-secrets.ts';
import type { OAuthClient, OAuthClientType } from '../db/entities/oauth-client.entity.ts';
import { usableKeys } from '../domain/m2m-credentials/jwks.ts';
import type { GatehouseClientData } from '../domain/oauth-clients/client-data.ts';
import { redirectUriProblem } from '../domain/oauth-clients/redirect-uris.ts';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type { GatehouseClientData };

export const GATEHOUSE_METADATA = 'gatehouse';

/** No implicit, no hybrid, no password grant exists. */
const GRANTS: Record<OAuthClientType, { grant_types: string[]; response_types: ClientMetadata['response_types'] }> = {
  web: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  spa: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  native: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  device: { grant_types: [DEVICE_CODE_GRANT, 'refresh_token'], response_types: [] },
  m2m: { grant_types: ['client_credentials'], response_types: [] },
};

/** Secrets decrypted here, never stored in clear. Undefined for a row that cannot authenticate or redirect by today's checks. */
export function clientMetadata(client: OAuthClient, secrets: SecretBox, now: Date): ClientMetadata | undefined {
  const usesSecret = client.authMethod === 'client_secret_basic' || client.authMethod === 'client_secret_post';
  if (usesSecret && client.secretEncrypted == null) return undefined;
  const jwks = client.authMethod === 'private_key_jwt' && client.jwks != null ? usableKeys(client.jwks) : undefined;
  if (client.authMethod === 'private_key_jwt' && (jwks === undefined || jwks.keys.length === 0)) return undefined;
  const redirectType = client.type === 'web' || client.type === 'spa' || client.type === 'native' ? client.type : undefined;
  const redirects = redirectType !== undefined;
  // A URI stored before today's rules refused it is not offered to the OP, so no code goes to it.
  const usable = (uris: readonly string[]) => (redirectType === undefined ? [] : uris.filter((uri) => redirectUriProblem(redirectType, uri) === null));
  const redirectTo = usable(client.redirectUris);
  if (redirects && redirectTo.length === 0) return undefined;
  const previous =
    usesSecret && client.previousSecretEncrypted != null && client.previousSecretExpiresAt != null && client.previousSecretExpiresAt > now
      ? { value: secrets.decrypt(client.previousSecretEncrypted), expiresAtMs: client.previousSecretExpiresAt.getTime() }
      : undefined;
  const loginUri = client.initiateLoginUri ?? undefined;
  const data: GatehouseClientData = {
    applicationId: client.applicationId,
    tenantId: client.tenantId ?? null,
    type: client.type,
    permissions: client.permissions,
    managementApi: client.managementApi,
    allowedOrigins: client.allowedOrigins,
    ...(loginUri === undefined ? {} : { initiateLoginUri: loginUri }),
    ...(previous === undefined ? {} : { previousSecret: previous }),
  };
  return {
    client_id: client.id,
    client_name: client.name,
    token_endpoint_auth_method: client.authMethod,
    id_token_signed_response_alg: client.idTokenSigningAlg,
    ...GRANTS[client.type],
    redirect_uris: redirectTo,
    ...(redirects ? { post_logout_redirect_uris: usable(client.postLogoutRedirectUris) } : {}),
    ...(client.type === 'native' ? { application_type: 'native' as const } : {}),
    // oidc-provider takes an https one only: an http one would make it refuse the whole client.
    ...(loginUri?.startsWith('https:') === true ? { initiate_login_uri: loginUri } : {}),
    ...(usesSecret ? { client_secret: secrets.decrypt(client.secretEncrypted!) } : {}),
    ...(jwks === undefined ? {} : { jwks }),
    [GATEHOUSE_METADATA]: data,
  };
}

/** Undefined only for a client that did not come from clients.ts. */
export function gatehouseData(client: object | undefined): GatehouseClientData | undefined {
  return (client as Record<string, GatehouseClientData | undefined> | undefined)?.[GATEHOUSE_METADATA];
}

/** An origin of one of its redirect URIs (a private-use scheme's is opaque, `null`) or one of its `allowedOrigins`. */
export function isClientOrigin(client: { readonly redirectUris?: readonly string[] | undefined }, origin: string): boolean {
  return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin) || (gatehouseData(client)?.allowedOrigins?.includes(origin) ?? false);
}

/** Constant-time, hashed first so lengths leak nothing. */
export function secretsEqual(expected: string, actual: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(actual));
}

export function matchesPreviousSecret(client: object, actual: string, nowMs: number): boolean {
  const previous = gatehouseData(client)?.previousSecret;
  return previous !== undefined && previous.expiresAtMs > nowMs && secretsEqual(previous.value, actual);
}

/** Undefined also for a row whose metadata oidc-provider refuses (older than a rule of the API). */
export async function servedClientData(provider: Provider, clientId: string): Promise<GatehouseClientData | undefined> {
  try {
    return gatehouseData(await provider.Client.find(clientId));
  } catch (error) {
    if (error instanceof errors.InvalidClientMetadata) return undefined;
    throw error;
  }
}
