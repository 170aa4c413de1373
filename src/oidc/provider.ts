import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, { errors, interactionPolicy, type AccessToken, type Account, type Client, type ClientCredentials, type Configuration, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { SecretBox } from '../auth/client-secrets.ts';
import { MAX_ACCESS_TOKEN_SECONDS, type SigningKeyStore } from '../auth/signing-keys.ts';
import type { Config } from '../config.ts';
import { SIGNING_ALGS } from '../db/entities/signing-key.entity.ts';
import { CLIENT_ASSERTION_ALGORITHMS } from '../domain/m2m-credentials/jwks.ts';
import { mayActNow, readSignInUser } from '../domain/users/sign-in-user.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { HostedPageError, sessionSignIn, TenantRequestError, type SignInTarget } from '../hosted/sign-in.ts';
import { isUuid } from '../ids.ts';
import { noteRequest } from '../log.ts';
import { tokenGrants } from '../metrics.ts';
import { createAdapterFactory, grantTenant, opRequestId, saveGrantForTenant, sweepExpiredModels } from './adapter.ts';
import { assertClientAssertion } from './client-assertion.ts';
import type { ClientCache } from './client-cache.ts';
import { GATEHOUSE_METADATA, gatehouseData, matchesPreviousSecret, type GatehouseClientData } from './clients.ts';
import { paceDevicePolling } from './device-polling.ts';
import { allowOpFormTargets } from './op-form-policy.ts';
import { renderError } from './error-page.ts';
import { introspectionAllowed, introspectJwtAccessTokens } from './introspection.ts';
import type { LiveSubjectCache } from '../auth/bearer-subject.ts';
import { extraClaimsOf, jwtResourceServer, resourceServersOf, scopeApiResourceTokens } from './api-resource-tokens.ts';
import { refuseInvalidResourceBeforeConsuming, refuseUnservedClientCredentialsScope, type ResourceServers } from './resource-indicators.ts';
import { resourceClaims, signInClaims } from '../domain/authorization/token-claims.ts';
import type { RoleSubject } from '../domain/authorization/held-roles.ts';
import { confirmationUrl, sessionCookieName } from './session-application.ts';
import { prefillUserCode } from './user-code-prefill.ts';

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

/**
 * Where the OP sends the browser when it needs the user (login, consent): the hosted sign-in pages own this path.
 * Until they land nothing answers there (404), so authorization requests stop at the redirect; see
 * docs/architecture.md, "Hosted sign-in seam".
 */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'email', 'profile', 'roles'];

const SIGNING_ALG = 'ES256';
/** How clients authenticate, at the token endpoint and at revocation alike (oidc-provider uses one set for both). */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
/** Introspection answers confidential clients only (introspection.ts): a public client learns nothing there. */
const CONFIDENTIAL_AUTH_METHODS = CLIENT_AUTH_METHODS.filter((method) => method !== 'none');
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
  /** The subjects of tokens recently found live (the management API's cache), which introspection checks too. */
  readonly liveSubjects: LiveSubjectCache;
  /**
   * How long an M2M credential's client-credentials tokens live, as its scope's `m2m` provider says (null: the
   * default); at most MAX_ACCESS_TOKEN_SECONDS, which a retired signing key keeps verifying.
   */
  readonly m2mTokenSeconds: (credential: { clientId: string; applicationId: string; tenantId: string | null }) => Promise<number | null>;
  /** How many surfaces' OP instances are kept (least recently used first out); default MAX_CACHED_PROVIDERS. */
  readonly maxProviders?: number;
}

/** Enough for the surfaces in use at once; a surface out of the cache is rebuilt on its next request (~ms). */
export const MAX_CACHED_PROVIDERS = 256;

