import { verifyAgainstDummy, verifyPassword } from '../auth/password-hash.ts';
import { endUserScope, type Scope } from '../context.ts';
import { Tenant, User, type Application } from '../db/entities/index.ts';
import { SHARED_POOL } from '../db/entities/user.entity.ts';
import { effectiveAuthProviders } from '../domain/auth-providers/auth-providers.ts';
import { effectiveBranding } from '../domain/branding/branding.ts';
import { tenantRefColumn } from '../domain/domains/surfaces.ts';
import { effectivePolicy } from '../domain/policies/policies.ts';
import { normalizeEmail } from '../domain/users/users.ts';
import { isUuid } from '../ids.ts';
import type { GatehouseClientData } from '../oidc/clients.ts';
import type { Services } from '../services.ts';
import { maySignIn, recordFailedSignIn, recordSuccessfulSignIn } from './lockout.ts';
import type { PageLook } from './pages.ts';

/**
 * The rules of the hosted sign-in, apart from HTTP: which application, tenant and user pool a sign-in is for,
 * and whether an e-mail and password prove a user of that pool. No Fastify or oidc-provider types in here.
 */

/** A refusal shown to the end user as an error page (no redirect: the request cannot be trusted to go back). */
export class HostedPageError extends Error {
  readonly status: number;
  /** The branding to show it in, when the surface's tenant is known; else the plain look. */
  readonly look: PageLook | undefined;

  constructor(status: number, message: string, look?: PageLook) {
    super(message);
    this.name = 'HostedPageError';
    this.status = status;
    this.look = look;
  }
}

/** The refusal of a tenant the client's application does not have (by the `tenant` parameter or a surface's path). */
export const UNKNOWN_TENANT = 'The application asked to sign in to an organization that does not exist.';

export interface SignInTarget {
  readonly clientId: string;
  readonly application: Application;
  /** The tenant the sign-in is for when the client (tenant-bound) or the `tenant` parameter names one. */
  readonly tenant: Tenant | null;
  /** Where users are looked up: the application's shared pool, or the isolated tenant's own. */
  readonly poolId: string;
  /** The tenant whose policies apply (password, lockout): the isolated tenant, else null (the application's). */
  readonly policyTenantId: string | null;
  /** The end user's scope, narrowed to `tenant` when there is one: branding and policies are read through it. */
  readonly scope: Scope;
  /** The same application, no tenant: users of the whole pool and the tenants they belong to. */
  readonly applicationScope: Scope;
}

/** The longest e-mail (RFC 5321 path) and password worth an Argon2 verification; longer ones fail as wrong. */
const MAX_EMAIL_LENGTH = 320;
const MAX_PASSWORD_INPUT = 1024;

/**
 * The application, tenant and pool of a sign-in for an OAuth client. `tenantParam` is the authorization request's
 * `tenant` (a tenant id or slug). A tenant-bound client signs in to its own tenant only; with `authIsolation` =
 * `isolated` a tenant is required, since each tenant is its own sign-in surface with its own pool and policies.
 */
export async function resolveTarget(
  services: Services,
  requestId: string,
  client: { clientId: string; data: GatehouseClientData },
  tenantParam: unknown,
): Promise<SignInTarget> {
  const { clientId, data } = client;
  const applicationScope = endUserScope(services, requestId, { clientId, applicationId: data.applicationId, tenantId: null });
  const application = await applicationScope.application();
  let tenant: Tenant | null = null;
  if (typeof tenantParam === 'string' && tenantParam !== '') {
    // The tenant filter of the application scope is open (null): any tenant of the application is found here.
    const ref = tenantParam.toLowerCase();
    tenant = await applicationScope.em.findOne(Tenant, { [tenantRefColumn(ref)]: ref });
    if (tenant === null) throw new HostedPageError(400, UNKNOWN_TENANT);
  } else if (tenantParam !== undefined && tenantParam !== '') {
    throw new HostedPageError(400, 'The sign-in request names its organization in an unreadable form.');
  }
  if (data.tenantId !== null) {
    if (tenant !== null && tenant.id !== data.tenantId) throw new HostedPageError(400, 'This application cannot sign in to that organization.');
    tenant ??= await applicationScope.em.findOne(Tenant, { id: data.tenantId });
    if (tenant === null) throw new HostedPageError(400, 'The application’s organization no longer exists.');
  }
  const isolated = application.multiTenant && application.authIsolation === 'isolated';
  if (isolated && tenant === null) {
    throw new HostedPageError(400, 'Each organization of this application has its own sign-in: the sign-in request must name one.');
  }
  const scope =
    tenant === null ? applicationScope : endUserScope(services, requestId, { clientId, applicationId: application.id, tenantId: tenant.id });
  return {
    clientId,
    application,
    tenant,
    poolId: isolated && tenant !== null ? tenant.id : SHARED_POOL,
    policyTenantId: isolated && tenant !== null ? tenant.id : null,
    scope,
    applicationScope,
  };
}

