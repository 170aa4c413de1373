import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, { errors, interactionPolicy, type Account, type Configuration, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { SecretBox } from '../auth/client-secrets.ts';
import { MAX_ACCESS_TOKEN_SECONDS, type SigningKeyStore } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import { SIGNING_ALGS } from '../db/entities/signing-key.entity.ts';
import { CLIENT_ASSERTION_ALGORITHMS } from '../domain/m2m-credentials/jwks.ts';
import { readSignInUser } from '../domain/users/sign-in-user.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { isUuid } from '../ids.ts';
import { createAdapterFactory, grantTenant, sweepExpiredModels } from './adapter.ts';
import { assertClientAssertion } from './client-assertion.ts';
import type { ClientCache } from './client-cache.ts';
import { GATEHOUSE_METADATA, gatehouseData, matchesPreviousSecret } from './clients.ts';
import { paceDevicePolling } from './device-polling.ts';
import { allowOpFormTargets } from './op-form-policy.ts';
import { renderError } from './error-page.ts';
import { refuseInvalidResourceBeforeConsuming, type ResourceServers } from './resource-indicators.ts';
import { prefillUserCode } from './user-code-prefill.ts';

/** The spec's endpoint paths (issue 3); discovery stays at `/.well-known/openid-configuration`. */
export const OIDC_PATHS = {
  authorization: '/oauth2/authorize',
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  userinfo: '/oauth2/userinfo',
  device_authorization: '/oauth2/device_authorization',
  code_verification: '/oauth2/device',
  end_session: '/oauth2/logout',
  jwks: '/.well-known/jwks.json',
} as const;

/**
 * Where the OP sends the browser when it needs the user (login, consent): the hosted sign-in pages own this path.
 * Until they land nothing answers there (404), so authorization requests stop at the redirect; see
 * docs/architecture.md, "Hosted sign-in seam".
 */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'email', 'profile'];

const SIGNING_ALG = 'ES256';
/** How clients authenticate, at the token endpoint and at revocation alike (oidc-provider uses one set for both). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
const ID_TOKEN_SECONDS = 3600;
const SWEEP_EVERY_MS = 10 * 60_000;

type Features = NonNullable<Configuration['features']>;
type DeviceFlowFeature = NonNullable<Features['deviceFlow']>;
type LogoutFeature = NonNullable<Features['rpInitiatedLogout']>;

/**
 * The pages the OP itself renders (device verification, RP-initiated logout), with oidc-provider's signatures: the
 * hosted pages provide them (src/hosted/op-pages.ts), so they have the look of the client's application.
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
  /** The clients recently read (adapter.ts). */
  readonly clients: ClientCache;
  /** Signs the OP's cookies (session, interaction); shared by every instance through the database. */
  readonly cookieSecret: string;
  readonly surfaces: SurfaceRouter;
  /** Where a revoked grant is announced (adapter.ts), so that the management API's caches forget its tokens. */
  readonly invalidations: InvalidationBus;
  /** How many surfaces' OP instances are kept (least recently used first out); default MAX_CACHED_PROVIDERS. */
  readonly maxProviders?: number;
}

/** Enough for the surfaces in use at once; a surface out of the cache is rebuilt on its next request (~ms). */
export const MAX_CACHED_PROVIDERS = 256;

/** The resource every token names unless the client asks for another: the management API. */
function managementApi(deps: OidcDependencies): ResourceServer {
  return {
    scope: '',
    audience: deps.signingKeys.managementAudience,
    // The key store keeps a retired key verifying for MAX_ACCESS_TOKEN_SECONDS: no token may outlive that.
    accessTokenTTL: MAX_ACCESS_TOKEN_SECONDS,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: SIGNING_ALG } },
  };
}

/** The resources a token may be for: the management API only (a sign-in without `resource` gets a userinfo token). */
function resourceServers(deps: OidcDependencies): ResourceServers {
  return new Map([[deps.signingKeys.managementAudience, managementApi(deps)]]);
}

/** Where an Account found by findAccount keeps the user's tenants (oidc-provider passes the object through). */
const TENANT_IDS = 'gatehouseTenantIds';

const accountTenants = (account: Account | undefined): readonly string[] => (account?.[TENANT_IDS] as readonly string[] | undefined) ?? [];

/**
 * Users are application-owned: an account is looked up in the application of the client asking for it. With a token
 * (a code, a refresh token, a device code or an access token at userinfo), the account is found only while the user
 * still belongs to the tenant its grant was signed in for: a tenant deleted, or the user removed from it, and that
 * tenant's tokens answer as for an unknown account (`invalid_grant` at the token endpoint, 401 at userinfo). So they
 * do on a surface that fixes another tenant than the grant's: a tenant's slug, renamed and then given to another
 * tenant, names that other tenant's surface, which never issues for the first one's grants.
 */
