import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { AlreadyUsedError } from 'oidc-provider/lib/helpers/re_render_errors.js';
import type { FindAccount } from './account.ts';
import { extraClaimsComputedAtSave, type TokenClaims } from './api-resource-tokens.ts';
import { matchesPreviousSecret } from './clients.ts';
import { assertRedeemableResources, type ResourceServers } from './resource-indicators.ts';
import { confirmationUrl, sessionCookieName } from './session-application.ts';

/**
 * Every override of an oidc-provider internal (a method replaced on one instance's classes, not a documented option),
 * here and nowhere else, each with its reason below. They rely on how that version behaves inside: on an upgrade of
 * oidc-provider, check each of them again, then set OVERRIDES_CHECKED_WITH (test/unit/oidc-overrides.test.ts fails
 * until then, naming them).
 */
export const OVERRIDES_CHECKED_WITH = '9.13.3';

export interface OverrideDependencies {
  /** The account of a code's subject, as the token endpoint will look it up (account.ts). */
  readonly findAccount: FindAccount;
  readonly servers: ResourceServers;
  /** An access token's extra claims (configuration.ts), and which audiences are API resources'. */
  readonly tokenClaims: TokenClaims;
  readonly isApiResource: (audience: unknown) => boolean;
}

/** Each override by name, with what it changes (the reasons are on the functions). */
export const OIDC_PROVIDER_OVERRIDES = {
  refuseInvalidResourceBeforeConsuming: 'AuthorizationCode, RefreshToken, DeviceCode: consume',
  refuseUnknownAccountBeforeConsuming: 'AuthorizationCode, DeviceCode: consume',
  scopeApiResourceTokens: 'AccessToken, ClientCredentials: save',
  acceptPreviousSecret: 'Client: compareClientSecret',
  persistSavedSessionsOnly: 'Session: persist',
  sessionKeepsSignInMethods: 'Session: IN_PAYLOAD, loginAccount',
  sessionCookiePerApplication: 'Provider: cookieName',
  confirmationNamesApplication: 'OIDCContext: urlFor',
  reenterUnfinishedUserCodes: 'DeviceCode: findByUserCode',
  decidedDeviceCodeIsUsed: 'DeviceCode: save',
} as const;

/** Applies every override to one OP instance (its classes are its own: other instances are untouched). */
export function applyOverrides(provider: Provider, deps: OverrideDependencies): void {
  refuseInvalidResourceBeforeConsuming(provider, deps.servers);
  refuseUnknownAccountBeforeConsuming(provider, deps.findAccount);
  scopeApiResourceTokens(provider, deps.tokenClaims, deps.isApiResource);
  acceptPreviousSecret(provider);
  persistSavedSessionsOnly(provider);
  sessionKeepsSignInMethods(provider);
  sessionCookiePerApplication(provider);
  confirmationNamesApplication(provider);
  reenterUnfinishedUserCodes(provider);
  decidedDeviceCodeIsUsed(provider);
}

/** What a token request redeems: a code, a refresh token or a device code, with the resources it was granted. */
interface GrantSource {
  readonly accountId?: string | undefined;
  readonly grantId?: string;
  readonly resourceIndicators: Set<string | undefined>;
  /** A device code the user refused: its refusal is the answer, whatever resource is named. */
  readonly error?: string | undefined;
  consume(): Promise<void>;
}

/** Runs `check` before each of the prototypes' `consume`, in a request (outside one there is nothing to check). */
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
 * oidc-provider resolves a token request's `resource` only after consuming the code, refresh token or device code, so
 * an invalid one would spend it and the retry read as a replay. An error must leave the credentials as they were
 * (RFC 6749 5.2, RFC 8707 2), so that rule runs before. A replay is still found first and revokes the grant.
 */
function refuseInvalidResourceBeforeConsuming(provider: Provider, servers: ResourceServers): void {
  checkBeforeConsuming([provider.AuthorizationCode.prototype, provider.RefreshToken.prototype, provider.DeviceCode.prototype], (ctx, source) =>
    assertRedeemableResources(ctx, source, servers),
  );
}

/**
 * oidc-provider consumes an authorization or device code before looking up its account, so a refusal (user suspended,
 * locked, deleted or out of the tenant) would spend it and the retry read as a replay that revokes the grant. A
 * refused request leaves the code as it was (docs/decisions.md): the account is looked up first (findAccountOnce).
 */
function refuseUnknownAccountBeforeConsuming(provider: Provider, find: FindAccount): void {
  checkBeforeConsuming([provider.AuthorizationCode.prototype, provider.DeviceCode.prototype], async (ctx, code) => {
    if (typeof code.accountId === 'string' && (await find(ctx, code.accountId, code)) === undefined) {
      throw new errors.InvalidGrant('code invalid (referenced account not found)');
    }
  });
}

type IssuedToken = InstanceType<Provider['AccessToken']> | InstanceType<Provider['ClientCredentials']>;