/** The page's look: the tenant's effective branding (the tenancy engine decides inherited or customized). */
export async function pageLook(target: SignInTarget): Promise<PageLook> {
  const { logoUrl, faviconUrl, colors, copy } = await effectiveBranding(target.scope);
  return { branding: { logoUrl, faviconUrl, colors, copy }, name: target.tenant?.name ?? target.application.name };
}

export type CredentialCheck = { ok: true; user: User } | { ok: false };

/**
 * Whether `email` and `password` prove a user of the target's pool who may sign in. Exactly one Argon2id
 * verification happens whatever the outcome (an unknown e-mail, or a user without a password, is verified against a
 * dummy hash), and every refusal is the same `{ ok: false }`, so neither the answer nor its timing tells whether the
 * e-mail exists, the password was right for a locked or suspended user, or the attempt just locked the account.
 * Failed attempts on a known user count towards the lockout policy of the user's pool.
 */
export async function verifyCredentials(target: SignInTarget, email: unknown, password: unknown): Promise<CredentialCheck> {
  const address = typeof email === 'string' ? email.trim() : '';
  const secret = typeof password === 'string' ? password : '';
  if (address === '' || address.length > MAX_EMAIL_LENGTH || secret === '' || secret.length > MAX_PASSWORD_INPUT) {
    return { ok: await verifyAgainstDummy(secret.slice(0, MAX_PASSWORD_INPUT)) };
  }
  const [user, policy] = await Promise.all([
    target.applicationScope.em.findOne(User, { poolId: target.poolId, emailNormalized: normalizeEmail(address) }),
    effectivePolicy(target.scope, 'lockout', target.policyTenantId),
  ]);
  if (user?.passwordHash == null) return { ok: await verifyAgainstDummy(secret) };
  const matches = await verifyPassword(user.passwordHash, secret);
  // A locked or suspended user is refused whatever the password, and the attempt is not counted.
  if (!maySignIn(user)) return { ok: false };
  if (!matches) {
    await recordFailedSignIn(target, user, policy);
    return { ok: false };
  }
  if (!(await recordSuccessfulSignIn(target, user))) return { ok: false };
  return { ok: true, user };
}

/** The tenants a user may sign in to (theirs), by name, for the tenant choice. */
export async function tenantsOf(target: SignInTarget, user: User): Promise<Tenant[]> {
  if (user.tenantIds.length === 0) return [];
  return target.applicationScope.em.find(Tenant, { id: { $in: user.tenantIds } }, { orderBy: { name: 'asc', id: 'asc' } });
}

/** An active user of the target's pool by id (a sign-in being completed, or the session's user). */
export async function activeUser(target: SignInTarget, userId: string): Promise<User | null> {
  if (!isUuid(userId)) return null;
  const user = await target.applicationScope.em.findOne(User, { id: userId, poolId: target.poolId });
  return user !== null && user.status === 'active' ? user : null;
}

export type TenantDecision =
  | { readonly kind: 'tenant'; readonly tenantId: string | null }
  | { readonly kind: 'choose'; readonly tenants: readonly Tenant[] }
  | { readonly kind: 'no_access' };

/**
 * The tenant of a sign-in, once the user is known: the one the client named (the user must belong to it), else,
 * in the shared pool, the user's only tenant, a choice among several, or none (an application-level sign-in for a
 * user of no tenant).
 */
export async function decideTenant(target: SignInTarget, user: User): Promise<TenantDecision> {
  if (target.tenant !== null) {
    return user.tenantIds.includes(target.tenant.id) ? { kind: 'tenant', tenantId: target.tenant.id } : { kind: 'no_access' };
  }
  // The only tenant needs no reading: a tenant's deletion removes it from its members in the same transaction.
  if (user.tenantIds.length <= 1) return { kind: 'tenant', tenantId: user.tenantIds[0] ?? null };
  return { kind: 'choose', tenants: await tenantsOf(target, user) };
}

/** What the effective auth providers allow of passwords on this surface. */
export interface PasswordMethod {
  readonly signIn: boolean;
  readonly signUp: boolean;
}

/**
 * Password sign-in and sign-up as the effective auth providers of the pool allow: an enabled `password` provider,
 * sign-up when its `allowSignup` (default true) says so. A pool with no provider configured at all (a new
 * application) has the built-in default, the password provider with its defaults, as Auth0's and Logto's new
 * applications do. In the shared pool a tenant named by the request joins by invitation or by an administrator,
 * never by signing up, so sign-up is offered only without a tenant (or for an isolated tenant's own pool).
 */
export async function passwordMethod(target: SignInTarget): Promise<PasswordMethod> {
  const { providers } = await effectiveAuthProviders(target.scope, target.policyTenantId);
  const opensMembership = target.tenant !== null && target.poolId === SHARED_POOL;
  if (providers.length === 0) return { signIn: true, signUp: !opensMembership };
  const password = providers.find((provider) => provider.type === 'password' && provider.enabled);
  if (password === undefined) return { signIn: false, signUp: false };
  return { signIn: true, signUp: password.config['allowSignup'] !== false && !opensMembership };
}
