import { verifyAgainstDummy, verifyPassword } from '../../auth/password-hash.ts';
import { endUserScope, type PageOpener, type Scope } from '../../context.ts';
import { Tenant } from '../../db/entities/index.ts';
import type { AuthProviderType } from '../../db/entities/auth-provider.entity.ts';
import type { HeldFactor, SecondProof } from '../mfa/factors.ts';
import type { StepBudget } from '../mfa/second-step.ts';
import { mayActNow, passwordMark, readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { email as emailAddress } from '../validate.ts';
import { GatehouseError } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import type { GatehouseClientData } from '../oauth-clients/client-data.ts';
import type { Surface } from '../domains/surfaces.ts';
import { SignInRefusal } from './refusals.ts';
import type { DomainServices } from '../../services.ts';
import { recordSignIn, type SignInAttempt, type SignInFailureReason } from '../audit/auth-events.ts';
import { noteRequest } from '../../observability/log.ts';
import { readSignInCandidate, recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted, standingReason } from './lockout.ts';
import { surfaceLook, surfaceSettings, type SurfaceSettings } from './surface-settings.ts';
import { MAX_PASSWORD_INPUT } from '../policies/password.ts';
import { revokedTenants, type BrowserSession } from '../sessions/revoked-sign-ins.ts';

/** The rules of the hosted sign-in, apart from HTTP: no Fastify or oidc-provider types in here. */

export interface PageTarget<Opener extends PageOpener = PageOpener> extends SurfaceSettings {
  readonly opener: Opener;
  readonly scope: Scope;
  /** No tenant: users of the whole pool and the tenants they belong to. */
  readonly applicationScope: Scope;
}

export type SignInTarget = PageTarget<Extract<PageOpener, { type: 'oauth_client' }>>;

export type InvitationTarget = PageTarget<Extract<PageOpener, { type: 'invitation' }>>;

/** The longest e-mail (RFC 5321 path) and password (MAX_PASSWORD_INPUT) worth an Argon2 verification; longer ones fail as wrong. */
const MAX_EMAIL_LENGTH = 320;

/** A tenant-bound client signs in to its own tenant only; `isolated` requires a tenant (its own surface, pool, policies). */
export async function resolveTarget(
  services: DomainServices,
  requestId: string,
  client: { clientId: string; data: GatehouseClientData },
  tenantParam: unknown,
): Promise<SignInTarget> {
  const { clientId, data } = client;
  const { applicationId } = data;
  if (tenantParam !== undefined && tenantParam !== '' && typeof tenantParam !== 'string') {
    throw new SignInRefusal('unreadable_tenant');
  }
  const named = typeof tenantParam === 'string' && tenantParam !== '' ? tenantParam : null;
  // The client's application is known, its tenant here not: in the application's look, never a tenant's it may not be of.
  const refusedInApplicationLook = async (reason: 'bound_client_tenant' | 'client_tenant_gone') =>
    new SignInRefusal(reason, await surfaceLook(services, requestId, applicationId, null));
  const settings = await surfaceSettings(services, requestId, applicationId, named ?? data.tenantId);
  if (settings === undefined) {
    if (named === null) throw await refusedInApplicationLook('client_tenant_gone');
    throw data.tenantId === null ? new SignInRefusal('unknown_tenant') : await refusedInApplicationLook('bound_client_tenant');
  }
  const { application, tenant } = settings;
  noteRequest({ applicationId, ...(tenant === null ? {} : { tenantId: tenant.id }) });
  if (data.tenantId !== null && tenant?.id !== data.tenantId) throw await refusedInApplicationLook('bound_client_tenant');
  // The application's own surface: its look is the application's.
  if (application.multiTenant && application.authIsolation === 'isolated' && tenant === null) throw new SignInRefusal('tenant_required', settings.look);
  const opener = { type: 'oauth_client', id: clientId } as const;
  const applicationScope = endUserScope(services, requestId, { opener, applicationId, tenantId: null });
  const scope = tenant === null ? applicationScope : endUserScope(services, requestId, { opener, applicationId, tenantId: tenant.id });
  return { ...settings, opener, scope, applicationScope };
}

/** The one decision every adapter asks, throwing a SignInRefusal when it may not. A surface that fixes the tenant signs in
 *  to that tenant only, any other to the one the request names; `open: 'skip'` answers undefined for the latter. */
export async function admitSignIn(
  services: DomainServices,
  requestId: string,
  surface: Surface,
  client: { clientId: string; data: GatehouseClientData },
  named: readonly string[],
  { open = 'resolve' }: { open?: 'resolve' | 'skip' } = {},
): Promise<SignInTarget | undefined> {
  const decided = await services.surfaces.tenantFor(surface, client.data.applicationId);
  if (decided.kind === 'closed') throw new SignInRefusal('unknown_tenant');
  if (decided.kind === 'open') return open === 'skip' ? undefined : resolveTarget(services, requestId, client, named[0]);
  const target = await resolveTarget(services, requestId, client, decided.tenantId);
  for (const name of named) {
    if (name !== '' && name !== decided.tenantId && (await services.surfaces.findTenantId(client.data.applicationId, name)) !== decided.tenantId) {
      throw new SignInRefusal('surface_tenant_mismatch', target.look);
    }
  }
  return target;
}

/** From `login_hint` (OIDC Core 3.1.2.1): only an address an account could have, trimmed; other hints are ignored, not shown. */
export function hintedEmail(loginHint: unknown): string | undefined {
  if (typeof loginHint !== 'string') return undefined;
  try {
    return emailAddress('login_hint', loginHint);
  } catch (error) {
    if (error instanceof GatehouseError) return undefined;
    throw error;
  }
}

/** A sign-in the pages completed, as the OP records it in the grant (src/oidc/interactions.ts). */
export interface SignIn {
  readonly userId: string;
  /** Null: an application-level sign-in. */
  readonly tenantId: string | null;
  /** The user as the caller just checked it (spares a read); without it the user is read again and must be active. */
  readonly verified?: SignInUser;
  /** RFC 8176 `amr` values; none when no credential was checked (the session's user). */
  readonly amr?: readonly string[];
  readonly methods?: readonly SignInMethod[];
  /** Proven by the password: its passwordMark. */
  readonly password?: string | undefined;
  /** The MFA step's attempts this first factor's proof has (src/domain/mfa/second-step.ts). */
  readonly step?: StepBudget | undefined;
  /** When the first factor was proven (epoch seconds), where not in this sign-in: a session's step-up proves only the
   *  second, and its session's sign-in time (auth_time, the absolute end) stays. */
  readonly signedInAt?: number | undefined;
  /** When the MFA policy judged this sign-in (epoch ms): set where the step was passed or was not due. */
  readonly mfaCheckedAt?: number | undefined;
  /** The user's signInsEnded when the first factor was proven: sealed with a step's proof (stillProven). */
  readonly ended?: number | undefined;
  /** Posted from the switch page: the user confirmed that the client's sign-in to the session's other tenant ends
   *  (TenantSwitchUnconfirmed). */
  readonly switchConfirmed?: true;
  /** A credential or the MFA step proven in this interaction, a form the user posted: it may end the client's sign-in to
   *  another tenant as the switch page's POST does. A session's step-up spared by a remembered browser proves none. */
  readonly provenHere?: true;
}

/** As sessions list it: the first factor as the type of the auth provider offering it (an e-mailed code is `magic_link`'s),
 *  then the second step's factor. */
export type SignInMethod = Extract<AuthProviderType, 'password' | 'magic_link' | 'oauth' | 'passkey' | 'saml'> | SecondProof;

export interface Proof {
  readonly amr: readonly string[];
  readonly methods: readonly SignInMethod[];
  /** The password's passwordMark, when it is what was proven. */
  readonly password?: string | undefined;
  /** The MFA step's attempts this proof has; none in a proof sealed before they were counted. */
  readonly step?: StepBudget | undefined;
  /** As SignIn's. */
  readonly signedInAt?: number | undefined;
}

/** A proof as a step seals it, with the user's signInsEnded when its first factor was proven. */
export interface SealedProof extends Proof {
  readonly ended: number;
}

/** A sign-in whose steps (the MFA step, an expired password's change) are still to come: they seal it. */
export type ProvenSignIn = SignIn & Pick<SealedProof, 'ended'>;

/** While none of the user's sign-ins were ended since, and a password's proof while that password is theirs. A proof
 *  sealed before the count existed has none: 0. */
export const stillProven = (user: Pick<SignInUser, 'passwordHash' | 'signInsEnded'>, proof: Pick<SealedProof, 'password'> & Partial<Pick<SealedProof, 'ended'>>): boolean =>
  (proof.ended ?? 0) === user.signInsEnded && (proof.password === undefined || passwordMark(user) === proof.password);

/** `factors`: read with the user; `unverified`: a password set on a never-proven address (an e-mail proof refuses it). */
export type CredentialCheck =
  | { ok: true; user: SignInUser; verified: SignInUser; factors?: readonly HeldFactor[]; record: FactorRecord }
  | { ok: false; unverified?: true };

/** One Argon2id verification whatever the outcome (a dummy hash for an unknown e-mail) and one `{ ok: false }` for every
 *  refusal, so neither answer nor timing tells whether the e-mail exists or what was locked (refuseUncounted); `unverified`
 *  only once the password is proven (the policy requires a verified address). */
export async function verifyCredentials(target: SignInTarget, email: unknown, password: unknown, address: string, rpId: string): Promise<CredentialCheck> {
  const checked = await checkCredentials(target, email, password, address, rpId);
  const unverified = checked.ok && target.password.requireVerification && checked.verified.emailVerified === false;
  if (checked.ok && !unverified) return checked;
  // Every refusal writes its record alike (src/domain/audit/auth-events.ts), after the refusal's own timing.
  const refusal = checked.ok ? { reason: 'email_unverified' as const, user: checked.verified } : checked;
  await recordAttempt(target, { method: 'password', outcome: { ok: false, reason: refusal.reason, user: refusal.user, email: typeof email === 'string' ? email.trim() : null } });
  return unverified ? { ok: false, unverified } : { ok: false };
}

export type FactorRecord = Pick<SignInAttempt, 'method' | 'amr' | 'upstream' | 'providerId'>;

export const PASSWORD_RECORD: FactorRecord = { method: 'password' };

/** Counted in the tenant the sign-in was decided for (`tenantId`, a tenant choice's included), else the surface's, else
 *  the user's only one (in another tenant's log the user is an unknown address: recordSignIn). */
export function recordAttempt(
  target: SignInTarget,
  { tenantId, ...attempt }: Pick<SignInAttempt, 'method' | 'amr' | 'upstream' | 'providerId' | 'outcome'> & { readonly tenantId?: string | null },
): Promise<void> {
  return recordSignIn(target.scope.services, {
    applicationId: target.application.id,
    tenantId: tenantId === undefined ? attemptTenant(target.tenant?.id ?? null, attempt.outcome.user) : tenantId,
    clientId: target.opener.id,
    requestId: target.scope.requestId,
    ...attempt,
  });
}

/** A proven first factor, recorded where the pages decide whether the MFA step follows: the sign-in when none does, else
 *  the factor alone, which the step's own record completes (src/domain/mfa/second-step.ts). Each method's check records
 *  its refusals itself and hands a proof back as a FactorRecord for this. `tenantId`: the tenant decided for the sign-in
 *  (a user of several tenants chooses after the factor), in which the step's record counts too. */
export const recordProven = (target: SignInTarget, user: SignInUser, record: FactorRecord, stepFollows: boolean, tenantId?: string | null): Promise<void> =>
  recordAttempt(target, { ...record, tenantId, outcome: { ok: true, user, stepFollows } });

export const attemptTenant = (surfaceTenantId: string | null, user: Pick<SignInUser, 'tenantIds'> | null): string | null =>
  surfaceTenantId ?? (user?.tenantIds.length === 1 ? user.tenantIds[0]! : null);

/** Why a refusal was one, and of which user, for the audit record alone. */
export type CheckedCredentials = Extract<CredentialCheck, { ok: true }> | { ok: false; reason: SignInFailureReason; user: SignInUser | null };

/** verifyCredentials without its record, for a check that is no sign-in (an invitation's: invitations/proof.ts). */
export async function checkCredentials(target: PageTarget, email: unknown, password: unknown, address: string, rpId: string): Promise<CheckedCredentials> {
  const login = typeof email === 'string' ? email.trim() : '';
  const secret = typeof password === 'string' ? password : '';
  const refused = async (reason: SignInFailureReason, user: SignInUser | null): Promise<CheckedCredentials> => (await refuseUncounted(target), { ok: false, reason, user });
  // No stored address holds a NUL (PostgreSQL cannot), so one that does is unknown: not looked up (it would fail).
  if (login === '' || login.length > MAX_EMAIL_LENGTH || login.includes('\0') || secret === '' || secret.length > MAX_PASSWORD_INPUT) {
    await verifyAgainstDummy(secret.slice(0, MAX_PASSWORD_INPUT));
    return refused('invalid_input', null);
  }
  const candidate = await readSignInCandidate(target, normalizeEmail(login), address, rpId);
  if (candidate?.user.passwordHash == null) {
    await verifyAgainstDummy(secret);
    return refused(candidate === null ? 'unknown_user' : 'no_password', candidate?.user ?? null);
  }
  // The password is verified whatever the address's standing, for its time.
  const matches = await verifyPassword(candidate.user.passwordHash, secret);
  const { user, standing } = candidate;
  // A locked or suspended user, or an address locked out or made to wait, is refused whatever the password, uncounted.
  if (!mayActNow(user)) {
    noteRequest({ refusal: `user_${user.status}` });
    return refused('user_inactive', user);
  }
  if (standing !== 'open') {
    noteRequest({ refusal: `address_${standing}` });
    return refused(standingReason(standing), user);
  }
  if (!matches) {
    await recordFailedSignIn(target, user, target.lockout, address);
    return { ok: false, reason: 'wrong_password', user };
  }
  const tenantIds = await recordSuccessfulSignIn(target, user, address);
  // Locked, suspended or locked out meanwhile (see recordSuccessfulSignIn).
  if (tenantIds === null) return { ok: false, reason: 'user_inactive', user };
  return { ok: true, user, verified: { ...user, tenantIds }, factors: candidate.factors, record: PASSWORD_RECORD };
}

export async function tenantsOf(target: SignInTarget, user: SignInUser): Promise<Tenant[]> {
  if (user.tenantIds.length === 0) return [];
  return target.applicationScope.em.find(Tenant, { id: { $in: [...user.tenantIds] } }, { orderBy: { name: 'asc', id: 'asc' } });
}

/** Null unless the user may act now (mayActNow, as the OP's findAccount): a lock that has run out holds nobody out. */
export async function activeUser(target: SignInTarget, userId: string): Promise<SignInUser | null> {
  if (!isUuid(userId)) return null;
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { id: userId, poolId: target.poolId });
  return user !== null && mayActNow(user) ? user : null;
}

