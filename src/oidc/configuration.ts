import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import type { MikroORM } from '@mikro-orm/postgresql';
import { LOCALES } from '../domain/locales.ts';
import { errors, type AccessToken, type Client, type ClientCredentials, type Configuration, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { LiveSubjectCache } from '../auth/bearer-subject.ts';
import type { SecretBox } from '../auth/client-secrets.ts';
import { MAX_ACCESS_TOKEN_SECONDS, type SigningKeyStore } from '../auth/signing-keys.ts';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '../domain/mfa/requirement.ts';
import type { Config } from '../config.ts';
import { SIGNING_ALGS } from '../db/entities/signing-key.entity.ts';
import type { RoleSubject } from '../domain/authorization/held-roles.ts';
import { resourceClaims } from '../domain/authorization/token-claims.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import { CLIENT_ASSERTION_ALGORITHMS } from '../domain/m2m-credentials/jwks.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { INTERACTION_SECONDS } from '../domain/sign-in/session.ts';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import type { SignInTarget } from '../domain/sign-in/sign-in.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { findAccount, findAccountOnce, fixedTenant } from './account.ts';
import type { TokenEventWriter } from '../domain/auth-events.ts';
import type { OrganizationStatusCache } from '../domain/organizations/status.ts';
import { createAdapterFactory, grantTenant, opRequestId } from './adapter.ts';
import { extraClaimsOf, jwtResourceServer } from './api-resource-tokens.ts';
import { assertClientAssertion } from './client-assertion.ts';
import type { ClientCache } from './client-cache.ts';
import { GATEHOUSE_METADATA, gatehouseData, type GatehouseClientData } from './clients.ts';
import { cookies } from './cookies.ts';
import { renderError } from './error-page.ts';
import { introspectionAllowed } from './introspection.ts';
import { interactionsPolicy, loadExistingGrant } from './policies.ts';
import { refuseUnservedClientCredentialsScope, type ResourceServers } from './resource-indicators.ts';
import { grantTtl, refreshTokenTtl, sessionTtl } from './session-lifetime.ts';

/** The spec's endpoint paths (issue 3); discovery stays at `/.well-known/openid-configuration`. */
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

/** Where the OP sends the browser when it needs the user; the hosted sign-in pages own it (docs/architecture.md, "Hosted sign-in seam"). */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'email', 'profile', 'roles'];

const SIGNING_ALG = 'ES256';
/** How clients authenticate, at the token endpoint and at revocation alike (oidc-provider uses one set for both). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
/** Introspection answers confidential clients only (introspection.ts): a public client learns nothing there. */
const CONFIDENTIAL_AUTH_METHODS = CLIENT_AUTH_METHODS.filter((method) => method !== 'none');
const ID_TOKEN_SECONDS = 3600;

type Features = NonNullable<Configuration['features']>;
type DeviceFlowFeature = NonNullable<Features['deviceFlow']>;
type LogoutFeature = NonNullable<Features['rpInitiatedLogout']>;

/**
 * The pages the OP itself renders (device verification, RP-initiated logout), with oidc-provider's signatures
 * (op-pages.ts), in the look of the client's application.
 */
export interface OpPages {
  readonly userCodeInputSource: NonNullable<DeviceFlowFeature['userCodeInputSource']>;
  readonly userCodeConfirmSource: NonNullable<DeviceFlowFeature['userCodeConfirmSource']>;
  readonly successSource: NonNullable<DeviceFlowFeature['successSource']>;
  readonly logoutSource: NonNullable<LogoutFeature['logoutSource']>;
  readonly postLogoutSuccessSource: NonNullable<LogoutFeature['postLogoutSuccessSource']>;
}

export interface OidcDependencies {
  readonly config: Config;
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly clientSecrets: SecretBox;
  readonly clients: ClientCache;
  /** Whether an application's organization is deactivated (adapter.ts refuses its clients, but the console's). */
  readonly organizations: OrganizationStatusCache;
  /** Where each issuance of tokens is told, to be audited and counted off the request path. */
  readonly tokenEvents: Pick<TokenEventWriter, 'record'>;
  /** Signs the OP's cookies (session, interaction); shared by every instance through the database. */
  readonly cookieSecret: string;
  readonly surfaces: SurfaceRouter;
  /** Where a revoked grant is announced (adapter.ts), so that the management API's caches forget its tokens. */
  readonly invalidations: InvalidationBus;
  /** The subjects of tokens recently found live (the management API's cache), which introspection checks too. */
  readonly liveSubjects: LiveSubjectCache;
  /**
   * How long an M2M credential's client-credentials tokens live, as its scope's `m2m` provider says (null: the
   * default); at most MAX_ACCESS_TOKEN_SECONDS, which a retired signing key keeps verifying.
   */
  readonly m2mTokenSeconds: (credential: { clientId: string; applicationId: string; tenantId: string | null }) => Promise<number | null>;
  /**
   * The sign-in domain's decisions, which silent requests, the `tenant` parameter's check and the OP's own pages read.
   * Absent, those requests fail: an OP under test that signs no one in.
   */
  readonly signIn?: SignInRules;
  /** A logout's way on through a SAML IdP with single logout (saml-sign-out.ts); absent, logouts end here. */
  readonly samlSignOut?: SamlSignOut;
  /** How many surfaces' OP instances are kept (least recently used first out); default MAX_CACHED_PROVIDERS. */
  readonly maxProviders?: number;
}

