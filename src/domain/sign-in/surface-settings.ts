import type { Application, AuthIsolation } from '../../db/entities/application.entity.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { Tenant, type AuthProvider } from '../../db/entities/index.ts';
import { surfaceReaderScope } from '../../context.ts';
import { GatehouseError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { effectiveAuthProviders, enabledProviderSetting } from '../auth-providers/auth-providers.ts';
import { lackingScopes } from '../auth-providers/config.ts';
import { domainLog } from '../../observability/log.ts';
import { effectiveBranding, type BrandingValue } from '../branding/branding.ts';
import { isTenantRef, tenantRefColumn } from '../domains/surfaces.ts';
import type { LockoutPolicy, MfaPolicy, PasswordPolicy, SessionPolicy } from '../policies/definitions.ts';
import { effectivePolicy, effectivePolicyRow } from '../policies/policies.ts';
import { DEFAULT_LOCALE, type Locale } from '../locales.ts';
import { InvalidatedCache } from '../../events/invalidated-cache.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';
import type { DomainServices } from '../../services.ts';

export interface PageLook {
  readonly branding: BrandingValue;
  readonly name: string;
  readonly locale: Locale;
}

export interface PasswordMethod {
  readonly signIn: boolean;
  readonly signUp: boolean;
  /** `requireEmailVerification`, default true. */
  readonly requireVerification: boolean;
}

/** The effective `magic_link` provider's methods (email-methods.ts). */
export interface EmailMethods {
  readonly link: boolean;
  readonly code: boolean;
  /** `allowSignup`, where the surface opens sign-up. */
  readonly signUp: boolean;
  readonly minutes: number;
}

export interface UpstreamMethod {
  readonly providerId: string;
  readonly tenantId: string | null;
  readonly name: string;
  /** `allowSignup`, where the surface allows sign-up. */
  readonly signUp: boolean;
}

export interface SamlMethod {
  readonly id: string;
  /** The isolated tenant owning the provider; null: the application's. */
  readonly tenantId: string | null;
  readonly name: string;
  readonly signUp: boolean;
}

export interface PasskeyMethod {
  /** Null: the surface's name. */
  readonly rpName: string | null;
  /** `required` makes a passkey two factors. */
  readonly userVerification: 'required' | 'preferred' | 'discouraged';
  /** `allowSignup` (default false), where the surface opens sign-up: an address proven by a mailed code gets an account with a new passkey. */
  readonly signUp: boolean;
}

/** Resolved by the tenancy engine: plain values, shared by every request that reads them. */
export interface SurfaceSettings {
  readonly application: { readonly id: string; readonly name: string; readonly multiTenant: boolean; readonly authIsolation: AuthIsolation };
  readonly tenant: { readonly id: string; readonly name: string } | null;
  readonly poolId: string;
  /** The isolated tenant, else null (the application's). */
  readonly policyTenantId: string | null;
  readonly look: PageLook;
  readonly password: PasswordMethod;
  readonly email: EmailMethods;
  readonly upstreams: readonly UpstreamMethod[];
  readonly saml: readonly SamlMethod[];
  readonly passkey: PasskeyMethod | null;
  readonly lockout: LockoutPolicy;
  /** Its `maxAge` is asked at every password sign-in (password-expiry.ts). */
  readonly passwordPolicy: PasswordPolicy;
  readonly session: SessionPolicy;
  readonly mfa: MfaPolicy;
  /** When `mfa` last changed (epoch ms), null for the default: a session signed in before it may owe the step (requirement.ts). */
  readonly mfaChangedAt: number | null;
  /** The enabled `m2m` provider's `tokenLifetimeSeconds`, else null (the default). */
  readonly m2mTokenSeconds: number | null;
}

/** Kept SURFACE_SETTINGS_CACHE_MS at most, dropped on every instance when configuration changes (tenancy/changed.ts). */
export type SurfaceSettingsCache = InvalidatedCache<SurfaceSettings>;

/** A surface's copy in every language may weigh hundreds of kilobytes: bounded by weight, not only by count. */
export const SURFACE_SETTINGS_CACHE_BYTES = 64 * 1024 * 1024;

export function createSurfaceSettingsCache(bus: InvalidationBus, ttlMs: number): SurfaceSettingsCache {
  return new InvalidatedCache<SurfaceSettings>(bus, ttlMs, (settings) => ({ application: settings.application.id, tenant: settings.tenant?.id ?? null }), {
    maxBytes: SURFACE_SETTINGS_CACHE_BYTES,
    sizeOf: (settings) => 2 * JSON.stringify(settings).length,
  });
}

/** `tenantRef`: an id, or a slug in any case; undefined when there is no such tenant. The same whatever opened the page. */
export async function surfaceSettings(services: DomainServices, requestId: string, applicationId: string, tenantRef: string | null): Promise<SurfaceSettings | undefined> {
  const ref = tenantRef?.toLowerCase() ?? null;
  if (ref !== null && !isTenantRef(ref)) return undefined;
  return services.surfaceSettings.find(surfaceKey(applicationId, ref), () => readSurfaceSettings(services, requestId, applicationId, ref));
}

const surfaceKey = (applicationId: string, ref: string | null) => `${applicationId}:${ref ?? ''}`;

/** A tenant's surface has the tenant's own pool and policies. */
const isolates = (application: Pick<Application, 'multiTenant' | 'authIsolation'>): boolean => application.multiTenant && application.authIsolation === 'isolated';

/**
 * What `surfaceSettings(…)?.session` is for each of `tenantIds` (null: the application's surface; undefined: no such
 * tenant), in a constant number of statements whatever their number: the cached ones, the rest read together (the
 * reader's settings loader batches the tenants' overrides). Nothing is cached: no whole surface is read.
 */
export async function surfacesSessionPolicies(
  services: DomainServices,
  requestId: string,
  applicationId: string,
  tenantIds: readonly (string | null)[],
): Promise<Map<string | null, SessionPolicy | undefined>> {
  const policies = new Map<string | null, SessionPolicy | undefined>();
  const cold: (string | null)[] = [];
  for (const tenantId of new Set(tenantIds)) {
    const cached = services.surfaceSettings.get(surfaceKey(applicationId, tenantId));
    if (cached === undefined) cold.push(tenantId);
    else policies.set(tenantId, cached.session);
  }
  if (cold.length === 0) return policies;
  const scope = surfaceReaderScope(services, requestId, applicationId, null);
  const application = await scope.application();
  const ids = cold.filter((tenantId) => tenantId !== null);
  const found = new Set(ids.length === 0 ? [] : (await scope.em.find(Tenant, { id: { $in: ids } }, { fields: ['id'] })).map((tenant) => tenant.id));
  const read = await Promise.all(
    cold.map(async (tenantId) =>
      tenantId !== null && !found.has(tenantId) ? undefined : effectivePolicy(scope, 'session', tenantId !== null && isolates(application) ? tenantId : null),
    ),
  );
  cold.forEach((tenantId, i) => policies.set(tenantId, read[i]));
  return policies;
}

/** The look of a sign-in surface for a page that knows the application but no sign-in of it: public, as its pages show
 *  it. Undefined for no such application or tenant. Cached as the settings are (misses are not kept). */
export async function surfaceLook(services: DomainServices, requestId: string, applicationId: string, tenantRef: string | null): Promise<PageLook | undefined> {
  if (!isUuid(applicationId)) return undefined;
  try {
    return (await surfaceSettings(services, requestId, applicationId, tenantRef))?.look;
  } catch (error) {
    if (error instanceof GatehouseError && error.code === 'not_found') return undefined;
    throw error;
  }
}

async function readSurfaceSettings(services: DomainServices, requestId: string, applicationId: string, ref: string | null): Promise<SurfaceSettings | undefined> {
  const applicationScope = surfaceReaderScope(services, requestId, applicationId, null);
  const application = await applicationScope.application();
  // The tenant filter of the application scope is open (null): any tenant of the application is found here.
  const tenant = ref === null ? null : await applicationScope.em.findOne(Tenant, { [tenantRefColumn(ref)]: ref });
  if (ref !== null && tenant === null) return undefined;
  const isolated = isolates(application) && tenant !== null;
  const poolId = isolated ? tenant.id : SHARED_POOL;
  const policyTenantId = isolated ? tenant.id : null;
  const scope = tenant === null ? applicationScope : surfaceReaderScope(services, requestId, applicationId, tenant.id);
  const [branding, { providers }, lockout, passwordPolicy, session, mfa] = await Promise.all([
    effectiveBranding(scope),
    effectiveAuthProviders(scope, policyTenantId),
    effectivePolicy(scope, 'lockout', policyTenantId),
    effectivePolicy(scope, 'password', policyTenantId),
    effectivePolicy(scope, 'session', policyTenantId),
    effectivePolicyRow(scope, 'mfa', policyTenantId),
  ]);
  const { logoUrl, faviconUrl, colors, copy } = branding;
  const opensMembership = tenant !== null && poolId === SHARED_POOL;
  return {
    application: { id: application.id, name: application.name, multiTenant: application.multiTenant, authIsolation: application.authIsolation },
    tenant: tenant === null ? null : { id: tenant.id, name: tenant.name },
    poolId,
    policyTenantId,
    // The language is the request's: each page answers in a copy of this look (lookFor).
    look: { branding: { logoUrl, faviconUrl, colors, copy }, name: tenant?.name ?? application.name, locale: DEFAULT_LOCALE },
    password: passwordMethod(providers, opensMembership),
    email: emailMethods(providers, opensMembership),
    upstreams: upstreamMethods(application.id, providers, opensMembership),
    saml: providers
      .filter((provider) => provider.type === 'saml' && provider.enabled)
      .map((provider) => ({ id: provider.id, tenantId: provider.tenantId ?? null, name: provider.name, signUp: provider.config['allowSignup'] !== false && !opensMembership })),
    passkey: passkeyMethod(providers, opensMembership),
    lockout,
    passwordPolicy,
    session,
    mfa: mfa.value,
    mfaChangedAt: mfa.changedAt,
    m2mTokenSeconds: numberOrNull(enabledProviderSetting(providers, 'm2m', 'tokenLifetimeSeconds')),
  };
}

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

/** Needs an enabled `password` provider. In the shared pool a tenant is joined by invitation or an administrator, never
 *  by sign-up (`opensMembership`). */
function passwordMethod(providers: readonly { type: string; enabled: boolean; config: Record<string, unknown> }[], opensMembership: boolean): PasswordMethod {
  const password = providers.find((provider) => provider.type === 'password' && provider.enabled);
  if (password === undefined) return { signIn: false, signUp: false, requireVerification: true };
  return {
    signIn: true,
    signUp: password.config['allowSignup'] !== false && !opensMembership,
    requireVerification: password.config['requireEmailVerification'] !== false,
  };
}

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

function passkeyMethod(providers: readonly { type: string; enabled: boolean; config: Record<string, unknown> }[], opensMembership: boolean): PasskeyMethod | null {
  const provider = providers.find((candidate) => candidate.type === 'passkey' && candidate.enabled);
  if (provider === undefined) return null;
  const { rpName, userVerification, allowSignup } = provider.config;
  return {
    rpName: typeof rpName === 'string' ? rpName : null,
    userVerification: userVerification === 'preferred' || userVerification === 'discouraged' ? userVerification : 'required',
    signUp: allowSignup === true && !opensMembership,
  };
}

/** Only providers with their secret (older ones may lack it): the page never shows a button that cannot work. One stored
 *  with scopes a write would now refuse (config.ts lackingScopes) still shows: accounts linked to it sign in by their
 *  subject. Its operators are warned each time it is loaded, and a sign-in it cannot find an account for says why. */
function upstreamMethods(applicationId: string, providers: readonly AuthProvider[], opensMembership: boolean): UpstreamMethod[] {
  const offered = providers.filter((provider) => provider.type === 'oauth' && provider.enabled && Object.keys(provider.secrets ?? {}).length > 0);
  for (const provider of offered) {
    const missing = lackingScopes(provider.config);
    if (missing === undefined) continue;
    domainLog().warn(
      { providerId: provider.id, applicationId, tenantId: provider.tenantId ?? null, missingScopes: missing.scopes },
      `auth provider ${provider.id} of application ${applicationId} is stored with scopes lacking ${missing.scopes.join(' or ')}: its sign-ins get no ${missing.lacking}; only accounts already linked to it sign in (a write of its config.scopes must add it)`,
    );
  }
  return offered.map((provider) => ({ providerId: provider.id, tenantId: provider.tenantId ?? null, name: provider.name, signUp: provider.config['allowSignup'] !== false && !opensMembership }));
}
