import type { AuthIsolation } from '../../db/entities/application.entity.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { Tenant, type AuthProvider } from '../../db/entities/index.ts';
import { endUserScope } from '../../context.ts';
import { effectiveAuthProviders, enabledProviderSetting } from '../auth-providers/auth-providers.ts';
import { effectiveBranding, type BrandingValue } from '../branding/branding.ts';
import { isTenantRef, tenantRefColumn } from '../domains/surfaces.ts';
import type { LockoutPolicy, MfaPolicy, PasswordPolicy, SessionPolicy } from '../policies/definitions.ts';
import { effectivePolicy } from '../policies/policies.ts';
import { DEFAULT_LOCALE, type Locale } from '../locales.ts';
import { InvalidatedCache } from '../../events/invalidated-cache.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';
import type { Services } from '../../services.ts';

/** The look of a sign-in surface's pages: branding (effective for the tenant) and the name shown under the title. */
export interface PageLook {
  readonly branding: BrandingValue;
  /** The tenant's name, else the application's. */
  readonly name: string;
  /** The language of the page's copy. */
  readonly locale: Locale;
}

/** What the effective auth providers allow of passwords on a surface. */
export interface PasswordMethod {
  readonly signIn: boolean;
  readonly signUp: boolean;
  /** A self-signed-up account signs in only once its e-mail is verified (`requireEmailVerification`, default true). */
  readonly requireVerification: boolean;
}

/** What the effective `magic_link` provider allows of sign-ins by e-mail on a surface (src/domain/sign-in/email-methods.ts). */
export interface EmailMethods {
  /** A single-use link by mail (`signInWith` link or link_and_code). */
  readonly link: boolean;
  /** A one-time code by mail (`signInWith` code or link_and_code). */
  readonly code: boolean;
  /** An address without an account gets one on first use (`allowSignup`, where the surface opens sign-up). */
  readonly signUp: boolean;
  /** How long a link or code works (`linkLifetimeMinutes`). */
  readonly minutes: number;
}

/** An upstream identity provider (an enabled `oauth` auth provider) a surface offers as a button. */
export interface UpstreamMethod {
  readonly providerId: string;
  /** The tenant that owns the provider; null for the application's. */
  readonly tenantId: string | null;
  /** The provider's display name: the button's text. */
  readonly name: string;
  /** Whether an upstream account that matches no user creates one (`allowSignup`, where the surface allows sign-up). */
  readonly signUp: boolean;
}

/** An enabled `saml` provider of a surface: its button, and whether a new account may come of it. */
export interface SamlMethod {
  readonly id: string;
  readonly name: string;
  /** The provider's `allowSignup`, where the surface allows sign-up at all (passwordMethod's `opensMembership`). */
  readonly signUp: boolean;
}

/** An enabled `passkey` provider of a surface: sign-in with a discoverable WebAuthn credential (src/domain/webauthn/). */
export interface PasskeyMethod {
  /** The name authenticators show for the relying party (`rpName`); null: the surface's name. */
  readonly rpName: string | null;
  /** What the authenticator must do to verify its user (`userVerification`); `required` makes a passkey two factors. */
  readonly userVerification: 'required' | 'preferred' | 'discouraged';
}

/**
 * What a sign-in surface (an application, and the tenant a sign-in is for) shows and enforces, as the tenancy engine
 * resolves it: plain values, shared by every request that reads them.
 */
