import { ApiError, graphql } from './api.ts';
import type { Page } from './operations.ts';
import { ROTATION_GRACE_SECONDS } from './operations-oauth-clients.ts';

// At the application's scope: every credential of the application, its tenants' included.

export type M2MAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

export interface M2MCredential {
  readonly clientId: string;
  /** Null: application-wide. */
  readonly tenantId: string | null;
  readonly name: string;
  readonly permissions: readonly string[];
  readonly authMethod: M2MAuthMethod;
  readonly previousSecretExpiresAt: string | null;
  /** private_key_jwt: its public keys; null for the secret methods. */
  readonly jwks: Readonly<Record<string, unknown>> | null;
  readonly revokedAt: string | null;
  readonly createdAt: string;
}

/** The answer of creation and rotation: the secret in clear, this once (null for private_key_jwt). */
export interface M2MCredentialWithSecret extends M2MCredential {
  readonly clientSecret: string | null;
}

export interface NewM2MCredential {
  readonly name: string;
  readonly permissions: readonly string[];
  /** Null: application-wide. */
  readonly tenantId: string | null;
  readonly authMethod: M2MAuthMethod;
  /** private_key_jwt only: the JWKS as parsed from what the operator pasted. */
  readonly jwks?: unknown;
}

const PAGE_SIZE = 25;
const CREDENTIAL_FIELDS = 'clientId tenantId name permissions authMethod previousSecretExpiresAt jwks revokedAt createdAt';

export async function listM2MCredentials(appId: string, cursor: string | null): Promise<Page<M2MCredential>> {
  const query = `query M2MCredentials($appId: UUID, $pageSize: Int, $cursor: String) {
    m2mCredentials(appId: $appId, pageSize: $pageSize, cursor: $cursor) { data { ${CREDENTIAL_FIELDS} } next }
  }`;
  const data = await graphql<{ m2mCredentials: Page<M2MCredential> }>(query, { appId, pageSize: PAGE_SIZE, cursor }, { applicationId: appId });
  return data.m2mCredentials;
}

export async function createM2MCredential(appId: string, input: NewM2MCredential): Promise<M2MCredentialWithSecret> {
  const mutation = `mutation CreateM2MCredential($appId: UUID, $input: CreateM2MCredentialInput!) {
    createM2MCredential(appId: $appId, input: $input) { ${CREDENTIAL_FIELDS} clientSecret }
  }`;
  const data = await graphql<{ createM2MCredential: M2MCredentialWithSecret }>(mutation, { appId, input }, { applicationId: appId });
  return data.createM2MCredential;
}

/** A new secret, valid at once; the previous one keeps working for ROTATION_GRACE_SECONDS. */
export async function rotateM2MCredential(appId: string, credentialId: string): Promise<M2MCredentialWithSecret> {
  const mutation = `mutation RotateM2MCredential($appId: UUID, $credentialId: UUID!, $input: RotateM2MCredentialInput) {
    rotateM2MCredential(appId: $appId, credentialId: $credentialId, input: $input) { ${CREDENTIAL_FIELDS} clientSecret }
  }`;
  const input = { gracePeriodSeconds: ROTATION_GRACE_SECONDS };
  const data = await graphql<{ rotateM2MCredential: M2MCredentialWithSecret }>(mutation, { appId, credentialId, input }, { applicationId: appId });
  return data.rotateM2MCredential;
}

export async function revokeM2MCredential(appId: string, credentialId: string): Promise<M2MCredential> {
  const mutation = `mutation RevokeM2MCredential($appId: UUID, $credentialId: UUID!) {
    revokeM2MCredential(appId: $appId, credentialId: $credentialId) { ${CREDENTIAL_FIELDS} }
  }`;
  const data = await graphql<{ revokeM2MCredential: M2MCredential }>(mutation, { appId, credentialId }, { applicationId: appId });
  return data.revokeM2MCredential;
}

export async function putM2MCredentialJwks(appId: string, credentialId: string, jwks: unknown): Promise<M2MCredential> {
  const mutation = `mutation PutM2MCredentialJwks($appId: UUID, $credentialId: UUID!, $input: JwksInput!) {
    putM2MCredentialJwks(appId: $appId, credentialId: $credentialId, input: $input) { ${CREDENTIAL_FIELDS} }
  }`;
  try {
    const data = await graphql<{ putM2MCredentialJwks: M2MCredential }>(mutation, { appId, credentialId, input: jwks }, { applicationId: appId });
    return data.putM2MCredentialJwks;
  } catch (error) {
    throw error instanceof ApiError ? jwksNamed(error) : error;
  }
}

/** The mutation's arguments besides the JWKS. */
const NOT_JWKS: ReadonlySet<string> = new Set(['appId', 'credentialId']);

/** A refusal naming a part of the JWKS names it from the root where the set is `input` (`keys[0].d`, `extra`: an
 *  input's fields stand alone in the API's names): the form's one field is `jwks`, as the create form's. */
function jwksNamed(error: ApiError): ApiError {
  const { field } = error;
  if (field === undefined || NOT_JWKS.has(field) || /^jwks(?:$|[.[])/.test(field)) return error;
  return error.naming(`jwks.${field}`);
}