/** The resource every token names unless the client asks for another: the management API. */
const managementApi = (deps: OidcDependencies): ResourceServer => jwtResourceServer(deps.signingKeys.managementAudience, []);

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
  // A suspended or locked user keeps no access (a lock that has run out is over): userinfo and refresh answer as for
  // an unknown account.
  if (user === null || !mayActNow(user)) return undefined;
  if (tenantId !== null && !user.tenantIds.includes(tenantId)) return undefined;
  if (fixed !== null && fixed !== tenantId) return undefined;
  return {
    accountId: user.id,
    [TENANT_IDS]: user.tenantIds,
    // The provider keeps only the claims of the granted scopes (`claims` below). The sign-in's tenant is in every ID
    // token of a tenant's sign-in; its roles and permissions there with the scope `roles`.
    claims: async (use: string, scope: string) => ({
      sub: user.id,
      email: user.email,
      email_verified: false,
      name: user.name ?? undefined,
      ...(use === 'id_token' && tenantId !== null ? { tenant_id: tenantId } : {}),
      ...(scope.split(' ').includes('roles') ? await signInClaims(deps.orm.em.getConnection(), applicationId, tenantId, user.id) : {}),
    }),
  };
}

/** The accounts a request has looked up with a token, so that one request reads each of them once. */
const accountsFound = new WeakMap<KoaContextWithOIDC, Map<string, Promise<Account | undefined>>>();

type FindAccount = (ctx: KoaContextWithOIDC, sub: string, token?: { grantId?: string }) => Promise<Account | undefined>;

/** findAccount, remembered for the request when it is asked with a token (what the token endpoint asks twice). */
function findAccountOnce(find: FindAccount): FindAccount {
  return (ctx, sub, token) => {
    if (token === undefined) return find(ctx, sub);
    let found = accountsFound.get(ctx);
    if (found === undefined) accountsFound.set(ctx, (found = new Map<string, Promise<Account | undefined>>()));
    const key = `${sub}\0${token.grantId ?? ''}`;
    let account = found.get(key);
    if (account === undefined) found.set(key, (account = find(ctx, sub, token)));
    return account;
  };
}

/** What a code being redeemed is: an authorization code or a device code, for an account unless refused. */
interface RedeemedCode {
  readonly accountId?: string | undefined;
  readonly grantId?: string;
  readonly error?: string | undefined;
  consume(): Promise<void>;
}

/**
 * oidc-provider consumes an authorization or device code before it looks up the code's account: a code whose user had
 * been suspended, locked, deleted or removed from the grant's tenant was refused (`invalid_grant`) and spent, so that
 * the same code presented again once the user was back read as a replay and revoked the grant with every token issued
 * from it. A refused request leaves the code as it was (docs/decisions.md), so the account is looked up first (once
 * per request: findAccountOnce).
 */
function refuseUnknownAccountBeforeConsuming(provider: Provider, find: FindAccount): void {
  for (const prototype of [provider.AuthorizationCode.prototype, provider.DeviceCode.prototype] as RedeemedCode[]) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the code as `this`
    const consume = prototype.consume;
    prototype.consume = async function (this: RedeemedCode) {
      const ctx = Provider.ctx;
      if (ctx !== undefined && this.error === undefined && typeof this.accountId === 'string') {
        if ((await find(ctx, this.accountId, this)) === undefined) throw new errors.InvalidGrant('code invalid (referenced account not found)');
      }
      return consume.call(this);
    };
  }
}

/** The tenant a surface fixes for an application's clients, or null (the service's surface, an application's domain). */
async function fixedTenant(deps: OidcDependencies, surface: Surface, applicationId: string): Promise<string | null> {
  if (surface.kind === 'service') return null;
  const decided = await deps.surfaces.tenantFor(surface, applicationId);
  return decided.kind === 'fixed' ? decided.tenantId : null;
}

/**
 * The hosted sign-in's target of a client and a `tenant` parameter: src/hosted/sign-in.ts's resolveTarget, bound to
 * the services, which are built after the OPs (routes.ts hands it over, OidcProvider.useSignInTargets).
 */
export type SignInTargets = (requestId: string, client: { clientId: string; data: GatehouseClientData }, tenantParam: unknown) => Promise<SignInTarget>;

