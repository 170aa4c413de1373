import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LOCALES } from '../domain/locales.ts';
import { errors, type AccessToken, type Client, type ClientCredentials, type Configuration, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { LiveSubjectCache } from '../auth/bearer-subject.ts';
import type { SecretBox } from '../auth/client-secrets.ts';
import { MAX_ACCESS_TOKEN_SECONDS, type SigningKeyStore } from '../auth/signing-keys.ts';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR, type PoolMfaPolicy } from '../domain/mfa/requirement.ts';
import type { Config } from '../config.ts';
import { SIGNING_ALGS } from '../db/entities/signing-key.entity.ts';
import type { RoleSubject } from '../domain/authorization/held-roles.ts';
import { resourceClaims } from '../domain/authorization/token-claims.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import { CLIENT_ASSERTION_ALGORITHMS } from '../domain/m2m-credentials/jwks.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { INTERACTION_SECONDS } from '../domain/sign-in/session.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import type { SignInTarget } from '../domain/sign-in/sign-in.ts';
import type { PageLook } from '../domain/sign-in/surface-settings.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { findAccount, findAccountOnce, fixedTenant } from './account.ts';
import type { TokenEventWriter } from '../domain/audit/auth-events.ts';
import type { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { createAdapterFactory } from './adapter.ts';
import { grantTenant } from './grant-tenant.ts';
import { opRequestId } from './op-request-id.ts';
import { extraClaimsOf, jwtResourceServer } from './api-resource-tokens.ts';
import { refuseForeignAccountResponseMode } from './account-session.ts';
import { assertClientAssertion, CLOCK_TOLERANCE_SECONDS } from './client-assertion.ts';
import type { ClientCache } from './client-cache.ts';
import { GATEHOUSE_METADATA, gatehouseData, isClientOrigin, type GatehouseClientData } from './clients.ts';
import { cookies, interactionBinding } from './cookies.ts';
import { introspectionAllowed } from './introspection.ts';
import { interactionsPolicy, loadExistingGrant } from './policies.ts';
import { refuseUnservedClientCredentialsScope, type ResourceServers } from './resource-indicators.ts';
import { grantTtl, refreshTokenTtl, sessionTtl } from './session-lifetime.ts';

/** Discovery stays at `/.well-known/openid-configuration`. */
export const OIDC_PATHS = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  introspection: '/oauth2/introspect',
  userinfo: '/oauth2/userinfo',
  device_authorization: '/oauth2/device_authorization',
  code_verification: '/oauth2/device',
  end_session: '/oauth2/logout',
  jwks: '/.well-known/jwks.json',
} as const;

export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'email', 'profile', 'roles'];

const SIGNING_ALG = 'ES256';
/** Token endpoint and revocation alike (oidc-provider uses one set for both). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
/** Introspection answers confidential clients only: a public client learns nothing there. */
const CONFIDENTIAL_AUTH_METHODS = CLIENT_AUTH_METHODS.filter((method) => method !== 'none');
/** As an access token; its key verifies it far longer, as a hint (RETIRED_KEY_VERIFIES_MS). */
const ID_TOKEN_SECONDS = MAX_ACCESS_TOKEN_SECONDS;

type Features = NonNullable<Configuration['features']>;
type DeviceFlowFeature = NonNullable<Features['deviceFlow']>;
type LogoutFeature = NonNullable<Features['rpInitiatedLogout']>;

/** Rendered by the OP itself, with oidc-provider's signatures (op-pages.ts), in the look of the client's application. */
export interface OpPages {
  readonly userCodeInputSource: NonNullable<DeviceFlowFeature['userCodeInputSource']>;
  readonly userCodeConfirmSource: NonNullable<DeviceFlowFeature['userCodeConfirmSource']>;
  readonly successSource: NonNullable<DeviceFlowFeature['successSource']>;
  readonly logoutSource: NonNullable<LogoutFeature['logoutSource']>;
  readonly postLogoutSuccessSource: NonNullable<LogoutFeature['postLogoutSuccessSource']>;
  readonly renderError: NonNullable<Configuration['renderError']>;
}

