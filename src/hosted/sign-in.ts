import { verifyAgainstDummy, verifyPassword } from '../auth/password-hash.ts';
import { endUserScope, type Scope } from '../context.ts';
import { Tenant } from '../db/entities/index.ts';
import { mayActNow, readSignInUser, type SignInUser } from '../domain/users/sign-in-user.ts';
import { normalizeEmail } from '../domain/users/email-key.ts';
import { email as emailAddress } from '../domain/validate.ts';
import { GatehouseError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { noteRequest } from '../log.ts';
import type { GatehouseClientData } from '../oidc/clients.ts';
import type { Services } from '../services.ts';
import { addressStanding, recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted } from './lockout.ts';
import type { PageLook } from './pages.ts';
import { surfaceSettings, type SurfaceSettings } from './surface-settings.ts';

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

/**
 * A refusal of the authorization request's tenant (its `tenant` parameter, or its absence) that the OP answers at the
 * redirect URI as `invalid_request` with `description` (src/oidc/provider.ts), before any page: client and redirect
 * URI are verified by then. `description` travels through the browser to the client: it says what is wrong with the
 * request and nothing the request did not tell (no tenant's name, nothing of a user). The page (`message`) is for
 * what reaches the pages anyway (a surface's path or domain: src/hosted/surface-gate.ts).
 */
export class TenantRequestError extends HostedPageError {
  readonly description: string;

  constructor(message: string, description: string) {
    super(400, message);
    this.name = 'TenantRequestError';
    this.description = description;
  }
}

/** The `tenant` parameter names no tenant of the client's application (an unknown id or slug, another application's). */
export class UnknownTenantError extends TenantRequestError {
  constructor() {
    super(UNKNOWN_TENANT, 'the tenant parameter names no tenant of this application');
    this.name = 'UnknownTenantError';
  }
}

/**
 * A tenant-bound client's request names another tenant, of the application or none: one answer for both, so that it
 * does not tell which of the names it tries are the application's tenants.
 */
export class BoundClientTenantError extends TenantRequestError {
  constructor() {
    super('This application cannot sign in to that organization.', 'the tenant parameter names another tenant than this client signs in to');
    this.name = 'BoundClientTenantError';
  }
}

/** An `isolated` application's request names no tenant: each tenant has its own sign-in, so one must be named. */
export class TenantRequiredError extends TenantRequestError {
  constructor() {
    super(
      'Each organization of this application has its own sign-in: the sign-in request must name one.',
      'this application signs in to one of its tenants: the tenant parameter is required',
    );
    this.name = 'TenantRequiredError';
  }
}

export interface SignInTarget extends SurfaceSettings {
  readonly clientId: string;
  /** The end user's scope, narrowed to `tenant` when there is one. */
  readonly scope: Scope;
  /** The same application, no tenant: users of the whole pool and the tenants they belong to. */
  readonly applicationScope: Scope;
}

/** The longest e-mail (RFC 5321 path) and password worth an Argon2 verification; longer ones fail as wrong. */
const MAX_EMAIL_LENGTH = 320;
const MAX_PASSWORD_INPUT = 1024;

/**
 * The application, tenant and pool of a sign-in for an OAuth client, with its surface's settings. `tenantParam` is
 * the authorization request's `tenant` (a tenant id or slug). A tenant-bound client signs in to its own tenant only;
 * with `authIsolation` = `isolated` a tenant is required, since each tenant is its own sign-in surface with its own
 * pool and policies.
 */
export async function resolveTarget(
  services: Services,
  requestId: string,
  client: { clientId: string; data: GatehouseClientData },
  tenantParam: unknown,
): Promise<SignInTarget> {
  const { clientId, data } = client;
  const { applicationId } = data;
  if (tenantParam !== undefined && tenantParam !== '' && typeof tenantParam !== 'string') {
    throw new HostedPageError(400, 'The sign-in request names its organization in an unreadable form.');
  }
  const named = typeof tenantParam === 'string' && tenantParam !== '' ? tenantParam : null;
  const settings = await surfaceSettings(services, requestId, { clientId, applicationId }, named ?? data.tenantId);
  if (settings === undefined) {
    if (named !== null) throw data.tenantId === null ? new UnknownTenantError() : new BoundClientTenantError();
    throw new HostedPageError(400, 'The application’s organization no longer exists.');
  }
  const { application, tenant } = settings;
  if (data.tenantId !== null && tenant?.id !== data.tenantId) throw new BoundClientTenantError();
  if (application.multiTenant && application.authIsolation === 'isolated' && tenant === null) throw new TenantRequiredError();
  const applicationScope = endUserScope(services, requestId, { clientId, applicationId, tenantId: null });
  const scope = tenant === null ? applicationScope : endUserScope(services, requestId, { clientId, applicationId, tenantId: tenant.id });
  return { ...settings, clientId, scope, applicationScope };
}

/**
 * The e-mail address a request's `login_hint` suggests (OIDC Core 3.1.2.1), to prefill the e-mail field: only an
 * address an account could have (the users' e-mail rule: at most 254 characters, no control or invisible character),
 * trimmed. Any other hint (a subject id, a phone number, markup) is ignored rather than shown.
 */
export function hintedEmail(loginHint: unknown): string | undefined {
  if (typeof loginHint !== 'string') return undefined;
  try {
    return emailAddress('login_hint', loginHint);
  } catch (error) {
    if (error instanceof GatehouseError) return undefined;
    throw error;
  }
}

/**
 * A proven password: `user` as the e-mail found them, on which the sign-in's tenant is decided (decideTenant), and
 * `verified`, the same user with the tenants the row holds once the password is verified, for the completion to check
 * the decided tenant against (interactionResult): one lost meanwhile refuses the sign-in, as at the tenant choice, and
 * does not make it another one (no tenant, or a choice).
 */
export type CredentialCheck = { ok: true; user: SignInUser; verified: SignInUser } | { ok: false };

/**
 * Whether `email` and `password`, sent from the client address `address`, prove a user of the target's pool who may
 * sign in from there. Exactly one Argon2id verification happens whatever the outcome (an unknown e-mail, or a user
 * without a password, is verified against a dummy hash), and every refusal is the same `{ ok: false }`, so neither the
 * answer nor its timing tells whether the e-mail exists, the password was right for a locked or suspended user or from
 * a locked-out or waiting address, or the attempt just locked something. Failed attempts on a known user count towards
 * the lockout policy of the user's pool, per account and address; a refusal that counts nothing takes as long as
 * counting would (refuseUncounted).
 */
export async function verifyCredentials(target: SignInTarget, email: unknown, password: unknown, address: string): Promise<CredentialCheck> {
  const login = typeof email === 'string' ? email.trim() : '';
  const secret = typeof password === 'string' ? password : '';
  // No stored address holds a NUL (PostgreSQL cannot), so one that does is unknown: not looked up (it would fail).
  if (login === '' || login.length > MAX_EMAIL_LENGTH || login.includes('\0') || secret === '' || secret.length > MAX_PASSWORD_INPUT) {
    await verifyAgainstDummy(secret.slice(0, MAX_PASSWORD_INPUT));
    return refuseUncounted(target);
  }
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized: normalizeEmail(login) });
  if (user?.passwordHash == null) {
    await verifyAgainstDummy(secret);
    return refuseUncounted(target);
  }
  // The address's standing is read while the password is verified: the verification runs all the same, for its time.
  const [matches, standing] = await Promise.all([verifyPassword(user.passwordHash, secret), addressStanding(target, user, address)]);
  // A locked or suspended user, or an address locked out or made to wait, is refused whatever the password, uncounted.
  if (!mayActNow(user) || standing !== 'open') {
    noteRequest({ refusal: standing === 'open' ? `user_${user.status}` : `address_${standing}` });
    return refuseUncounted(target);
  }
  if (!matches) {
    await recordFailedSignIn(target, user, target.lockout, address);
    return { ok: false };
  }
  const tenantIds = await recordSuccessfulSignIn(target, user, address);
  if (tenantIds === null) return { ok: false };
  return { ok: true, user, verified: { ...user, tenantIds } };
}

