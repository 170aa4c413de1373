import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { AlreadyUsedError } from 'oidc-provider/lib/helpers/re_render_errors.js';
import revokeGrantOf from 'oidc-provider/lib/helpers/revoke.js';
import { unverifiedSigningAlg } from '../auth/jwt.ts';
import type { FindAccount } from './account.ts';
import { extraClaimsComputedAtSave, type TokenClaims } from './api-resource-tokens.ts';
import { matchesPreviousSecret } from './clients.ts';
import { assertRedeemableResources, type ResourceServers } from './resource-indicators.ts';
import { confirmationUrl, sessionCookieName } from './session-application.ts';
import { USE_TTL_KEY } from '../db/oidc-model.ts';

/**
 * Every override of an oidc-provider internal, here only. On an upgrade check each, then set OVERRIDES_CHECKED_WITH
 * (test/unit/oidc-overrides.test.ts fails until then).
 */
export const OVERRIDES_CHECKED_WITH = '9.13.3';

export interface OverrideDependencies {
  readonly findAccount: FindAccount;
  readonly servers: ResourceServers;
  readonly tokenClaims: TokenClaims;
  readonly isApiResource: (audience: unknown) => boolean;
}

export const OIDC_PROVIDER_OVERRIDES = {
  refuseInvalidResourceBeforeConsuming: 'AuthorizationCode, RefreshToken, DeviceCode: consume',
  refuseUnknownAccountBeforeConsuming: 'AuthorizationCode, DeviceCode: consume',
  scopeApiResourceTokens: 'AccessToken, ClientCredentials: save',
  acceptPreviousSecret: 'Client: compareClientSecret',
  persistSavedSessionsOnly: 'Session: save, persist',
  sessionKeepsSignInMethods: 'Session: IN_PAYLOAD, loginAccount',
  logoutMarkFollowsGrant: 'Session: grantIdFor',
  sessionCookiePerApplication: 'Provider: cookieName',
  confirmationNamesApplication: 'OIDCContext: urlFor',
  postLogoutUriOfClientAsItIsNow: 'OIDCContext: entity',
  redirectUriOfClientAsItIsNow: 'OIDCContext: entity; AuthorizationCode: consume',
  reenterUnfinishedUserCodes: 'DeviceCode: findByUserCode',
  decidedDeviceCodeIsUsed: 'DeviceCode: save',
  hintOfFormerSigningAlg: 'IdToken: validate',
  introspectionAuthenticatesCaller: 'OIDCContext: entity',
  reuseFoundFirst: 'RefreshToken: find; refresh_token grant: its checks before the consumed one; helpers/revoke',
} as const;

/** An instance's classes are its own: other instances are untouched. */
export function applyOverrides(provider: Provider, deps: OverrideDependencies): void {
  refuseInvalidResourceBeforeConsuming(provider, deps.servers);
  refuseUnknownAccountBeforeConsuming(provider, deps.findAccount);
  scopeApiResourceTokens(provider, deps.tokenClaims, deps.isApiResource);
  acceptPreviousSecret(provider);
  persistSavedSessionsOnly(provider);
  sessionKeepsSignInMethods(provider);
  logoutMarkFollowsGrant(provider);
  sessionCookiePerApplication(provider);
  confirmationNamesApplication(provider);
  postLogoutUriOfClientAsItIsNow(provider);
  redirectUriOfClientAsItIsNow(provider);
  reenterUnfinishedUserCodes(provider);
  decidedDeviceCodeIsUsed(provider);
  hintOfFormerSigningAlg(provider);
  introspectionAuthenticatesCaller(provider);
  reuseFoundFirst(provider);
}

interface GrantSource {
  readonly accountId?: string | undefined;
  readonly grantId?: string;
  readonly resourceIndicators: Set<string | undefined>;
  readonly scopes: Set<string>;
  /** An authorization code's. */
  readonly redirectUri?: string;
  /** A device code the user refused: its refusal is the answer, whatever resource is named. */
  readonly error?: string | undefined;
  consume(): Promise<void>;
}

function checkBeforeConsuming(prototypes: unknown[], check: (ctx: KoaContextWithOIDC, source: GrantSource) => Promise<void>): void {
  for (const prototype of prototypes as GrantSource[]) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the grant source as `this`
    const consume = prototype.consume;
    prototype.consume = async function (this: GrantSource) {
      const ctx = Provider.ctx;
      if (ctx !== undefined && this.error === undefined) await check(ctx, this);
      return consume.call(this);
    };
  }
}

/**
 * oidc-provider resolves `resource` only after consuming the code or token, so an invalid one would spend it and the
 * retry read as a replay; an error must leave credentials as they were (RFC 6749 5.2, RFC 8707 2). A replay is still
 * found first and revokes the grant.
 */
