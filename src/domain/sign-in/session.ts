import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { DomainServices } from '../../services.ts';
import { POLICY_DEFAULTS, YEAR_MINUTES, type SessionPolicy } from '../policies/definitions.ts';
import type { PoolMfaPolicy } from '../mfa/requirement.ts';
import { surfaceSettings, surfacesSessionPolicies } from './surface-settings.ts';

/** By the session policy: the browser session and each refresh token end `idleTimeoutMinutes` unused, both at the latest
 *  `absoluteTimeoutMinutes` after sign-in (epoch seconds). Without an account, as long as an interaction (pages open to all). */
export const INTERACTION_SECONDS = 3600;

/** An interaction's address still names its client this long once over, so Back, an old tab or a bookmark leads to it. */
export const SPENT_INTERACTION_SECONDS = 7 * 24 * 3600;

/** A grant lives this long, so that its refresh tokens end by their policy. */
export const LONGEST_SIGN_IN_SECONDS = YEAR_MINUTES * 60;

function remainingSeconds(policy: SessionPolicy, signedInAt: number, now: number): number {
  const absoluteEnd = signedInAt + policy.absoluteTimeoutMinutes * 60;
  // At least a second (the OP wants a positive lifetime): a save past the absolute end races its expiry, which wins.
  return Math.max(1, Math.min(policy.idleTimeoutMinutes * 60, absoluteEnd - now));
}

/**
 * Whether the policy as it is now has ended a sign-in made at `startedAt` (epoch seconds), last used at `lastUsedAt` when
 * known: checked at each use, as a policy made stricter meets sessions and tokens saved under the looser one, and a
 * save past the end still stores a second of life.
 */
export function signInEnded(policy: SessionPolicy, startedAt: number, lastUsedAt: number | undefined, now: number): boolean {
  return now >= signInEnd(policy, startedAt, lastUsedAt);
}

/** The policy's absolute and idle lifetimes, in seconds. */
const lifetimes = (policy: SessionPolicy) => ({ absoluteSeconds: policy.absoluteTimeoutMinutes * 60, idleSeconds: policy.idleTimeoutMinutes * 60 });

/** When the policy as it is now ends that sign-in (epoch seconds): the absolute end, or the idle one when sooner. */
export function signInEnd(policy: SessionPolicy, startedAt: number, lastUsedAt: number | undefined): number {
  const { absoluteSeconds, idleSeconds } = lifetimes(policy);
  return lastUsedAt === undefined ? startedAt + absoluteSeconds : Math.min(startedAt + absoluteSeconds, lastUsedAt + idleSeconds);
}

/** The policy as it is now stands only the sign-ins made after `signedInAfter` and, when their last use is known, used
 *  after `usedAfter` (epoch seconds): signInEnd in reverse. With the lifetimes, for SQL's signInEnd (grant-sign-ins.ts). */
export function standingSignInsSince(
  policy: SessionPolicy,
  now: number,
): { readonly signedInAfter: number; readonly usedAfter: number; readonly absoluteSeconds: number; readonly idleSeconds: number } {
  const { absoluteSeconds, idleSeconds } = lifetimes(policy);
  return { signedInAfter: now - absoluteSeconds, usedAfter: now - idleSeconds, absoluteSeconds, idleSeconds };
}

/** `policy` undefined (a request that read no account) keeps the session's end where it was. */
export function sessionSeconds(
  session: { accountId?: string | undefined; loginTs?: number | undefined; exp?: number | undefined },
  policy: SessionPolicy | undefined,
  now: number,
): number {
  if (session.accountId === undefined) return INTERACTION_SECONDS;
  if (policy !== undefined) return remainingSeconds(policy, session.loginTs ?? now, now);
  if (session.exp !== undefined) return Math.max(1, session.exp - now);
  return remainingSeconds(POLICY_DEFAULTS.session, session.loginTs ?? now, now);
}

/** Capped by the absolute end counted from the chain's first token (`iiat`); without a policy, the built-in default. */
export function refreshTokenSeconds(token: { iiat?: number | undefined }, policy: SessionPolicy | undefined, now: number): number {
  return remainingSeconds(policy ?? POLICY_DEFAULTS.session, token.iiat ?? now, now);
}

/** A pool's surface: the isolated tenant's, else the application's. */
const poolSurface = (poolId: string): string | null => (poolId === SHARED_POOL ? null : poolId);

const poolSettings = (services: DomainServices, requestId: string, applicationId: string, poolId: string) =>
  surfaceSettings(services, requestId, applicationId, poolSurface(poolId));

/** The isolated tenant's, else the application's: a shared-pool user's sessions span its tenants. */
export async function poolSessionPolicy(services: DomainServices, requestId: string, applicationId: string, poolId: string): Promise<SessionPolicy> {
  return (await poolSettings(services, requestId, applicationId, poolId))?.session ?? POLICY_DEFAULTS.session;
}

/** poolSessionPolicy of each of `poolIds`, in a constant number of statements whatever their number. */
export async function poolSessionPolicies(services: DomainServices, requestId: string, applicationId: string, poolIds: readonly string[]): Promise<Map<string, SessionPolicy>> {
  const policies = await surfacesSessionPolicies(services, requestId, applicationId, poolIds.map(poolSurface));
  return new Map(poolIds.map((poolId) => [poolId, policies.get(poolSurface(poolId)) ?? POLICY_DEFAULTS.session]));
}

/** As poolSessionPolicy. */
export async function poolMfaPolicy(services: DomainServices, requestId: string, applicationId: string, poolId: string): Promise<PoolMfaPolicy> {
  const settings = await poolSettings(services, requestId, applicationId, poolId);
  return settings === undefined ? { policy: POLICY_DEFAULTS.mfa, changedAt: null } : { policy: settings.mfa, changedAt: settings.mfaChangedAt };
}