/** The resource every token names unless the client asks for another: the management API. */
export const managementApi = (deps: OidcDependencies): ResourceServer => jwtResourceServer(deps.signingKeys.managementAudience, []);

type SignInClient = { clientId: string; data: GatehouseClientData };

/** The sign-in domain's decisions (src/domain/sign-in/sign-in.ts), bound to the services, built after the OPs (src/app.ts). */
export interface SignInRules {
  /** The target of a client and a `tenant` parameter (resolveTarget). */
  readonly target: (requestId: string, client: SignInClient, tenantParam: unknown) => Promise<SignInTarget>;
  /** Whether the request may sign in on this surface, to which tenant (admitSignIn). */
  readonly admit: (requestId: string, surface: Surface, client: SignInClient, named: readonly string[]) => Promise<SignInTarget | undefined>;
  /** The session policy of an account of `poolId` signing in through the client (poolSessionPolicy). */
  readonly sessionPolicy: (requestId: string, applicationId: string, poolId: string) => Promise<SessionPolicy>;
}

export type SignInTargets = SignInRules['target'];

/**
 * RFC 6749 3.3: a request without `scope`, or naming only scopes the OP does not serve, fails with `invalid_scope` at
 * the redirect URI instead of reaching the sign-in form and ending in `access_denied`. The `scope` validator
 * (`extraParams`) runs after the client, redirect URI and `checkScope`, before session, grant or interaction.
 * Authorization endpoint only: device flow requests are left to oidc-provider.
 */
async function refuseRequestsOfNoKnownScope(ctx: KoaContextWithOIDC): Promise<void> {
  if (ctx.oidc.route !== 'authorization' || ctx.oidc.requestParamOIDCScopes.size > 0) return;
  const scope = ctx.oidc.params?.['scope'];
  throw new errors.InvalidScope(`the request names no scope this server supports (${OIDC_SCOPES.join(', ')})`, typeof scope === 'string' ? scope : '');
}

/**
 * The `tenant` parameter's validator (called with or without it, after the client and redirect URI checks, before the
 * session, grant or interaction). The request is admitted as the pages would (admitSignIn); its OAuth refusals are
 * answered per RFC 6749 4.1.2.1 (at the redirect URI with `state`; at device authorization, its answer), as Auth0
 * does for an organization; other refusals are left to the pages. A surface that fixes the tenant sets the parameter.
 */
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
 * The tenant a token request's user token was issued in, read once for its claims: the request's `token.issued` record
 * names it, whatever happens to the grant before the record is written (a suspension deletes it at once).
 */
const issuedTenants = new WeakMap<KoaContextWithOIDC, string>();

export const issuedTenantOf = (ctx: KoaContextWithOIDC): string | undefined => issuedTenants.get(ctx);

/** The tenant of a client-credentials token: the credential's, else the one its surface fixes (its claims and lifetime). */
const credentialTokenTenant = async (deps: OidcDependencies, surface: Surface, data: GatehouseClientData): Promise<string | null> =>
  data.tenantId ?? (await fixedTenant(deps, surface, data.applicationId));