type Grant = InstanceType<Provider['Grant']>;

/**
 * The session's grant for the client, unless it no longer fits the request: its tenant is one the user no longer
 * belongs to (the tenant deleted, or the user removed from it), or the request names (`tenant`) another tenant than
 * the one that grant's sign-in was for. The hosted pages are then asked again and decide the tenant afresh, so a
 * signed-in user never gets a token of the wrong tenant. A grant the pages have just made (`result.consent`) is the one.
 * A silent request (prompt=none) has no pages to ask: what they would decide is decided here (silentGrant).
 */
async function loadExistingGrant(deps: OidcDependencies, targets: () => SignInTargets, policy: Policy, ctx: KoaContextWithOIDC) {
  const fresh = ctx.oidc.result?.consent?.grantId;
  if (fresh !== undefined) return ctx.oidc.provider.Grant.find(fresh);
  const kept = await fittingSessionGrant(deps, ctx);
  if (!ctx.oidc.promptPending('none') || (kept !== undefined && grantsRequestedScopes(ctx, kept))) return kept;
  return silentGrant(deps, targets(), policy, ctx, kept);
}

async function fittingSessionGrant(deps: OidcDependencies, ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
  const grantId = ctx.oidc.client === undefined ? undefined : ctx.oidc.session?.grantIdFor(ctx.oidc.client.clientId);
  if (grantId === undefined || !(await grantFitsRequest(deps, ctx, grantId))) return undefined;
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

/** Whether the grant holds every OpenID scope the request asks for (what the consent prompt checks). */
function grantsRequestedScopes(ctx: KoaContextWithOIDC, grant: Grant): boolean {
  const granted = new Set(grant.getOIDCScopeEncountered().split(' '));
  return [...ctx.oidc.requestParamOIDCScopes].every((scope) => granted.has(scope));
}

/** The OIDC error (OIDC Core 3.1.2.6) a silent request answers when the hosted pages would have shown a page. */
type SilentRefusal = 'login_required' | 'account_selection_required';

/** The refusal silentGrant decided for a request, which interactionsPolicy answers. */
const silentRefusals = new WeakMap<KoaContextWithOIDC, SilentRefusal>();

type SilentDecision =
  /** The session's grant for the client stands (and takes the scopes asked for). */
  | { readonly kind: 'kept'; readonly grant: Grant }
  /** A new grant of the account for the client, signed in to this tenant of the client's application. */
  | { readonly kind: 'tenant'; readonly accountId: string; readonly clientId: string; readonly applicationId: string; readonly tenantId: string | null }
  | { readonly kind: 'refused'; readonly error: SilentRefusal };

/**
 * prompt=none: the request gets what the same request without it would get from the hosted pages without a page being
 * shown (consent is implicit, docs/decisions.md), so silent SSO works across the application's clients and its
 * tenants. The grant is made, or the session's grant takes the scopes asked for, as the pages' consent step does
 * (src/oidc/interactions.ts). Where the pages would show one, the request is refused (silentRefusals).
 */
async function silentGrant(
  deps: OidcDependencies,
  targets: SignInTargets,
  policy: Policy,
  ctx: KoaContextWithOIDC,
  kept: Grant | undefined,
): Promise<Grant | undefined> {
  const decision = await silentDecision(targets, ctx, kept);
  if (decision.kind === 'refused') {
    silentRefusals.set(ctx, decision.error);
    return kept;
  }
  // Refused anyway by a check that runs after this one (the policy's): nothing is written for a request that fails.
  if (await promptsAnyway(policy, ctx)) return kept;
  const grant = decision.kind === 'kept' ? decision.grant : new ctx.oidc.provider.Grant({ accountId: decision.accountId, clientId: decision.clientId });
  grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
  if (decision.kind === 'tenant') await saveGrantForTenant(deps.orm, grant, decision.applicationId, decision.tenantId);
  else await grant.save();
  return grant;
}

type Policy = ReturnType<typeof interactionPolicy.base>;

/** The consent checks a silent grant answers (it grants what the request asks for). */
const ANSWERED_BY_THE_GRANT: ReadonlySet<string> = new Set(['op_scopes_missing', 'op_claims_missing', 'rs_scopes_missing']);

/**
 * Whether the policy asks for a page whatever the grant: a check of the login prompt (max_age, an id_token_hint or
 * claims naming another user, …) or one of consent that the grant does not answer (a native client). oidc-provider
 * runs the policy once the grant is loaded, so a silent grant made first was saved for a request then refused.
 */
async function promptsAnyway(policy: Policy, ctx: KoaContextWithOIDC): Promise<boolean> {
  for (const prompt of policy) {
    for (const check of prompt.checks) {
      if (!ANSWERED_BY_THE_GRANT.has(check.reason) && (await check.check(ctx))) return true;
    }
  }
  return false;
}

/**
 * What the hosted pages' consent step (src/hosted/routes.ts) would do with the session's user, by the pages' own rules
 * (src/hosted/sign-in.ts): the sign-in's target (application, tenant, pool), the user active in that pool, and the
 * tenant: the one named if the user is a member, else their only one. Refused with `login_required` where the pages
 * show the sign-in form (the user is not in the target's pool, not active, not a member of the tenant named) or an
 * error page (a client whose own tenant is gone; the request's own tenant errors are invalid_request before this,
 * tenantParam); with `account_selection_required` where they ask the user to choose among their tenants.
 */
async function silentDecision(targets: SignInTargets, ctx: KoaContextWithOIDC, kept: Grant | undefined): Promise<SilentDecision> {
  const loginRequired = { kind: 'refused', error: 'login_required' } as const;
  const { client, account } = ctx.oidc;
  const data = gatehouseData(client);
  if (client === undefined || data === undefined || account === undefined) return loginRequired;
  let target: SignInTarget;
  try {
    target = await targets(opRequestId(ctx), { clientId: client.clientId, data }, ctx.oidc.params?.['tenant']);
  } catch (error) {
    if (error instanceof HostedPageError) return loginRequired;
    throw error;
  }
  const signIn = await sessionSignIn(target, account.accountId, kept !== undefined);
  if (signIn === null) return loginRequired;
  if (kept !== undefined) return { kind: 'kept', grant: kept };
  // Without a kept grant, the tenant is decided: the one named or the only one, else the user's choice.
  if (signIn.decision?.kind !== 'tenant') return { kind: 'refused', error: 'account_selection_required' };
  return { kind: 'tenant', accountId: signIn.user.id, clientId: client.clientId, applicationId: data.applicationId, tenantId: signIn.decision.tenantId };
}


/**
 * oidc-provider's prompts, and one more reason to ask for a login: the browser's session names an account findAccount
 * no longer finds for this client (deleted, suspended or locked since, or a user of another application signed in on
 * the same surface), or one a silent request cannot use (silentDecision). oidc-provider would otherwise go on without
 * an account and fail the consent checks (a 500); the sign-in form switches the session to whoever signs in. With
 * prompt=none these answer `login_required` (OIDC Core 3.1.2.6: the user must sign in), and a user who would choose
 * among their tenants `account_selection_required`, ahead of the consent checks (whose `consent_required` a first-party
 * client never needs).
 */
function interactionsPolicy() {
  const policy = interactionPolicy.base();
  const { Check } = interactionPolicy;
  policy.get('login')?.checks.add(
    new Check('account_unavailable', 'The session’s account cannot be used here', 'login_required', (ctx) =>
      ctx.oidc.session?.accountId !== undefined && (ctx.oidc.account === undefined || silentRefusals.get(ctx) === 'login_required')
        ? Check.REQUEST_PROMPT
        : Check.NO_NEED_TO_PROMPT,
    ),
  );
  policy.get('consent')?.checks.add(
    new Check('tenant_choice', 'The user belongs to several tenants and the request names none', 'account_selection_required', (ctx) =>
      silentRefusals.get(ctx) === 'account_selection_required' ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT,
    ),
    0,
  );
  return policy;
}

/** oidc-provider's description of a request that names no client (src/shared/client_auth.js). */
const NO_CLIENT_AUTHENTICATION = 'no client authentication mechanism provided';

/**
 * RFC 9110 15.5.2: a 401 carries WWW-Authenticate. oidc-provider challenges an `invalid_client` 401 (token,
 * revocation, device authorization) with `Basic realm=<issuer>` only when the client sent an Authorization header;
 * one that authenticated in the body (client_secret_post, private_key_jwt) or not at all (a public client) got none.
 * It gets the same challenge. A request with no client authentication at all (no client_id, no credentials) is
 * RFC 6749 5.2's `invalid_client` ("no client authentication included"), where oidc-provider answers 400
 * `invalid_request`. Koa middleware for `provider.use`, reading the OP's answers on their way out.
 */
function challengeClientAuthentication(issuer: string) {
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
  return async function clientAuthenticationChallenge(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const answer = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (ctx.status === 400 && answer.error === 'invalid_request' && answer.error_description === NO_CLIENT_AUTHENTICATION) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: 'no client authentication included' };
    }
    if (ctx.status !== 401 || ctx.response.headers['www-authenticate'] !== undefined) return;
    const body = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (body.error !== 'invalid_client') return;
    const description = typeof body.error_description === 'string' ? `, error_description=${quoted(body.error_description)}` : '';
    ctx.set('www-authenticate', `Basic realm=${quoted(issuer)}, error="invalid_client"${description}`);
  };
}