async function findAccount(
  deps: OidcDependencies,
  surface: Surface,
  ctx: KoaContextWithOIDC,
  sub: string,
  token?: { grantId?: string },
): Promise<Account | undefined> {
  const applicationId = gatehouseData(ctx.oidc.client)?.applicationId;
  if (applicationId === undefined || !isUuid(sub)) return undefined;
  const grantId = token?.grantId;
  const [user, tenantId, fixed] = await Promise.all([
    readSignInUser(deps.orm.em, applicationId, { id: sub }),
    grantId === undefined ? null : grantTenant(deps.orm, grantId),
    token === undefined ? null : fixedTenant(deps, surface, applicationId),
  ]);
  // A suspended or locked user keeps no access: userinfo and refresh answer as for an unknown account.
  if (user === null || user.status !== 'active') return undefined;
  if (tenantId !== null && !user.tenantIds.includes(tenantId)) return undefined;
  if (fixed !== null && fixed !== tenantId) return undefined;
  return {
    accountId: user.id,
    [TENANT_IDS]: user.tenantIds,
    // The provider keeps only the claims of the granted scopes (`claims` below).
    claims: () => ({ sub: user.id, email: user.email, email_verified: false, name: user.name ?? undefined }),
  };
}

/** The tenant a surface fixes for an application's clients, or null (the service's surface, an application's domain). */
async function fixedTenant(deps: OidcDependencies, surface: Surface, applicationId: string): Promise<string | null> {
  if (surface.kind === 'service') return null;
  const decided = await deps.surfaces.tenantFor(surface, applicationId);
  return decided.kind === 'fixed' ? decided.tenantId : null;
}

/**
 * The session's grant for the client, unless it no longer fits the request: its tenant is one the user no longer
 * belongs to (the tenant deleted, or the user removed from it), or the request names (`tenant`) another tenant than
 * the one that grant's sign-in was for. The hosted pages are then asked again and decide the tenant afresh, so a
 * signed-in user never gets a token of the wrong tenant. A grant the pages have just made (`result.consent`) is the one.
 */
async function loadExistingGrant(deps: OidcDependencies, ctx: KoaContextWithOIDC) {
  const fresh = ctx.oidc.result?.consent?.grantId;
  const grantId = fresh ?? (ctx.oidc.client === undefined ? undefined : ctx.oidc.session?.grantIdFor(ctx.oidc.client.clientId));
  if (grantId === undefined) return undefined;
  if (fresh === undefined && !(await grantFitsRequest(deps, ctx, grantId))) return undefined;
  return ctx.oidc.provider.Grant.find(grantId);
}

async function grantFitsRequest(deps: OidcDependencies, ctx: KoaContextWithOIDC, grantId: string): Promise<boolean> {
  const granted = await grantTenant(deps.orm, grantId);
  if (granted !== null && !accountTenants(ctx.oidc.account).includes(granted)) return false;
  const requested = ctx.oidc.params?.['tenant'];
  if (typeof requested !== 'string' || requested === '') return true;
  const applicationId = gatehouseData(ctx.oidc.client)?.applicationId;
  if (granted === null || applicationId === undefined) return false;
  return (await deps.surfaces.findTenantId(applicationId, requested)) === granted;
}

/**
 * oidc-provider's prompts, and one more reason to ask for a login: the browser's session names an account findAccount
 * no longer finds for this client (deleted, suspended or locked since, or a user of another application signed in on
 * the same surface). oidc-provider would otherwise go on without an account and fail the consent checks (a 500); the
 * sign-in form switches the session to whoever signs in.
 */