function refuseInvalidResourceBeforeConsuming(provider: Provider, servers: ResourceServers): void {
  checkBeforeConsuming([provider.AuthorizationCode.prototype, provider.RefreshToken.prototype, provider.DeviceCode.prototype], (ctx, source) =>
    assertRedeemableResources(ctx, source, servers),
  );
}

/**
 * oidc-provider consumes a code before looking up its account, so a refusal (user suspended, locked, out of the tenant)
 * would spend it and the retry revoke the grant as a replay (docs/decisions.md).
 */
function refuseUnknownAccountBeforeConsuming(provider: Provider, find: FindAccount): void {
  checkBeforeConsuming([provider.AuthorizationCode.prototype, provider.DeviceCode.prototype], async (ctx, code) => {
    if (typeof code.accountId === 'string' && (await find(ctx, code.accountId, code)) === undefined) {
      throw new errors.InvalidGrant('code invalid (referenced account not found)');
    }
  });
}

/**
 * oidc-provider's refresh_token grant checks the token's bindings (mTLS, DPoP, attestation), the scope asked and the
 * account before it checks the token was rotated away: a replay failing one (a wider scope, a user held out) would be
 * a plain refusal and leave the grant to the other copy. A rotated token is answered as the OP answers a reuse (token
 * and grant revoked) as soon as the grant reads it, if it is the client's own and unexpired (oidc-provider's first
 * checks): another client revokes no grant of this one.
 */
function reuseFoundFirst(provider: Provider): void {
  const { RefreshToken } = provider;
  type Find = (jti: string, options?: { ignoreExpiration?: boolean }) => Promise<InstanceType<Provider['RefreshToken']> | undefined>;
  const find = RefreshToken.find.bind(RefreshToken) as Find;
  const findFirstReuse: Find = async (jti, options) => {
    const token = await find(jti, options);
    const ctx = Provider.ctx;
    const presented = ctx?.oidc.route === 'token' && ctx.oidc.params?.['grant_type'] === 'refresh_token' && ctx.oidc.params['refresh_token'] === jti;
    if (presented && token !== undefined && Boolean(token.consumed) && !token.isExpired && token.clientId === ctx.oidc.client?.clientId) {
      await Promise.all([token.destroy(), revokeGrantOf(ctx, token.grantId)]);
      throw new errors.InvalidGrant('refresh token already used');
    }
    return token;
  };
  RefreshToken.find = findFirstReuse as typeof RefreshToken.find;
}

type IssuedToken = InstanceType<Provider['AccessToken']> | InstanceType<Provider['ClientCredentials']>;

/**
 * oidc-provider signs the scope before extra claims are computed: `save` computes them first and sets the scope from
 * the permissions.
 */
function scopeApiResourceTokens(provider: Provider, claims: TokenClaims, isApiResource: (audience: unknown) => boolean): void {
  for (const prototype of [provider.AccessToken.prototype, provider.ClientCredentials.prototype] as IssuedToken[]) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the token as `this`
    const save = prototype.save;
    prototype.save = async function (this: IssuedToken) {
      const ctx = Provider.ctx;
      if (ctx !== undefined && isApiResource(this.resourceServer?.audience)) {
        const permissions = (await extraClaimsComputedAtSave(this, claims(ctx, this)))?.['permissions'];
        // None held: a sign-in says "" rather than leave out the `openid …` it asked (docs/decisions.md).
        const none = this.kind === 'ClientCredentials' ? undefined : '';
        this.scope = Array.isArray(permissions) && permissions.length > 0 ? permissions.join(' ') : none;
      }
      return save.call(this);
    };
  }
}

/**
 * oidc-provider holds one secret per client: its constant-time comparison is extended to a rotated secret's
 * predecessor, until its grace period ends.
 */
function acceptPreviousSecret(provider: Provider): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
  const compare = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = async function (this: InstanceType<typeof provider.Client>, actual: string) {
    return (await compare.call(this, actual)) || matchesPreviousSecret(this, actual, Date.now());
  };
}

/** Sessions whose save the storage refused in this request (a logout's `state` holding a NUL): answered already. */
const refusedSaves = new WeakSet<object>();

/**
 * oidc-provider's router persists a touched session once more after the route, outside its error handler, where Koa
 * answers a failure as bare text without the page's or the service's headers: only a session saved before (not the
 * device resume's error page's) and whose save the storage did not refuse in this request is persisted there.
 */
function persistSavedSessionsOnly(provider: Provider): void {
  const { prototype } = provider.Session;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const save = prototype.save;
  prototype.save = async function (this: InstanceType<typeof provider.Session>, ttl: number) {
    try {
      return await save.call(this, ttl);
    } catch (error) {
      refusedSaves.add(this);
      throw error;
    }
  };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const persist = prototype.persist;
  prototype.persist = async function (this: InstanceType<typeof provider.Session>) {
    return typeof this.exp === 'number' && !refusedSaves.has(this) ? persist.call(this) : this.jti;
  };
}