/**
 * claims_supported without `sid`: only front- and back-channel logout issue it, and neither is enabled. It is one of
 * oidc-provider's default claims, which a configuration can add to but not take from (its defaults are merged under
 * it), so the discovery documents leave it out here. Koa middleware for `provider.use`.
 */
async function advertiseIssuedClaimsOnly(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const body = ctx.body as { claims_supported?: unknown } | undefined;
  if (ctx.oidc?.route !== 'discovery' || !Array.isArray(body?.claims_supported)) return;
  ctx.body = { ...body, claims_supported: body.claims_supported.filter((claim) => claim !== 'sid') };
}

/**
 * RFC 6749 3.3: a request without `scope`, or naming none the OP serves (only unknown ones, which oidc-provider drops),
 * fails with `invalid_scope` at the redirect URI. oidc-provider went on to the sign-in form and, once the user had
 * signed in, answered `access_denied` (no scope granted), as if the user had refused. Registered as the validator of
 * the standard `scope` parameter (`extraParams`), which oidc-provider calls once the client, the redirect URI and the
 * scope have been checked (its `checkScope` has dropped unknown values), before the session, grant or interaction.
 * The authorization endpoint only: the device flow's requests are left as oidc-provider answers them.
 */
async function refuseRequestsOfNoKnownScope(ctx: KoaContextWithOIDC): Promise<void> {
  if (ctx.oidc.route !== 'authorization' || ctx.oidc.requestParamOIDCScopes.size > 0) return;
  const scope = ctx.oidc.params?.['scope'];
  throw new errors.InvalidScope(`the request names no scope this server supports (${OIDC_SCOPES.join(', ')})`, typeof scope === 'string' ? scope : '');
}