export interface OidcDependencies {
  readonly config: Config;
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly clientSecrets: SecretBox;
  readonly clients: ClientCache;
  /** adapter.ts refuses a deactivated organization's clients, but the console's. */
  readonly organizations: OrganizationStatusCache;
  readonly tokenEvents: Pick<TokenEventWriter, 'record'>;
  /** Shared by every instance through the database. */
  readonly cookieSecret: string;
  readonly surfaces: SurfaceRouter;
  /** So that the management API's caches forget a revoked grant's tokens. */
  readonly invalidations: InvalidationBus;
  readonly liveSubjects: LiveSubjectCache;
  /** null: the default; at most MAX_ACCESS_TOKEN_SECONDS. */
  readonly m2mTokenSeconds: (credential: { clientId: string; applicationId: string; tenantId: string | null }) => Promise<number | null>;
  /** Absent (an OP under test), silent requests, the `tenant` check and the OP's own pages fail. */
  readonly signIn?: SignInRules;
  /** Absent, logouts end here. */
  readonly samlSignOut?: SamlSignOut;
  readonly maxProviders?: number;
}

export const managementApi = (deps: OidcDependencies): ResourceServer => jwtResourceServer(deps.signingKeys.managementAudience, []);

type SignInClient = { clientId: string; data: GatehouseClientData };

/** src/domain/sign-in/sign-in.ts, bound to the services after the OPs are built (src/app.ts). */
export interface SignInRules {
  readonly target: (requestId: string, client: SignInClient, tenantParam: unknown) => Promise<SignInTarget>;
  readonly admit: (requestId: string, surface: Surface, client: SignInClient, named: readonly string[]) => Promise<SignInTarget | undefined>;
  /** The look of an application's (or its tenant's) sign-in, for a page that knows no client; undefined for none. */
  readonly look: (requestId: string, applicationId: string, tenantRef: string | null) => Promise<PageLook | undefined>;
  readonly sessionPolicy: (requestId: string, applicationId: string, poolId: string) => Promise<SessionPolicy>;
  readonly mfaPolicy: (requestId: string, applicationId: string, poolId: string) => Promise<PoolMfaPolicy>;
}

export type SignInTargets = SignInRules['target'];

/**
 * RFC 6749 3.3: no usable scope fails with `invalid_scope` at the redirect URI, not `access_denied` after the form.
 * RFC 8628 3.2 likewise at the device authorization endpoint, before any code is issued.
 * Runs after the client, redirect URI and `checkScope`, before session or interaction.
 */
const ROUTES_REFUSING_NO_KNOWN_SCOPE: ReadonlySet<string> = new Set(['authorization', 'device_authorization']);

/** A permission of the resource the request names is known too (checkResource has read it): Auth0's API-only requests. */
const namesResourceScope = (ctx: KoaContextWithOIDC): boolean =>
  Object.values(ctx.oidc.resourceServers ?? {}).some((server) => [...ctx.oidc.requestParamScopes].some((scope) => server.scopes.has(scope)));

async function refuseRequestsOfNoKnownScope(ctx: KoaContextWithOIDC): Promise<void> {
  if (!ROUTES_REFUSING_NO_KNOWN_SCOPE.has(ctx.oidc.route) || ctx.oidc.requestParamOIDCScopes.size > 0 || namesResourceScope(ctx)) return;
  const scope = ctx.oidc.params?.['scope'];
  throw new errors.InvalidScope(
    `the request names no scope this server supports (${OIDC_SCOPES.join(', ')}, or a permission of the resource it names)`,
    typeof scope === 'string' ? scope : '',
  );
}

/** Before the session: admitSignIn's OAuth refusals per RFC 6749 4.1.2.1 (as Auth0 does); others are left to the pages. */
function tenantParam(surface: Surface, signIn: () => SignInRules) {
  return async (ctx: KoaContextWithOIDC, value: string | undefined, client: Client | undefined) => {
    const data = gatehouseData(client);
    if (client === undefined || data === undefined || ctx.oidc.params === undefined) return;
    let target: SignInTarget | undefined;
    try {
      target = await signIn().admit(opRequestId(ctx), surface, { clientId: client.clientId, data }, value === undefined ? [] : [value]);
    } catch (error) {
      if (!(error instanceof SignInRefusal)) throw error;
      if (error.rule.oauth?.error === 'invalid_request') throw new errors.InvalidRequest(error.rule.oauth.description);
      return;
    }
    if (surface.kind !== 'service' && target?.tenant != null) ctx.oidc.params['tenant'] = target.tenant.id;
  };
}