/**
 * A token for an API resource carries the permissions its subject holds, in `permissions` and as its `scope`.
 * oidc-provider sets and signs the scope before extra claims are computed, so `save` computes them first and sets the
 * scope from them.
 */
function scopeApiResourceTokens(provider: Provider, claims: TokenClaims, isApiResource: (audience: unknown) => boolean): void {
  for (const prototype of [provider.AccessToken.prototype, provider.ClientCredentials.prototype] as IssuedToken[]) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the token as `this`
    const save = prototype.save;
    prototype.save = async function (this: IssuedToken) {
      const ctx = Provider.ctx;
      if (ctx !== undefined && isApiResource(this.resourceServer?.audience)) {
        const permissions = (await extraClaimsComputedAtSave(this, claims(ctx, this)))?.['permissions'];
        // None held: a sign-in's response says "" rather than leave out the `openid …` it asked (docs/decisions.md).
        const none = this.kind === 'ClientCredentials' ? undefined : '';
        this.scope = Array.isArray(permissions) && permissions.length > 0 ? permissions.join(' ') : none;
      }
      return save.call(this);
    };
  }
}

/**
 * A rotated secret's predecessor authenticates until its grace period ends: oidc-provider holds one secret per client,
 * so its comparison (constant-time) is extended.
 */
function acceptPreviousSecret(provider: Provider): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
  const compare = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = async function (this: InstanceType<typeof provider.Client>, actual: string) {
    return (await compare.call(this, actual)) || matchesPreviousSecret(this, actual, Math.floor(Date.now() / 1000));
  };
}

/**
 * On the device flow's resume route without a session, oidc-provider's error page touches a never-saved session and
 * persist() throws at the request's end (a bare 500 instead of the page): a session never saved has nothing to persist.
 */
function persistSavedSessionsOnly(provider: Provider): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const persist = provider.Session.prototype.persist;
  provider.Session.prototype.persist = async function (this: InstanceType<typeof provider.Session>) {
    return typeof this.exp === 'number' ? persist.call(this) : this.jti;
  };
}

/** The property of a browser session that holds how its user signed in (sessionKeepsSignInMethods). */
const SIGN_IN_METHODS = 'methods';

/** How the browser session's user signed in (the interaction's `login.methods`), kept as its `amr` is; none when unsaid. */
export function signInMethodsOf(session: object): string[] {
  const methods = (session as Record<string, unknown>)[SIGN_IN_METHODS];
  return Array.isArray(methods) ? methods.filter((method): method is string => typeof method === 'string') : [];
}

/**
 * A browser session keeps how its user signed in (the sessions list it: src/domain/sessions/browser-sessions.ts), set
 * at each login as its `amr` is, from the interaction's result (interactions.ts). oidc-provider stores only the
 * properties it knows, and its resume hands loginAccount only its own; the interaction is the request's by then.
 */
function sessionKeepsSignInMethods(provider: Provider): void {
  const Session = provider.Session as unknown as { IN_PAYLOAD: readonly string[]; prototype: { loginAccount(details: object): void } };
  const inPayload = [...Session.IN_PAYLOAD, SIGN_IN_METHODS];
  Object.defineProperty(Session, 'IN_PAYLOAD', { get: () => inPayload });
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the session as `this`
  const loginAccount = Session.prototype.loginAccount;
  Session.prototype.loginAccount = function (this: Record<string, unknown>, details: object) {
    loginAccount.call(this, details);
    const login = (Provider.ctx?.oidc.entities.Interaction?.result as { login?: object } | undefined)?.login;
    this[SIGN_IN_METHODS] = signInMethodsOf(login ?? {});
  };
}

/** Each application's browser session on a shared surface has a cookie of its own (session-application.ts). */
function sessionCookiePerApplication(provider: Provider): void {
  const cookieName = provider.cookieName.bind(provider);
  provider.cookieName = (type) => (type === 'session' ? sessionCookieName(cookieName(type)) : cookieName(type));
}

/** The logout confirmation's address says whose session it ends (session-application.ts). */
function confirmationNamesApplication(provider: Provider): void {
  const { prototype: context } = (provider as unknown as { OIDCContext: { prototype: Pick<KoaContextWithOIDC['oidc'], 'urlFor'> } }).OIDCContext;
  const urlFor = context.urlFor;
  context.urlFor = function (this: KoaContextWithOIDC['oidc'], name, options) {
    const url = urlFor.call(this, name, options);
    return name === 'end_session_confirm' ? confirmationUrl(url) : url;
  };
}

/**
 * oidc-provider refuses a user code once a sign-in for it has begun (`inFlight`): a user who left that sign-in could
 * not enter it again. Read by user code, a code is never in flight; it is still decided once (adapter.ts).
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

/** What the adapter throws for a save over a device code already approved, denied, redeemed or expired (adapter.ts). */
export class DecidedDeviceCode extends Error {}

/**
 * A save the adapter refuses over a decided device code (a second approval or denial) is oidc-provider's own refusal
 * of a used code: the input page saying so, not a server error.
 */
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