/**
 * The `tenant` parameter's validator (oidc-provider calls it, with or without the parameter, once the client and, at
 * the authorization endpoint, the redirect URI are checked, before the session, grant or interaction). On a surface
 * that fixes the tenant (a tenant's path or custom domain): set to that tenant when absent, refused when it names
 * another (the authorization endpoint refuses another tenant earlier, with a page: src/hosted/surface-gate.ts); the
 * hosted pages and the tokens then read it as on the service's surface. The request's tenant is then read as the
 * pages read it (resolveTarget, whose surface settings they then find cached), and what they would refuse of it
 * (TenantRequestError: a tenant the client's application does not have, a tenant-bound client naming another, an
 * isolated application's request naming none) is `invalid_request` with the error's description (RFC 6749 4.1.2.1: at
 * the redirect URI, with `state`; at the device authorization endpoint, its answer), as Auth0 answers an organization
 * it cannot sign in to: the hosted pages showed an error page and the client never heard back. Their other refusals
 * (a client whose own tenant is gone) are left to them.
 */
function tenantParam(deps: OidcDependencies, surface: Surface, targets: () => SignInTargets) {
  return async (ctx: KoaContextWithOIDC, value: string | undefined, client: Client | undefined) => {
    const data = gatehouseData(client);
    if (client === undefined || data === undefined || ctx.oidc.params === undefined) return;
    const fixed = surface.kind === 'service' ? null : await fixedTenant(deps, surface, data.applicationId);
    if (fixed !== null) {
      if (value !== undefined && value !== '' && (await deps.surfaces.findTenantId(data.applicationId, value)) !== fixed) {
        throw new errors.InvalidRequest('the tenant parameter names another tenant than this sign-in surface serves');
      }
      ctx.oidc.params['tenant'] = fixed;
    }
    try {
      await targets()(opRequestId(ctx), { clientId: client.clientId, data }, ctx.oidc.params['tenant']);
    } catch (error) {
      if (error instanceof TenantRequestError) throw new errors.InvalidRequest(error.description);
      if (!(error instanceof HostedPageError)) throw error;
    }
  };
}