/**
 * An access token's claims beyond oidc-provider's: every token names its application (`app_id`) and tenant
 * (`tenant_id`; for an application-wide credential on a tenant's surface, that surface's: src/auth/authenticate.ts).
 * A user's token names its grant, which the management API and introspection check still stands. A management API
 * credential token carries its permissions; an API resource token, the subject's roles and that resource's permissions.
 */
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
    const tenantId = await credentialTokenTenant(deps, surface, data);
    const base = { app_id: data.applicationId, ...(tenantId === null ? {} : { tenant_id: tenantId }) };
    if (resourcePermissions === undefined) return { ...base, permissions: [...data.permissions] };
    return { ...base, ...(await held(tenantId, { type: 'm2m_credential', id: client.clientId })) };
  }
  // A management API token names no permissions of the user's: the management API reads what they hold in the request's
  // tenant at each request (src/auth/authenticate.ts), so a revoked role counts at once, not when the token expires.
  const tenantId = token.grantId === undefined ? null : await grantTenant(deps.orm, token.grantId);
  if (tenantId !== null) issuedTenants.set(ctx, tenantId);
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
  return {
    adapter: createAdapterFactory(deps, surface),
    jwks: jwks as Configuration['jwks'],
    routes: OIDC_PATHS,
    // Authorization code (+ refresh, device, client credentials as features): no implicit, no hybrid.
    responseTypes: ['code'],
    pkce: { required: () => true },
    // OIDC Core 3.1.2.1: redirect_uri is REQUIRED, even for a client with one registered (oidc-provider would take that
    // one). The token endpoint then wants it too (RFC 6749 4.1.3: it was in the authorization request).
    allowOmittingSingleRegisteredRedirectUri: false,
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    // private_key_jwt: every algorithm an uploaded M2M JWKS may name, and no other. ID tokens: the key store's
    // algorithms (ES256 unless the client chose RS256, clientDefaults); access tokens are ES256 whatever the client
    // (managementApi). Signed userinfo is off, so it has no algorithms to name.
    enabledJWA: { clientAuthSigningAlgValues: [...CLIENT_ASSERTION_ALGORITHMS], idTokenSigningAlgValues: [...SIGNING_ALGS] },
    assertJwtClientAuthClaimsAndHeader: assertClientAssertion,
    // RFC 8414: left out, the revocation endpoint would read as client_secret_basic only; it takes what the token
    // endpoint takes (a public client revokes its own tokens with `none`).
    discovery: {
      revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
      introspection_endpoint_auth_methods_supported: [...CONFIDENTIAL_AUTH_METHODS],
      introspection_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
      // The languages of the hosted pages, which `ui_locales` chooses among (src/domain/locales.ts).
      ui_locales_supported: [...LOCALES],
    },
    clientDefaults: { id_token_signed_response_alg: SIGNING_ALG, grant_types: ['authorization_code'], response_types: ['code'] },
    extraClientMetadata: { properties: [GATEHOUSE_METADATA] },
    scopes: [...OIDC_SCOPES],
    // No `sid`: only front- or back-channel logout issues it, and neither is enabled (see advertiseIssuedClaimsOnly).
    // tenant_id, roles and permissions are openid's too: oidc-provider keeps only openid's claims in the ID token of a
    // sign-in whose access token is for userinfo, and these belong in it (findAccount gives roles only with `roles`).
    // The `acr` values a sign-in's ID token carries (src/domain/mfa/requirement.ts), advertised in discovery.
    acrValues: [ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR],
    // acr and amr (what the sign-in proved: src/domain/mfa/requirement.ts) are openid's too, so every ID token says it.
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
        // Another client's token: 200 and nothing revoked, as for an unknown token. oidc-provider's default refuses a
        // confidential client with an error, which tells it the token is live (an oracle of validity).
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      // RFC 7662, for the application's confidential clients; JWTs are answered by introspectJwtAccessTokens.
      introspection: { enabled: true, allowedPolicy: introspectionAllowed(deps, surface) },
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
      // Not among the spec's endpoints; PAR would be advertised at a path nothing serves.
      pushedAuthorizationRequests: { enabled: false },
      // The management API checks Bearer tokens only: a DPoP-bound token must not be usable there as a Bearer.
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Client credentials are for the management API; a sign-in without `resource` gets a userinfo token. `oneOf`:
        // one token has one audience, so the same resource named twice is that one, and distinct ones are refused
        // before the code or refresh token is consumed (resource-indicators.ts).
        defaultResource: (ctx, _client, oneOf) => {
          if (oneOf !== undefined) return new Set(oneOf).size === 1 ? oneOf[0] : oneOf;
          return ctx.oidc.params?.['grant_type'] === 'client_credentials' ? deps.signingKeys.managementAudience : undefined;
        },
        getResourceServerInfo: async (ctx, indicator, client) => {
          const server = await servers(ctx, indicator);
          if (server === undefined) throw new errors.InvalidTarget();
          refuseUnservedClientCredentialsScope(ctx, server);
          const data = gatehouseData(client);
          // A user's management API token acts with all the user may do: only for clients made to ask for one.
          if (server.audience === deps.signingKeys.managementAudience && data?.type !== 'm2m' && data?.managementApi !== true) {
            throw new errors.InvalidTarget('this client may not obtain management API tokens (its managementApi is off)');
          }
          if (ctx.oidc.params?.['grant_type'] !== 'client_credentials' || data === undefined) return server;
          const tenantId = await credentialTokenTenant(deps, surface, data);
          const seconds = await deps.m2mTokenSeconds({ clientId: client.clientId, applicationId: data.applicationId, tenantId });
          return seconds === null ? server : { ...server, accessTokenTTL: Math.min(seconds, MAX_ACCESS_TOKEN_SECONDS) };
        },
        useGrantedResource: () => false,
      },
    },
    extraTokenClaims: extraClaimsOf((ctx, token) => accessTokenClaims(deps, surface, ctx, token)),
    extraParams: { tenant: tenantParam(surface, signIn), scope: refuseRequestsOfNoKnownScope },
    findAccount: findAccountOnce((ctx, sub, token) => findAccount(deps, surface, ctx, sub, token)),
    loadExistingGrant: (ctx) => loadExistingGrant(deps, signIn, policy, ctx),
    interactions: { policy, url: (_ctx, interaction) => interactionPath(interaction.uid) },
    renderError,
    // A browser app calls the token endpoint from its own page: a public client, from an origin of its redirect URIs
    // (the dashboard's is the service's own). Confidential clients call from their servers, never a browser.
    clientBasedCORS: (ctx, origin, client) =>
      origin !== 'null' && (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    rotateRefreshToken: true,
    // oidc-provider binds tokens of a sign-in without offline_access to its browser session and revokes them when it
    // ends. A device's tokens are the device's: the device pages share one session across applications on a shared
    // surface (session-application.ts), which an account switch ends, so device codes never expire with it.
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