const SIGN_IN_METHODS = 'methods';
/** When the hosted pages last judged the session's sign-in by the MFA policy (epoch ms): sessionOwesStep. */
const MFA_CHECKED_AT = 'mfaCheckedAt';

export function mfaCheckedAtOf(session: object): number | undefined {
  const checked = (session as Record<string, unknown>)[MFA_CHECKED_AT];
  return typeof checked === 'number' ? checked : undefined;
}

/** Kept as `amr` is; none when unsaid. */
export function signInMethodsOf(session: object): string[] {
  const methods = (session as Record<string, unknown>)[SIGN_IN_METHODS];
  return Array.isArray(methods) ? methods.filter((method): method is string => typeof method === 'string') : [];
}

/**
 * The sessions list shows it (browser-sessions.ts); oidc-provider stores only the properties it knows, and its resume
 * hands loginAccount only its own. Its last use is kept the same way (session-lifetime.ts).
 */
function sessionKeepsSignInMethods(provider: Provider): void {
  const Session = provider.Session as unknown as { IN_PAYLOAD: readonly string[]; prototype: { loginAccount(details: object): void } };
  const inPayload = [...Session.IN_PAYLOAD, SIGN_IN_METHODS, MFA_CHECKED_AT, USE_TTL_KEY];
  Object.defineProperty(Session, 'IN_PAYLOAD', { get: () => inPayload });
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const loginAccount = Session.prototype.loginAccount;
  Session.prototype.loginAccount = function (this: Record<string, unknown>, details: object) {
    const [account, checked] = [this['accountId'], this[MFA_CHECKED_AT]];
    loginAccount.call(this, details);
    const login = (Provider.ctx?.oidc.entities.Interaction?.result as { login?: object } | undefined)?.login;
    this[SIGN_IN_METHODS] = signInMethodsOf(login ?? {});
    // A login the pages made without judging the MFA policy keeps the account's last judgement, never another's.
    const judged = mfaCheckedAtOf(login ?? {});
    this[MFA_CHECKED_AT] = judged ?? (account === this['accountId'] ? checked : undefined);
  };
}

/**
 * oidc-provider marks a client's place in the session `persistsLogout` once a code with offline_access is issued, and
 * sign-out then spares its grant; the mark outlived the grant, so a grant that replaced it without offline_access (a
 * tenant switch) survived sign-out with its tokens. A new grant starts unmarked.
 */
function logoutMarkFollowsGrant(provider: Provider): void {
  type Authorization = { grantId?: string; persistsLogout?: boolean };
  const Session = provider.Session as unknown as { prototype: { grantIdFor(clientId: string, value?: string): string | undefined; authorizationFor(clientId: string): Authorization } };
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const grantIdFor = Session.prototype.grantIdFor;
  Session.prototype.grantIdFor = function (this: typeof Session.prototype, clientId: string, value?: string) {
    if (value !== undefined) {
      const authorization = this.authorizationFor(clientId);
      if (authorization.grantId !== value) delete authorization.persistsLogout;
    }
    return grantIdFor.call(this, clientId, value);
  };
}

/** Each application on a shared surface has a session cookie of its own (session-application.ts). */
function sessionCookiePerApplication(provider: Provider): void {
  const cookieName = provider.cookieName.bind(provider);
  provider.cookieName = (type) => (type === 'session' ? sessionCookieName(cookieName(type)) : cookieName(type));
}

/** So the confirmation says whose session it ends (session-application.ts). */
function confirmationNamesApplication(provider: Provider): void {
  const { prototype: context } = (provider as unknown as { OIDCContext: { prototype: Pick<KoaContextWithOIDC['oidc'], 'urlFor'> } }).OIDCContext;
  const urlFor = context.urlFor;
  context.urlFor = function (this: KoaContextWithOIDC['oidc'], name, options) {
    const url = urlFor.call(this, name, options);
    return name === 'end_session_confirm' ? confirmationUrl(url) : url;
  };
}

/**
 * Where oidc-provider's confirmation goes on when another account signs in on the browser: it ends the session's and
 * returns to the sign-in under way (its resume of an authorization or a device's), through the post-logout redirect
 * URI it keeps in the session.
 */
export function isAccountSwitchReturn(oidc: KoaContextWithOIDC['oidc'], uri: string): boolean {
  return ['authorization', 'code_verification'].some((route) => uri.startsWith(`${oidc.urlFor(route)}/`));
}

/**
 * oidc-provider checks a post-logout redirect URI when it shows the confirmation, then follows the one the session
 * kept: the client it finds at the confirmation (none if deleted or no longer served) must register it still, or the
 * session ends on the signed-out page. Its confirmation finds that client just before it reads the URI.
 */