/**
 * Cookies per surface: a tenant's path surface shares the service's host, so its session cookie has a name of its
 * own and is scoped to the surface's path: each tenant's surface has its own sign-in session, and the service's
 * session (path `/`) is never taken for one of them. Hosts keep custom domains' cookies apart by themselves.
 *
 * With an https PUBLIC_URL the names carry a prefix (RFC 6265bis 4.1.3) that browsers keep for cookies this host set
 * over https: a sibling subdomain (`Domain=` the parent) or a plain-http answer cannot plant a session there, where
 * the signed session of an attacker's own sign-in would sign the victim in as the attacker. `__Host-` also needs the
 * path `/`, so the path-scoped cookies (interactions, a tenant path's session) take `__Secure-`.
 */
function cookies(deps: OidcDependencies, surface: Surface): Configuration['cookies'] {
  const prefixed = new URL(deps.config.publicUrl).protocol === 'https:';
  const [host, secure] = prefixed ? ['__Host-', '__Secure-'] : ['', ''];
  const interactions = { interaction: `${secure}_interaction`, resume: `${secure}_interaction_resume` };
  const base = { keys: [deps.cookieSecret] };
  if (surface.kind !== 'tenant_path') return { ...base, names: { session: `${host}_session`, ...interactions } };
  return {
    ...base,
    names: { session: `${secure}_session_t`, ...interactions },
    long: { httpOnly: true, sameSite: 'lax', path: surface.mountPath },
  };
}

/**
 * An access token's claims beyond oidc-provider's. Every token names its application (`app_id`) and tenant
 * (`tenant_id`: a user's sign-in's, interactions.ts; a credential's own or, for an application-wide one asking on a
 * surface that fixes a tenant, that surface's, whose issuer speaks for its tenant only: src/auth/authenticate.ts). A
 * user's token names its grant, which the management API and introspection check is still standing
 * (src/auth/bearer-subject.ts). A management API token of a credential carries its permission list; a token for an
 * API resource, the subject's roles and those of the resource's permissions it holds in that tenant.
 */