/**
 * Read once for the token's claims: `token.issued` is filed under it, even if a suspension deletes the grant meanwhile,
 * and under the path's tenant for an application-wide credential.
 */
const issuedTenants = new WeakMap<KoaContextWithOIDC, string>();

export const issuedTenantOf = (ctx: KoaContextWithOIDC): string | undefined => issuedTenants.get(ctx);

function issuedIn(ctx: KoaContextWithOIDC, tenantId: string | null): string | null {
  if (tenantId !== null) issuedTenants.set(ctx, tenantId);
  return tenantId;
}

/** The credential's, else the one its surface fixes. */
const credentialTokenTenant = async (deps: OidcDependencies, surface: Surface, data: GatehouseClientData): Promise<string | null> =>
  data.tenantId ?? (await fixedTenant(deps, surface, data.applicationId));

/** A user's token names its grant, which the management API and introspection check still stands. */
export async function accessTokenClaims(
  deps: OidcDependencies,
  surface: Surface,
  ctx: KoaContextWithOIDC,
  token: AccessToken | ClientCredentials,
): Promise<Record<string, unknown> | undefined> {
  const client = token.client ?? ctx.oidc.client;
  const data = gatehouseData(client);
  if (client === undefined || data === undefined) return undefined;
  const server = token.resourceServer;
  const resourcePermissions = server === undefined || server.audience === deps.signingKeys.managementAudience ? undefined : [...server.scopes].filter((scope) => scope !== '');
  const held = async (tenantId: string | null, subject: RoleSubject) =>
    resourcePermissions === undefined ? {} : resourceClaims(deps.orm.em.getConnection(), data.applicationId, tenantId, subject, resourcePermissions);
  if (token.kind === 'ClientCredentials') {
    const tenantId = issuedIn(ctx, await credentialTokenTenant(deps, surface, data));
    const base = { app_id: data.applicationId, ...(tenantId === null ? {} : { tenant_id: tenantId }) };
    if (resourcePermissions === undefined) return { ...base, permissions: [...data.permissions] };
    return { ...base, ...(await held(tenantId, { type: 'm2m_credential', id: client.clientId })) };
  }
  // A management API token names no user permissions: they are read at each request (src/auth/authenticate.ts), so a
  // revoked role counts at once, not when the token expires.
  const tenantId = issuedIn(ctx, token.grantId === undefined ? null : await grantTenant(deps.orm, token.grantId));
  return {
    app_id: data.applicationId,
    ...(tenantId === null ? {} : { tenant_id: tenantId }),
    grant_id: token.grantId,
    ...(await held(tenantId, { type: 'user', id: token.accountId })),
  };
}