/** The tenants a user may sign in to (theirs), by name, for the tenant choice. */
export async function tenantsOf(target: SignInTarget, user: SignInUser): Promise<Tenant[]> {
  if (user.tenantIds.length === 0) return [];
  return target.applicationScope.em.find(Tenant, { id: { $in: [...user.tenantIds] } }, { orderBy: { name: 'asc', id: 'asc' } });
}

/** An active user of the target's pool by id (a sign-in being completed, or the session's user). */
export async function activeUser(target: SignInTarget, userId: string): Promise<SignInUser | null> {
  if (!isUuid(userId)) return null;
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { id: userId, poolId: target.poolId });
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
export async function decideTenant(target: SignInTarget, user: SignInUser): Promise<TenantDecision> {
  if (target.tenant !== null) {
    return user.tenantIds.includes(target.tenant.id) ? { kind: 'tenant', tenantId: target.tenant.id } : { kind: 'no_access' };
  }
  // The only tenant needs no reading: a tenant's deletion removes it from its members in the same transaction.
  if (user.tenantIds.length <= 1) return { kind: 'tenant', tenantId: user.tenantIds[0] ?? null };
  return { kind: 'choose', tenants: await tenantsOf(target, user) };
}

/** The session's user as a sign-in can use them (sessionSignIn), with the tenant decided for them. */
export interface SessionSignIn {
  readonly user: SignInUser;
  /** Undefined: the session's grant for the client stands, and its tenant with it. */
  readonly decision: Exclude<TenantDecision, { kind: 'no_access' }> | undefined;
}

/**
 * Whether the browser session's account can go on without the sign-in form, the hosted pages' consent step and a
 * silent request (prompt=none) alike: an active user of the target's pool, and the tenant decided for them unless the
 * session's grant for the client stands (`grantStands`). Null when the form must be shown: no such active user, or
 * no access to the tenant asked for.
 */
export async function sessionSignIn(target: SignInTarget, accountId: string | undefined, grantStands: boolean): Promise<SessionSignIn | null> {
  const user = accountId === undefined ? null : await activeUser(target, accountId);
  if (user === null) return null;
  if (grantStands) return { user, decision: undefined };
  const decision = await decideTenant(target, user);
  return decision.kind === 'no_access' ? null : { user, decision };
}