async function accessTokenClaims(
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
    const tenantId = data.tenantId ?? (await fixedTenant(deps, surface, data.applicationId));
    const base = { app_id: data.applicationId, ...(tenantId === null ? {} : { tenant_id: tenantId }) };
    if (resourcePermissions === undefined) return { ...base, permissions: [...data.permissions] };
    return { ...base, ...(await held(tenantId, { type: 'm2m_credential', id: client.clientId })) };
  }
  // A management API token names no permissions of the user's: the management API reads what they hold in the request's
  // tenant at each request (src/auth/authenticate.ts), so a revoked role counts at once, not when the token expires.
  const tenantId = token.grantId === undefined ? null : await grantTenant(deps.orm, token.grantId);
  return {
    app_id: data.applicationId,
    ...(tenantId === null ? {} : { tenant_id: tenantId }),
    grant_id: token.grantId,
    ...(await held(tenantId, { type: 'user', id: token.accountId })),
  };
}

/**
 * How long a browser session lives: a signed-in one, 14 days from its last use. One without an account (the device
 * page's or the logout page's, kept for their forms' xsrf tokens) as long as an interaction: those pages are open to
 * anyone, and each visit without cookies makes one.
 */
const SIGNED_IN_SESSION_SECONDS = 14 * 24 * 3600;
const INTERACTION_SECONDS = 3600;
const sessionSeconds = (session: { accountId?: string | undefined }) =>
  session.accountId === undefined ? INTERACTION_SECONDS : SIGNED_IN_SESSION_SECONDS;