export function configuration(
  deps: OidcDependencies,
  jwks: { keys: unknown[] },
  surface: Surface,
  servers: ResourceServers,
  pages: OpPages,
  signIn: () => SignInRules,
): Configuration {
  const policy = interactionsPolicy();
  const binding = interactionBinding(deps.config.publicUrl);
  const account = findAccountOnce((ctx, sub, token) => findAccount(deps, surface, ctx, sub, token));
  return {
    adapter: createAdapterFactory(deps, surface),
    jwks: jwks as Configuration['jwks'],
    routes: OIDC_PATHS,
    responseTypes: ['code'],
    pkce: { required: () => true },
    // OIDC Core 3.1.2.1: redirect_uri is REQUIRED even with one registered; then the token endpoint too (RFC 6749 4.1.3).
    allowOmittingSingleRegisteredRedirectUri: false,
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    // private_key_jwt: every algorithm an uploaded M2M JWKS may name, and no other; access tokens are ES256 (managementApi).
    enabledJWA: { clientAuthSigningAlgValues: [...CLIENT_ASSERTION_ALGORITHMS], idTokenSigningAlgValues: [...SIGNING_ALGS] },
    assertJwtClientAuthClaimsAndHeader: assertClientAssertion,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    // RFC 8414: left out, revocation would read as client_secret_basic only; a public client revokes with `none`.
    discovery: {
      revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
      introspection_endpoint_auth_methods_supported: [...CONFIDENTIAL_AUTH_METHODS],
      introspection_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
      ui_locales_supported: [...LOCALES],
    },
    clientDefaults: { id_token_signed_response_alg: SIGNING_ALG, grant_types: ['authorization_code'], response_types: ['code'] },
    extraClientMetadata: { properties: [GATEHOUSE_METADATA] },
    scopes: [...OIDC_SCOPES],
    // No `sid`: neither front- nor back-channel logout is enabled. tenant_id, roles and permissions are openid's so that
    // oidc-provider keeps them in the ID token of a sign-in whose access token is for userinfo.
    acrValues: [ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR],
    // acr and amr are openid's too, so every ID token says what the sign-in proved.
    claims: {
      openid: ['sub', 'tenant_id', 'roles', 'permissions', 'acr', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      roles: ['roles', 'permissions'],
      acr: null,
      amr: null,
      auth_time: null,
      iss: null,
    },
    cookies: cookies(deps, surface),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      revocation: {
        enabled: true,
        // Another client's token: 200, nothing revoked. oidc-provider's default error tells it the token is live (an oracle).
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      // RFC 7662; JWTs are answered by introspectJwtAccessTokens.
      introspection: { enabled: true, allowedPolicy: introspectionAllowed(deps, surface, account) },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: (ctx, form, out, err) => pages.userCodeInputSource(ctx, form, out, err),
        userCodeConfirmSource: (ctx, form, client, deviceInfo, userCode) => pages.userCodeConfirmSource(ctx, form, client, deviceInfo, userCode),
        successSource: (ctx) => pages.successSource(ctx),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => pages.logoutSource(ctx, form),
        postLogoutSuccessSource: (ctx) => pages.postLogoutSuccessSource(ctx),
      },
      // Not among the spec's endpoints: PAR would be advertised at a path nothing serves.
      pushedAuthorizationRequests: { enabled: false },
      // The management API checks Bearer tokens only: a DPoP-bound token must not be usable there as a Bearer.
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // One token has one audience: distinct resources are refused before the code is consumed (resource-indicators.ts).
        defaultResource: (ctx, _client, oneOf) => {
          if (oneOf !== undefined) return new Set(oneOf).size === 1 ? oneOf[0] : oneOf;
          return ctx.oidc.params?.['grant_type'] === 'client_credentials' ? deps.signingKeys.managementAudience : undefined;
        },
        getResourceServerInfo: async (ctx, indicator, client) => {
          const server = await servers(ctx, indicator);
          if (server === undefined) throw new errors.InvalidTarget();
          refuseUnservedClientCredentialsScope(ctx, server);
          const data = gatehouseData(client);
          if (ctx.oidc.params?.['grant_type'] !== 'client_credentials' || data === undefined) return server;
          const tenantId = issuedIn(ctx, await credentialTokenTenant(deps, surface, data));
          const seconds = await deps.m2mTokenSeconds({ clientId: client.clientId, applicationId: data.applicationId, tenantId });
          return seconds === null ? server : { ...server, accessTokenTTL: Math.min(seconds, MAX_ACCESS_TOKEN_SECONDS) };
        },
        useGrantedResource: () => false,
      },
    },
    extraTokenClaims: extraClaimsOf((ctx, token) => accessTokenClaims(deps, surface, ctx, token)),
    extraParams: { tenant: tenantParam(surface, signIn), scope: refuseRequestsOfNoKnownScope, response_mode: refuseForeignAccountResponseMode },
    findAccount: account,
    loadExistingGrant: (ctx) => loadExistingGrant(deps, signIn, policy, ctx),
    interactions: {
      policy,
      url: (ctx, interaction) => {
        binding.bind(ctx, interaction.uid, INTERACTION_SECONDS);
        return interactionPaths(interaction.uid).page;
      },
    },
    renderError: pages.renderError,
    // A browser app is a public client calling from one of its origins; confidential clients never call from a browser.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== 'null' && (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') && isClientOrigin(client, origin),
    rotateRefreshToken: true,
    // A device's tokens are the device's: the device pages share one session across applications on a shared surface,
    // which an account switch ends, so device codes never expire with it.
    expiresWithSession: async (_ctx, source) => source.kind !== 'DeviceCode' && !source.scopes.has('offline_access'),
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: ID_TOKEN_SECONDS,
      Interaction: INTERACTION_SECONDS,
      RefreshToken: (ctx, token) => refreshTokenTtl(ctx, token),
      Session: (ctx, session) => sessionTtl(ctx, session),
      Grant: (ctx) => grantTtl(ctx),
    },
  };
}