export interface SurfaceSettings {
  readonly application: { readonly id: string; readonly name: string; readonly multiTenant: boolean; readonly authIsolation: AuthIsolation };
  readonly tenant: { readonly id: string; readonly name: string } | null;
  /** Where users are looked up: the application's shared pool, or the isolated tenant's own. */
  readonly poolId: string;
  /** The tenant whose policies apply (password, lockout): the isolated tenant, else null (the application's). */
  readonly policyTenantId: string | null;
  /** The effective branding, with the tenant's name (else the application's). */
  readonly look: PageLook;
  readonly password: PasswordMethod;
  readonly email: EmailMethods;
  /** The upstream identity providers offered (src/domain/sign-in/upstream/), in the providers' order. */
  readonly upstreams: readonly UpstreamMethod[];
  readonly saml: readonly SamlMethod[];
  /** Sign-in with a passkey; null: not offered. */
  readonly passkey: PasskeyMethod | null;
  readonly lockout: LockoutPolicy;
  /** The password policy of the pool: its `maxAge` is asked at every password sign-in (password-expiry.ts). */
  readonly passwordPolicy: PasswordPolicy;
  /** The session policy of the pool: lifetimes (session.ts), singleSession, notifyNewBrowser (account-links.ts). */
  readonly session: SessionPolicy;
  /** The MFA policy of the pool, asked after the first factor (src/domain/mfa/requirement.ts). */
  readonly mfa: MfaPolicy;
  /** How long client-credentials tokens live: the enabled `m2m` provider's `tokenLifetimeSeconds`, else null (the default). */
  readonly m2mTokenSeconds: number | null;
}

/**
 * The surface settings this instance read recently, by application and tenant reference: a sign-in then reads no
 * configuration from the database. An entry lives SURFACE_SETTINGS_CACHE_MS at most and goes at once when the
 * application's or the tenant's configuration changes, on any instance (the tenancy engine publishes
 * `application` or `tenant`: src/domain/tenancy/changed.ts).
 */
export type SurfaceSettingsCache = InvalidatedCache<SurfaceSettings>;

export function createSurfaceSettingsCache(bus: InvalidationBus, ttlMs: number): SurfaceSettingsCache {
  return new InvalidatedCache<SurfaceSettings>(bus, ttlMs, (settings) => ({ application: settings.application.id, tenant: settings.tenant?.id ?? null }));
}

/**
 * The settings of the application's surface for the tenant `tenantRef` (an id, or a slug in any case; null: none),
 * from the cache or read through the tenancy engine with an end user's scope. Undefined when the application has no
 * such tenant.
 */
export async function surfaceSettings(
  services: Services,
  requestId: string,
  client: { clientId: string; applicationId: string },
  tenantRef: string | null,
): Promise<SurfaceSettings | undefined> {
  const ref = tenantRef?.toLowerCase() ?? null;
  if (ref !== null && !isTenantRef(ref)) return undefined;
  return services.surfaceSettings.find(`${client.applicationId}:${ref ?? ''}`, () => readSurfaceSettings(services, requestId, client, ref));
}

async function readSurfaceSettings(
  services: Services,
  requestId: string,
  { clientId, applicationId }: { clientId: string; applicationId: string },
  ref: string | null,
): Promise<SurfaceSettings | undefined> {
  const applicationScope = endUserScope(services, requestId, { clientId, applicationId, tenantId: null });
  const application = await applicationScope.application();
  // The tenant filter of the application scope is open (null): any tenant of the application is found here.
  const tenant = ref === null ? null : await applicationScope.em.findOne(Tenant, { [tenantRefColumn(ref)]: ref });
  if (ref !== null && tenant === null) return undefined;
  const isolated = application.multiTenant && application.authIsolation === 'isolated' && tenant !== null;
  const poolId = isolated ? tenant.id : SHARED_POOL;
  const policyTenantId = isolated ? tenant.id : null;
  const scope = tenant === null ? applicationScope : endUserScope(services, requestId, { clientId, applicationId, tenantId: tenant.id });
  const [branding, { providers }, lockout, passwordPolicy, session, mfa] = await Promise.all([
    effectiveBranding(scope),
    effectiveAuthProviders(scope, policyTenantId),
    effectivePolicy(scope, 'lockout', policyTenantId),
    effectivePolicy(scope, 'password', policyTenantId),
    effectivePolicy(scope, 'session', policyTenantId),
    effectivePolicy(scope, 'mfa', policyTenantId),
  ]);
  const { logoUrl, faviconUrl, colors, copy } = branding;
  return {
    application: { id: application.id, name: application.name, multiTenant: application.multiTenant, authIsolation: application.authIsolation },
    tenant: tenant === null ? null : { id: tenant.id, name: tenant.name },
    poolId,
    policyTenantId,
    // The language is the request's: each page answers in a copy of this look (lookFor).
    look: { branding: { logoUrl, faviconUrl, colors, copy }, name: tenant?.name ?? application.name, locale: DEFAULT_LOCALE },
    password: passwordMethod(providers, tenant !== null && poolId === SHARED_POOL),
    email: emailMethods(providers, tenant !== null && poolId === SHARED_POOL),
    upstreams: upstreamMethods(providers, tenant !== null && poolId === SHARED_POOL),
    saml: providers
      .filter((provider) => provider.type === 'saml' && provider.enabled)
      .map((provider) => ({ id: provider.id, name: provider.name, signUp: provider.config['allowSignup'] !== false && !(tenant !== null && poolId === SHARED_POOL) })),
    passkey: passkeyMethod(providers),
    lockout,
    passwordPolicy,
    session,
    mfa,
    m2mTokenSeconds: numberOrNull(enabledProviderSetting(providers, 'm2m', 'tokenLifetimeSeconds')),
  };
}

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/**
 * Password sign-in and sign-up as the effective auth providers of the pool allow: an enabled `password` provider,
 * sign-up when its `allowSignup` (default true) says so. A pool with no provider configured at all (a new
 * application) has the built-in default, the password provider with its defaults, as Auth0's and Logto's new
 * applications do. In the shared pool a tenant named by the request joins by invitation or by an administrator,
 * never by signing up (`opensMembership`), so sign-up is offered only without a tenant (or for an isolated tenant's
 * own pool).
 */
