/**
 * The `oidc_model` table (src/oidc/adapter.ts writes it): a row per stored model, `model` its name, `payload` its jsonb.
 * oidc-provider decides its models' names and payloads, so every statement on the table names them from here, as
 * checked with the version OIDC_STORAGE_CHECKED_WITH names (test/unit/oidc-storage.test.ts fails on another).
 */
export const OIDC_STORAGE_CHECKED_WITH = '9.13.3';

/** oidc-provider's models: their class names, which its adapter factory is called with. */
export const PROVIDER_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'BackchannelAuthenticationRequest',
  'Client',
  'ClientCredentials',
  'DeviceCode',
  'Grant',
  'InitialAccessToken',
  'Interaction',
  'PreAuthorizedCode',
  'PushedAuthorizationRequest',
  'RefreshToken',
  'RegistrationAccessToken',
  'ReplayDetection',
  'Session',
] as const;

/** Ours, beside them: a grant's tenant (src/oidc/grant-tenant.ts), an interaction once over (src/oidc/spent-interactions.ts),
 *  the MFA step's attempts of a proven first factor (src/domain/mfa/second-step.ts). */
const GATEHOUSE_MODELS = ['GrantTenant', 'SpentInteraction', 'StepAttempts'] as const;

type ProviderModel = (typeof PROVIDER_MODELS)[number];
type OidcModelName = ProviderModel | (typeof GATEHOUSE_MODELS)[number];

/** The fields of oidc-provider's payloads our code reads, by model: each is in its model's IN_PAYLOAD. */
export const PROVIDER_FIELDS_READ = {
  Session: ['uid', 'accountId', 'loginTs', 'authorizations'],
  Grant: ['accountId', 'clientId', 'iat'],
  AccessToken: ['accountId', 'clientId', 'grantId', 'iat', 'expiresWithSession'],
  RefreshToken: ['accountId', 'clientId', 'grantId', 'iat', 'exp', 'iiat', 'expiresWithSession'],
  AuthorizationCode: ['grantId'],
  DeviceCode: ['grantId', 'userCode', 'accountId', 'error'],
  Interaction: ['params', 'result'],
} as const satisfies Partial<Record<ProviderModel, readonly string[]>>;

/** A Session's `authorizations`: per client id, the grant it holds in that session. */
export type SessionAuthorizations = Record<string, { grantId?: string }>;

/** oidc-provider ignores keys it does not know: the issuer a code, token, grant or session was made at (none: the service's). */
export const ISSUER_KEY = 'gatehouseIssuer';
/** Ours in a Session: the lifetime (seconds) its last use gave it, so that use was its stored end less this, to the
 *  millisecond of the row's `expires_at` (src/oidc/session-lifetime.ts). */
export const USE_TTL_KEY = 'gatehouseUseTtl';
/** A DeviceCode's polling pace (src/oidc/device-polling.ts). */
export const POLLING_KEY = 'gatehousePolling';
/** An Interaction's form being answered (src/oidc/interaction-claims.ts). */
export const CLAIM_KEY = 'gatehouseClaim';

/** A GrantTenant's payload, keyed by its grant's id. */
export interface GrantTenantPayload {
  readonly tenantId: string | null;
  readonly browserSession: boolean;
}

const GRANT_TENANT_FIELDS = ['tenantId', 'browserSession'] as const satisfies readonly (keyof GrantTenantPayload)[];

type PayloadField = (typeof PROVIDER_FIELDS_READ)[keyof typeof PROVIDER_FIELDS_READ][number] | (typeof GRANT_TENANT_FIELDS)[number];

const byName = <T extends string>(names: readonly T[]) => Object.freeze(Object.fromEntries(names.map((name) => [name, name]))) as { readonly [N in T]: N };

/** `model = '${MODEL.Grant}'`: a name misspelt, or not stored, fails tsc. */
export const MODEL = byName<OidcModelName>([...PROVIDER_MODELS, ...GATEHOUSE_MODELS]);

/** `payload->>'${PAYLOAD.accountId}'`: a field no model's payload is known to hold fails tsc. */
export const PAYLOAD = byName<PayloadField>([...Object.values(PROVIDER_FIELDS_READ).flat(), ...GRANT_TENANT_FIELDS]);

/** An expired row reads as absent; the sweep deletes it later (src/oidc/storage-sweep.ts). */
export function liveRow(alias?: string): string {
  const expiresAt = alias === undefined ? 'expires_at' : `${alias}.expires_at`;
  return `(${expiresAt} is null or ${expiresAt} > now())`;
}

/** A common table expression written with the statement that saves a model, so both are one write. */
export interface SavedWith {
  readonly cte: string;
  readonly params: readonly unknown[];
}