function configuration(
  deps: OidcDependencies,
  jwks: { keys: unknown[] },
  surface: Surface,
  servers: ResourceServers,
  pages: () => OpPages,
  targets: () => SignInTargets,
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
    },
    clientDefaults: { id_token_signed_response_alg: SIGNING_ALG, grant_types: ['authorization_code'], response_types: ['code'] },
    extraClientMetadata: { properties: [GATEHOUSE_METADATA] },
    scopes: [...OIDC_SCOPES],
    // No `sid`: only front- or back-channel logout issues it, and neither is enabled (see advertiseIssuedClaimsOnly).
    // tenant_id, roles and permissions are openid's too: oidc-provider keeps only openid's claims in the ID token of a
    // sign-in whose access token is for userinfo, and these belong in it (findAccount gives roles only with `roles`).
    claims: {
      openid: ['sub', 'tenant_id', 'roles', 'permissions'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      roles: ['roles', 'permissions'],
      acr: null,
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
      introspection: { enabled: true, allowedPolicy: introspectionAllowed(deps) },
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
        // Client credentials are for the management API; a sign-in without `resource` gets a userinfo token. `oneOf`:
        // a token request naming several resources, where one token has one audience. The same one named twice is that
        // one (left undefined it was silently no resource: a userinfo token); distinct ones are refused before the code
        // or refresh token is consumed (resource-indicators.ts), and oidc-provider refuses an array here.
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
          const seconds = await deps.m2mTokenSeconds({ clientId: client.clientId, applicationId: data.applicationId, tenantId: data.tenantId });
          return seconds === null ? server : { ...server, accessTokenTTL: Math.min(seconds, MAX_ACCESS_TOKEN_SECONDS) };
        },
        useGrantedResource: () => false,
      },
    },
    extraTokenClaims: extraClaimsOf((ctx, token) => accessTokenClaims(deps, surface, ctx, token)),
    extraParams: { tenant: tenantParam(deps, surface, targets), scope: refuseRequestsOfNoKnownScope },
    findAccount: findAccountOnce((ctx, sub, token) => findAccount(deps, surface, ctx, sub, token)),
    loadExistingGrant: (ctx) => loadExistingGrant(deps, targets, policy, ctx),
    interactions: { policy, url: (_ctx, interaction) => interactionPath(interaction.uid) },
    renderError,
    rotateRefreshToken: true,
    // oidc-provider binds what a sign-in without offline_access yields to the browser session it was made in, and
    // revokes its grant when that session ends. A device's tokens are the device's, not the browser's: and the
    // device pages keep one plain session for every application on a shared surface (session-application.ts), so
    // approving another application's device there (an account switch, which ends that session) revoked the first
    // application's device tokens. Device codes never expire with the verifying browser's session.
    expiresWithSession: async (_ctx, source) => source.kind !== 'DeviceCode' && !source.scopes.has('offline_access'),
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? MAX_ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: ID_TOKEN_SECONDS,
      Interaction: INTERACTION_SECONDS,
      RefreshToken: 14 * 24 * 3600,
      Session: (_ctx, session) => sessionSeconds(session),
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
  /** The hosted sign-in's targets, for silent requests; routes.ts registers them before the first request. */
  private signInTargets: SignInTargets | undefined;

  constructor(deps: OidcDependencies) {
    this.deps = deps;
    this.maxProviders = Math.max(1, deps.maxProviders ?? MAX_CACHED_PROVIDERS);
  }

  usePages(pages: OpPages): void {
    this.pages = pages;
  }

  useSignInTargets(targets: SignInTargets): void {
    this.signInTargets = targets;
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
    const targets = () => {
      if (this.signInTargets === undefined) throw new Error('the OP routes have not registered the sign-in targets');
      return this.signInTargets;
    };
    const servers = resourceServersOf(this.deps.orm, managementApi(this.deps));
    const provider = new Provider(surface.issuer, configuration(this.deps, jwks, surface, servers, pages, targets));
    provider.use(prefillUserCode);
    provider.use(paceDevicePolling(this.deps.orm));
    provider.use(allowOpFormTargets);
    provider.use(challengeClientAuthentication(surface.issuer));
    provider.use(advertiseIssuedClaimsOnly);
    provider.use(introspectJwtAccessTokens(this.deps));
    refuseInvalidResourceBeforeConsuming(provider, servers);
    const management = this.deps.signingKeys.managementAudience;
    scopeApiResourceTokens(provider, (ctx, token) => accessTokenClaims(this.deps, surface, ctx, token), (audience) => typeof audience === 'string' && audience !== management);
    refuseUnknownAccountBeforeConsuming(provider, findAccountOnce((ctx, sub, token) => findAccount(this.deps, surface, ctx, sub, token)));
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
    // Each application's browser session on a shared surface has a cookie of its own, and the logout confirmation's
    // address says whose it is (src/oidc/session-application.ts).
    const cookieName = provider.cookieName.bind(provider);
    provider.cookieName = (type) => (type === 'session' ? sessionCookieName(cookieName(type)) : cookieName(type));
    const { prototype: context } = (provider as unknown as { OIDCContext: { prototype: Pick<KoaContextWithOIDC['oidc'], 'urlFor'> } }).OIDCContext;
    const urlFor = context.urlFor;
    context.urlFor = function (this: KoaContextWithOIDC['oidc'], name, options) {
      const url = urlFor.call(this, name, options);
      return name === 'end_session_confirm' ? confirmationUrl(url) : url;
    };
    provider.on('server_error', (_ctx: unknown, error: unknown) => this.onServerError(error));
    provider.on('grant.success', (ctx: KoaContextWithOIDC) => countGrant(ctx, 'success'));
    provider.on('grant.error', (ctx: KoaContextWithOIDC, error: { error?: unknown; error_description?: unknown }) => {
      countGrant(ctx, typeof error.error === 'string' ? error.error : 'server_error');
      // oidc-provider's words when a rotated refresh token comes back: its grant is revoked, and someone holds a copy.
      if (error.error_description === 'refresh token already used') noteRequest({ refusal: 'refresh_token_reuse' });
    });
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

/** The grant types the OP knows; any other value a client sends counts as `other`, so the label set stays closed. */
const GRANT_TYPES: ReadonlySet<string> = new Set([
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
]);

/** The token endpoint's answer in the metrics; `outcome` is `success` or an OAuth error code (the OP's closed set). */
function countGrant(ctx: KoaContextWithOIDC, outcome: string): void {
  const type = ctx.oidc?.params?.['grant_type'];
  tokenGrants.inc({ grant_type: typeof type === 'string' && GRANT_TYPES.has(type) ? type : 'other', outcome });
}

/** An instance out of the cache: requests already running on it finish; it only stops listening for our events. */
function dispose(built: BuiltProvider): void {
  built.provider.removeAllListeners();
}