function interactionsPolicy() {
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  policy.get('login')?.checks.add(
    new Check('account_unavailable', 'The session’s account cannot be used here', (ctx) =>
      ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
  );
  return policy;
}

/**
 * The `tenant` parameter on a surface that fixes the tenant (a tenant's path or custom domain): set to that tenant
 * when absent, refused when it names another. The hosted pages and the tokens then read it as on the service's
 * surface. (The authorization endpoint refuses another tenant earlier, with a page: src/hosted/surface-gate.ts.)
 */
function surfaceTenantParam(deps: OidcDependencies, surface: Surface) {
  return async (ctx: KoaContextWithOIDC, value: string | undefined, client: unknown) => {
    const applicationId = gatehouseData(client ?? undefined)?.applicationId;
    if (applicationId === undefined || ctx.oidc.params === undefined) return;
    const fixed = await fixedTenant(deps, surface, applicationId);
    if (fixed === null) return;
    if (value !== undefined && value !== '' && (await deps.surfaces.findTenantId(applicationId, value)) !== fixed) {
      throw new errors.InvalidRequest('the tenant parameter names another tenant than this sign-in surface serves');
    }
    ctx.oidc.params['tenant'] = fixed;
  };
}

/**
 * Cookies per surface: a tenant's path surface shares the service's host, so its session cookie has a name of its
 * own and is scoped to the surface's path: each tenant's surface has its own sign-in session, and the service's
 * session (path `/`) is never taken for one of them. Hosts keep custom domains' cookies apart by themselves.
 */
function cookies(deps: OidcDependencies, surface: Surface): Configuration['cookies'] {
  const base = { keys: [deps.cookieSecret] };
  if (surface.kind !== 'tenant_path') return base;
  return {
    ...base,
    names: { session: '_session_t', interaction: '_interaction', resume: '_interaction_resume' },
    long: { httpOnly: true, sameSite: 'lax', path: surface.mountPath },
  };
}

function configuration(
  deps: OidcDependencies,
  jwks: { keys: unknown[] },
  surface: Surface,
  servers: ResourceServers,
  pages: () => OpPages,
): Configuration {
  return {
    adapter: createAdapterFactory(deps, surface),
    jwks: jwks as Configuration['jwks'],
    routes: OIDC_PATHS,
    // Authorization code (+ refresh, device, client credentials as features): no implicit, no hybrid.
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: [...CLIENT_AUTH_METHODS],
    // private_key_jwt: every algorithm an uploaded M2M JWKS may name, and no other.
    enabledJWA: { clientAuthSigningAlgValues: [...CLIENT_ASSERTION_ALGORITHMS], idTokenSigningAlgValues: [...SIGNING_ALGS] },
    assertJwtClientAuthClaimsAndHeader: assertClientAssertion,
    // RFC 8414: left out, the revocation endpoint would read as client_secret_basic only; it takes what the token
    // endpoint takes (a public client revokes its own tokens with `none`).
    discovery: {
      revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
      revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGORITHMS],
    },
    clientDefaults: { id_token_signed_response_alg: SIGNING_ALG, grant_types: ['authorization_code'], response_types: ['code'] },
    extraClientMetadata: { properties: [GATEHOUSE_METADATA] },
    scopes: [...OIDC_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], acr: null, sid: null, auth_time: null, iss: null },
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
      deviceFlow: {
        enabled: true,
        userCodeInputSource: (ctx, form, out, err) => pages().userCodeInputSource(ctx, form, out, err),
        userCodeConfirmSource: (ctx, form, client, deviceInfo, userCode) => pages().userCodeConfirmSource(ctx, form, client, deviceInfo, userCode),
        successSource: (ctx) => pages().successSource(ctx),
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => pages().logoutSource(ctx, form),
        postLogoutSuccessSource: (ctx) => pages().postLogoutSuccessSource(ctx),
      },
      // Not among the spec's endpoints; PAR would be advertised at a path nothing serves.
      pushedAuthorizationRequests: { enabled: false },
      // The management API checks Bearer tokens only: a DPoP-bound token must not be usable there as a Bearer.
      dPoP: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // Client credentials are for the management API; a sign-in without `resource` gets a userinfo token.
        defaultResource: (ctx) => (ctx.oidc.params?.['grant_type'] === 'client_credentials' ? deps.signingKeys.managementAudience : undefined),
        getResourceServerInfo: (_ctx, indicator) => {
          const server = servers.get(indicator);
          if (server === undefined) throw new errors.InvalidTarget();
          return server;
        },
        useGrantedResource: () => false,
      },
    },
    extraTokenClaims: async (ctx, token) => {
      const data = gatehouseData(token.client ?? ctx.oidc.client);
      if (data === undefined) return undefined;
      if (token.kind === 'ClientCredentials') {
        // An application-wide credential asking on a surface that fixes a tenant gets a token of that tenant, as a
        // user's sign-in there does: that surface's issuer speaks for its tenant only (src/auth/authenticate.ts).
        const tenantId = data.tenantId ?? (await fixedTenant(deps, surface, data.applicationId));
        return { app_id: data.applicationId, ...(tenantId === null ? {} : { tenant_id: tenantId }), permissions: [...data.permissions] };
      }
      // A user's token: the tenant of the sign-in (interactions.ts), and its grant, which the management API checks
      // is still standing (src/auth/bearer-subject.ts). TODO(role assignments): the user's permissions.
      const tenantId = token.grantId === undefined ? null : await grantTenant(deps.orm, token.grantId);
      return { app_id: data.applicationId, ...(tenantId === null ? {} : { tenant_id: tenantId }), grant_id: token.grantId };
    },
    extraParams: { tenant: surface.kind === 'service' ? null : surfaceTenantParam(deps, surface) },
    findAccount: (ctx, sub, token) => findAccount(deps, surface, ctx, sub, token),
    loadExistingGrant: (ctx) => loadExistingGrant(deps, ctx),
    interactions: { policy: interactionsPolicy(), url: (_ctx, interaction) => interactionPath(interaction.uid) },
    renderError,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: ID_TOKEN_SECONDS,
      Interaction: 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
  };
}