function passwordMethod(providers: readonly { type: string; enabled: boolean; config: Record<string, unknown> }[], opensMembership: boolean): PasswordMethod {
  if (providers.length === 0) return { signIn: true, signUp: !opensMembership, requireVerification: true };
  const password = providers.find((provider) => provider.type === 'password' && provider.enabled);
  if (password === undefined) return { signIn: false, signUp: false, requireVerification: true };
  return {
    signIn: true,
    signUp: password.config['allowSignup'] !== false && !opensMembership,
    requireVerification: password.config['requireEmailVerification'] !== false,
  };
}

/** Sign-in by e-mail as an enabled `magic_link` provider allows it; none without one. Sign-up as for passwords. */
function emailMethods(providers: readonly { type: string; enabled: boolean; config: Record<string, unknown> }[], opensMembership: boolean): EmailMethods {
  const provider = providers.find((candidate) => candidate.type === 'magic_link' && candidate.enabled);
  if (provider === undefined) return { link: false, code: false, signUp: false, minutes: 0 };
  const { signInWith, allowSignup, linkLifetimeMinutes } = provider.config;
  return {
    link: signInWith !== 'code',
    code: signInWith === 'code' || signInWith === 'link_and_code',
    signUp: allowSignup !== false && !opensMembership,
    minutes: typeof linkLifetimeMinutes === 'number' ? linkLifetimeMinutes : 15,
  };
}

/** Sign-in with a passkey as an enabled `passkey` provider allows it; none without one. */
function passkeyMethod(providers: readonly { type: string; enabled: boolean; config: Record<string, unknown> }[]): PasskeyMethod | null {
  const provider = providers.find((candidate) => candidate.type === 'passkey' && candidate.enabled);
  if (provider === undefined) return null;
  const { rpName, userVerification } = provider.config;
  return {
    rpName: typeof rpName === 'string' ? rpName : null,
    userVerification: userVerification === 'preferred' || userVerification === 'discouraged' ? userVerification : 'required',
  };
}

/**
 * The enabled `oauth` providers, each a button: only those with their secret (a provider saved before secrets were
 * required would fail at the token request, and the page never shows a button that cannot work). Sign-up as for
 * passwords: never where signing up would open a shared pool's tenant (`opensMembership`).
 */
function upstreamMethods(providers: readonly AuthProvider[], opensMembership: boolean): UpstreamMethod[] {
  return providers
    .filter((provider) => provider.type === 'oauth' && provider.enabled && Object.keys(provider.secrets ?? {}).length > 0)
    .map((provider) => ({ providerId: provider.id, tenantId: provider.tenantId ?? null, name: provider.name, signUp: provider.config['allowSignup'] !== false && !opensMembership }));
}