function postLogoutUriOfClientAsItIsNow(provider: Provider): void {
  afterClientRead(provider, 'end_session_confirm', (oidc, client) => {
    const state = oidc.session?.state;
    const uri = state?.['postLogoutRedirectUri'];
    if (state === undefined || typeof uri !== 'string' || isAccountSwitchReturn(oidc, uri)) return;
    if (client?.postLogoutRedirectUriAllowed(uri) !== true) state['postLogoutRedirectUri'] = undefined;
  });
}

type OidcContext = KoaContextWithOIDC['oidc'] & { redirectUriCheckPerformed?: boolean };

/** Runs `check` once oidc-provider has read the request's client (OIDCContext's `entity('Client', …)`) on `route`. */
function afterClientRead(provider: Provider, route: string, check: (oidc: OidcContext, client: InstanceType<Provider['Client']> | undefined) => void): void {
  const { prototype: context } = (provider as unknown as { OIDCContext: { prototype: Pick<OidcContext, 'entity'> } }).OIDCContext;
  const entity = context.entity;
  context.entity = function (this: OidcContext, key: string, value: unknown) {
    entity.call(this, key, value);
    if (this.route === route && key === 'Client') check(this, value as InstanceType<Provider['Client']> | undefined);
  };
}

/**
 * RFC 7662 2.1: introspection authenticates its caller. oidc-provider authenticates every endpoint's client by its one
 * registered method, so a public client (`none`) would pass with its client_id: it is refused as the client is read.
 */
function introspectionAuthenticatesCaller(provider: Provider): void {
  afterClientRead(provider, 'introspection', (_oidc, client) => {
    if (client?.clientAuthMethod === 'none') throw new errors.InvalidClientAuth('a public client cannot authenticate to introspect tokens');
  });
}

/** oidc-provider checks the redirect URI only when the request arrives: one the client dropped since gets no code at the
 *  resume, and a code sent to it does not redeem. */
function redirectUriOfClientAsItIsNow(provider: Provider): void {
  afterClientRead(provider, 'resume', (oidc, client) => {
    const uri = oidc.params?.['redirect_uri'];
    if (typeof uri === 'string' && client?.redirectUriAllowed(uri) !== true) {
      oidc.redirectUriCheckPerformed = false;
      throw new errors.InvalidRedirectUri();
    }
  });
  checkBeforeConsuming([provider.AuthorizationCode.prototype], async (ctx, code) => {
    if (code.redirectUri !== undefined && ctx.oidc.client?.redirectUriAllowed(code.redirectUri) !== true) {
      throw new errors.InvalidGrant('authorization code redirect_uri is no longer registered for the client');
    }
  });
}

/**
 * oidc-provider refuses a user code once a sign-in for it began (`inFlight`): a user who left it could not come back.
 * It is still decided once (adapter.ts).
 */
function reenterUnfinishedUserCodes(provider: Provider): void {
  const { DeviceCode } = provider;
  const findByUserCode = DeviceCode.findByUserCode.bind(DeviceCode);
  DeviceCode.findByUserCode = async (...args) => {
    const code = await findByUserCode(...args);
    if (code !== undefined) code.inFlight = undefined;
    return code;
  };
}

/** Thrown by the adapter for a save over a device code already decided, redeemed or expired. */
export class DecidedDeviceCode extends Error {}

/** oidc-provider's own refusal of a used code (the input page saying so), not a server error. */
function decidedDeviceCodeIsUsed(provider: Provider): void {
  const { prototype } = provider.DeviceCode;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the code as `this`
  const save = prototype.save;
  prototype.save = async function (this: InstanceType<Provider['DeviceCode']>) {
    try {
      return await save.call(this);
    } catch (error) {
      if (!(error instanceof DecidedDeviceCode)) throw error;
      const typed = Provider.ctx?.oidc.params?.['user_code'];
      throw new AlreadyUsedError(typeof typed === 'string' ? typed : undefined);
    }
  };
}

/**
 * oidc-provider verifies an ID token hint with the client's algorithm now, so a change of `idTokenSigningAlg` would
 * refuse every ID token issued before it (sign-out, prompt=none) until each user signs in again. Either algorithm's key
 * is the OP's own: the hint is verified against the OP's keys for the algorithm it names, if it is one of them.
 */
function hintOfFormerSigningAlg(provider: Provider): void {
  const { IdToken } = provider;
  const validate = IdToken.validate.bind(IdToken);
  IdToken.validate = (jwt, client) => {
    const alg = unverifiedSigningAlg(jwt);
    const signedWith = alg === undefined || alg === client.idTokenSignedResponseAlg ? client : (Object.create(client, { idTokenSignedResponseAlg: { value: alg } }) as typeof client);
    return validate(jwt, signedWith);
  };
}