/** An OP instance and its request handler. */
export interface BuiltProvider {
  readonly provider: Provider;
  readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * The OPs: one oidc-provider instance per sign-in surface (src/domain/domains/surfaces.ts), because oidc-provider
 * takes its issuer at construction. Clients of every application share them, told apart by client_id. An instance
 * holds no state of its own: storage is PostgreSQL (adapter.ts) and keys are the SigningKeyStore's, the same for all,
 * so any instance on any replica answers any request. They are kept in a bounded cache (least recently used out,
 * `maxProviders`), keyed by the whole surface (a hostname verified again by another owner is another surface), and
 * rebuilt when the key set changes (rotation here or on another instance, seen within the key store's cache time).
 */
export class OidcProvider {
  private readonly deps: OidcDependencies;
  private readonly built = new Map<string, { kids: string; built: BuiltProvider }>();
  private readonly maxProviders: number;
  private lastSweep = Date.now();
  /** Where the OP's own unexpected failures (answered as `server_error`) are reported; routes.ts sets the log. */
  onServerError: (error: unknown) => void = () => {};
  /** The device and logout pages; the hosted pages register theirs (src/hosted/routes.ts) before the first request. */
  private pages: OpPages | undefined;

  constructor(deps: OidcDependencies) {
    this.deps = deps;
    this.maxProviders = Math.max(1, deps.maxProviders ?? MAX_CACHED_PROVIDERS);
  }

  usePages(pages: OpPages): void {
    this.pages = pages;
  }

  /** The OP of a surface (the service's by default). */
  async get(surface: Surface = this.deps.surfaces.service): Promise<BuiltProvider> {
    const jwks = await this.deps.signingKeys.privateJwks();
    const kids = jwks.keys.map((key) => key.kid).join(',');
    const key = JSON.stringify(surface);
    let entry = this.built.get(key);
    if (entry !== undefined) this.built.delete(key);
    if (entry?.kids !== kids) {
      if (entry !== undefined) dispose(entry.built);
      entry = { kids, built: this.build(jwks, surface) };
    }
    // Map order is insertion order: re-inserting marks it the most recently used.
    this.built.set(key, entry);
    for (const [oldest, evicted] of this.built) {
      if (this.built.size <= this.maxProviders) break;
      this.built.delete(oldest);
      dispose(evicted.built);
    }
    await this.sweep();
    return entry.built;
  }

  /** How many OP instances are cached (for the tests of the bound). */
  get cachedProviders(): number {
    return this.built.size;
  }

  private build(jwks: { keys: unknown[] }, surface: Surface): BuiltProvider {
    const pages = () => {
      if (this.pages === undefined) throw new Error('the hosted pages have not registered the OP pages');
      return this.pages;
    };
    const servers = resourceServers(this.deps);
    const provider = new Provider(surface.issuer, configuration(this.deps, jwks, surface, servers, pages));
    provider.use(prefillUserCode);
    provider.use(paceDevicePolling(this.deps.orm));
    provider.use(allowOpFormTargets);
    refuseInvalidResourceBeforeConsuming(provider, servers);
    // routes.ts sets X-Forwarded-Proto/Host from PUBLIC_URL (or the verified domain) on every request, overwriting
    // what the client sent: URLs and cookie security then follow the issuer whatever proxy terminates TLS in front.
    provider.proxy = true;
    // A rotated secret's predecessor authenticates until its grace period ends: oidc-provider holds one secret per
    // client, so its comparison (constant-time) is extended on this instance's Client class.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
    const compare = provider.Client.prototype.compareClientSecret;
    provider.Client.prototype.compareClientSecret = async function (this: InstanceType<typeof provider.Client>, actual: string) {
      return (await compare.call(this, actual)) || matchesPreviousSecret(this, actual, Math.floor(Date.now() / 1000));
    };
    // oidc-provider persists every touched session at the end of a request. On the device flow's resume route without
    // a session (no cookie, or one of another browser), its error page touches a session that was never saved, and
    // persist() throws: a bare 500 instead of that page. A session never saved has nothing to persist.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
    const persist = provider.Session.prototype.persist;
    provider.Session.prototype.persist = async function (this: InstanceType<typeof provider.Session>) {
      return typeof this.exp === 'number' ? persist.call(this) : this.jti;
    };
    provider.on('server_error', (_ctx: unknown, error: unknown) => this.onServerError(error));
    const callback = provider.callback();
    return { provider, handle: (req, res) => callback(req, res) };
  }

  /** Expired models read as absent already; reclaim their rows now and then, a bounded batch at a time. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await sweepExpiredModels(this.deps.orm);
  }
}

/** An instance out of the cache: requests already running on it finish; it only stops listening for our events. */
function dispose(built: BuiltProvider): void {
  built.provider.removeAllListeners();
}
