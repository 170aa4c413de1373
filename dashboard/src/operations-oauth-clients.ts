import { graphql } from './api.ts';
import type { Page, TenantSummary } from './operations.ts';
import type { MayDo } from './operations-own-permissions.ts';
import { listAllTenants } from './operations-tenant-choices.ts';

export type OAuthClientType = 'web' | 'spa' | 'native' | 'device';
export type OAuthClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';
export type IdTokenSigningAlg = 'ES256' | 'RS256';

export interface OAuthClient {
  readonly clientId: string;
  /** Null: a client of the whole application. */
  readonly tenantId: string | null;
  readonly name: string;
  readonly type: OAuthClientType;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  /** Origins its browser or web view calls the OAuth endpoints from, besides its redirect URIs'; none for web clients. */
  readonly allowedOrigins: readonly string[];
  /** The page of the client's application that starts a sign-in (OIDC `initiate_login_uri`); null: none. */
  readonly initiateLoginUri: string | null;
  readonly tokenEndpointAuthMethod: OAuthClientAuthMethod;
  readonly idTokenSigningAlg: IdTokenSigningAlg;
  readonly managementApi: boolean;
  /** While a rotation's grace period runs: when the previous secret stops working. */
  readonly previousSecretExpiresAt: string | null;
}

/** The answer of creation and rotation: the secret in clear, this once (null for public clients). */
export interface OAuthClientWithSecret extends OAuthClient {
  readonly clientSecret: string | null;
}

export interface OAuthClientSettings {
  readonly name: string;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
  /** Public clients only; left out for web clients, which have none. */
  readonly allowedOrigins?: readonly string[];
  /** Null removes it. */
  readonly initiateLoginUri: string | null;
  /** Web clients only; left out for the public ones, which are `none`. */
  readonly tokenEndpointAuthMethod?: OAuthClientAuthMethod;
  readonly idTokenSigningAlg: IdTokenSigningAlg;
  readonly managementApi: boolean;
}

export interface NewOAuthClient extends OAuthClientSettings {
  readonly type: OAuthClientType;
  /** Null: a client of the whole application. */
  readonly tenantId: string | null;
}

/** What the tab needs of the application besides its clients: its tenants, and whether each has its own issuer. */
export interface ClientsContext {
  readonly multiTenant: boolean;
  /** Authentication isolated per tenant: each tenant is an issuer of its own (`{issuer}/t/{tenant}`). */
  readonly isolated: boolean;
  readonly tenants: readonly TenantSummary[];
}

const PAGE_SIZE = 25;
/** How long a rotated-out secret keeps working: the API's default, time to deploy the new one. */
export const ROTATION_GRACE_SECONDS = 24 * 60 * 60;

/** A client or M2M credential as its list keeps it: the secret an answer shows once is not kept with the row. */
export function withoutSecret<T extends { readonly clientSecret: string | null }>({ clientSecret: _shownOnce, ...listed }: T): Omit<T, 'clientSecret'> {
  return listed;
}

/** The confirmation a secret's rotation asks: what happens to the current secret, and when. */
export function rotationQuestion(name: string): string {
  return `Rotate the secret of ${name}? A new secret works at once; the current one keeps working for ${ROTATION_GRACE_SECONDS / 3600} hours, time to deploy the new one, then stops.`;
}
const CLIENT_FIELDS = `fragment ClientFields on OAuthClient {
  clientId tenantId name type redirectUris postLogoutRedirectUris allowedOrigins initiateLoginUri tokenEndpointAuthMethod idTokenSigningAlg managementApi previousSecretExpiresAt
}`;
const CLIENT_WITH_SECRET_FIELDS = `fragment ClientWithSecretFields on OAuthClientWithSecret {
  clientId clientSecret tenantId name type redirectUris postLogoutRedirectUris allowedOrigins initiateLoginUri tokenEndpointAuthMethod idTokenSigningAlg managementApi previousSecretExpiresAt
}`;

export async function getClientsContext(appId: string, may: MayDo): Promise<ClientsContext> {
  const query = 'query ClientsContext($appId: UUID!) { application(appId: $appId) { multiTenant tenancyConfig { authIsolation } } }';
  const data = await graphql<{ application: { multiTenant: boolean; tenancyConfig: { authIsolation: string } | null } }>(
    query,
    { appId },
    { applicationId: appId },
  );
  const { multiTenant, tenancyConfig } = data.application;
  return { multiTenant, isolated: tenancyConfig?.authIsolation === 'isolated', tenants: multiTenant ? await listAllTenants(appId, may) : [] };
}

export async function listOAuthClients(appId: string, cursor: string | null): Promise<Page<OAuthClient>> {
  const query = `query OAuthClients($appId: UUID!, $pageSize: Int, $cursor: String) {
    oauthClients(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { ...ClientFields } next }
  }
  ${CLIENT_FIELDS}`;
  const data = await graphql<{ oauthClients: Page<OAuthClient> }>(query, { appId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.oauthClients;
}

export async function createOAuthClient(appId: string, input: NewOAuthClient): Promise<OAuthClientWithSecret> {
  const mutation = `mutation CreateOAuthClient($appId: UUID!, $input: CreateOAuthClientInput!) {
    createOAuthClient(appId: $appId, input: $input) { ...ClientWithSecretFields }
  }
  ${CLIENT_WITH_SECRET_FIELDS}`;
  const data = await graphql<{ createOAuthClient: OAuthClientWithSecret }>(mutation, { appId, input }, { applicationId: appId });
  return data.createOAuthClient;
}

export async function updateOAuthClient(appId: string, clientId: string, input: OAuthClientSettings): Promise<OAuthClient> {
  const mutation = `mutation UpdateOAuthClient($appId: UUID!, $clientId: UUID!, $input: UpdateOAuthClientInput!) {
    updateOAuthClient(appId: $appId, clientId: $clientId, input: $input) { ...ClientFields }
  }
  ${CLIENT_FIELDS}`;
  const data = await graphql<{ updateOAuthClient: OAuthClient }>(mutation, { appId, clientId, input }, { applicationId: appId });
  return data.updateOAuthClient;
}

export async function rotateOAuthClientSecret(appId: string, clientId: string): Promise<OAuthClientWithSecret> {
  const mutation = `mutation RotateOAuthClientSecret($appId: UUID!, $clientId: UUID!, $input: RotateOAuthClientSecretInput) {
    rotateOAuthClientSecret(appId: $appId, clientId: $clientId, input: $input) { ...ClientWithSecretFields }
  }
  ${CLIENT_WITH_SECRET_FIELDS}`;
  const input = { gracePeriodSeconds: ROTATION_GRACE_SECONDS };
  const data = await graphql<{ rotateOAuthClientSecret: OAuthClientWithSecret }>(mutation, { appId, clientId, input }, { applicationId: appId });
  return data.rotateOAuthClientSecret;
}

export async function deleteOAuthClient(appId: string, clientId: string): Promise<void> {
  const mutation = 'mutation DeleteOAuthClient($appId: UUID!, $clientId: UUID!) { deleteOAuthClient(appId: $appId, clientId: $clientId) }';
  await graphql<{ deleteOAuthClient: boolean }>(mutation, { appId, clientId }, { applicationId: appId });
}
