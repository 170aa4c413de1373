import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';
import type { SigningAlg } from './signing-key.entity.ts';

/** `web`, `spa`, `native`, `device`: clients of the sign-in flows; `m2m`: client-credentials clients (M2M credentials). */
export const OAUTH_CLIENT_TYPES = ['web', 'spa', 'native', 'device', 'm2m'] as const;
export type OAuthClientType = (typeof OAUTH_CLIENT_TYPES)[number];

export const CLIENT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** Sign-in clients and M2M credentials alike, as the OP (src/oidc/) reads them; `id` is the `client_id`. Secrets are kept
 *  encrypted (the OP compares them in clear); after a rotation the previous one stays valid until `previousSecretExpiresAt`. */
const OAuthClientSchema = defineEntity({
  name: 'OAuthClient',
  tableName: 'oauth_client',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    type: p.string().$type<OAuthClientType>(),
    name: p.string(),
    redirectUris: p.array().columnType('text[]'),
    postLogoutRedirectUris: p.array().columnType('text[]'),
    /** Public sign-in clients: origins the OP answers with CORS besides those of the redirect URIs (configuration.ts). */
    allowedOrigins: p.array().columnType('text[]'),
    /** Sign-in clients: where their application starts a sign-in (OIDC `initiate_login_uri`), if registered. */
    initiateLoginUri: p.string().nullable(),
    authMethod: p.string().$type<ClientAuthMethod>(),
    secretEncrypted: p.string().nullable().hidden(),
    previousSecretEncrypted: p.string().nullable().hidden(),
    previousSecretExpiresAt: p.datetime().nullable(),
    jwks: p.json<{ keys: Record<string, unknown>[] }>().nullable(),
    /** How the client's ID tokens are signed (its `id_token_signed_response_alg`); M2M credentials get none. */
    idTokenSigningAlg: p.string().$type<SigningAlg>().default('ES256'),
    /** Sign-in clients: whether their users' tokens may be for the management API (configuration.ts). */
    managementApi: p.boolean().default(false),
    /** M2M credentials: the permissions their client-credentials tokens carry. */
    permissions: p.array().columnType('text[]'),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class OAuthClient extends OAuthClientSchema.class {}
OAuthClientSchema.setClass(OAuthClient);