/** An active session's page says "suspended", not "signed out". */
export async function suspended(target: SignInTarget, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { id: userId, poolId: target.poolId });
  return user?.status === 'suspended';
}

export type TenantDecision =
  | { readonly kind: 'tenant'; readonly tenantId: string | null }
  | { readonly kind: 'choose'; readonly tenants: readonly Tenant[] }
  | { readonly kind: 'no_access' };

export async function decideTenant(target: SignInTarget, user: SignInUser): Promise<TenantDecision> {
  if (target.tenant !== null) {
    return user.tenantIds.includes(target.tenant.id) ? { kind: 'tenant', tenantId: target.tenant.id } : { kind: 'no_access' };
  }
  // The only tenant needs no reading: a tenant's deletion removes it from its members in the same transaction.
  if (user.tenantIds.length <= 1) return { kind: 'tenant', tenantId: user.tenantIds[0] ?? null };
  return { kind: 'choose', tenants: await tenantsOf(target, user) };
}

export interface SessionSignIn {
  readonly user: SignInUser;
  /** Undefined: the session's grant for the client stands, and its tenant with it. */
  readonly decision: Exclude<TenantDecision, { kind: 'no_access' }> | undefined;
}

/** Whether the session's account goes on without the form (consent step and prompt=none alike); null: show the form. */
export async function sessionSignIn(target: SignInTarget, accountId: string | undefined, grantStands: boolean): Promise<SessionSignIn | null> {
  const user = accountId === undefined ? null : await activeUser(target, accountId);
  if (user === null) return null;
  if (grantStands) return { user, decision: undefined };
  const decision = await decideTenant(target, user);
  return decision.kind === 'no_access' ? null : { user, decision };
}

/** Would the session's account, with no grant kept, go on without the form (sessionSignIn) to a tenant the session revoked? */
export async function signsInToRevokedTenant(target: SignInTarget, accountId: string, revoked: ReadonlySet<string>): Promise<boolean> {
  const user = await activeUser(target, accountId);
  if (user === null) return false;
  const decision = await decideTenant(target, user);
  if (decision.kind === 'tenant') return decision.tenantId !== null && revoked.has(decision.tenantId);
  return decision.kind === 'choose' && decision.tenants.some((tenant) => revoked.has(tenant.id));
}

/** Whether only a credential signs the session's account in to the target's tenant again (as authorize asks: oidc/policies.ts). */
export async function revokedSignIn(target: SignInTarget, session: BrowserSession): Promise<boolean> {
  const revoked = await revokedTenants(target.applicationScope.em, session);
  return revoked.size > 0 && signsInToRevokedTenant(target, session.userId, revoked);
}
