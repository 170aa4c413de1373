import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import type { Services } from '../../services.ts';
import { POLICY_DEFAULTS, YEAR_MINUTES, type SessionPolicy } from '../policies/definitions.ts';
import { surfaceSettings } from './surface-settings.ts';

/**
 * How long what a sign-in leaves lives, by the session policy of the application or of the isolated tenant whose user
 * signed in: the browser session and each refresh token end once unused for `idleTimeoutMinutes`, and both end
 * `absoluteTimeoutMinutes` after the sign-in, however active. Each save of the browser session (every request that
 * uses it) and each rotation of a refresh token moves its end, never past the absolute one. Times in epoch seconds.
 *
 * One without an account (the device page's or the logout page's, kept for their forms' xsrf tokens) lives as long as
 * an interaction: those pages are open to anyone, and each visit without cookies makes one.
 */
export const INTERACTION_SECONDS = 3600;

/** The longest a policy lets a sign-in live: a grant lives this long, so that its refresh tokens end by their policy. */
export const LONGEST_SIGN_IN_SECONDS = YEAR_MINUTES * 60;

/** Seconds from `now` to the end of a sign-in at `signedInAt` under `policy`: its idle lifetime, capped by the absolute one. */
function remainingSeconds(policy: SessionPolicy, signedInAt: number, now: number): number {
  const absoluteEnd = signedInAt + policy.absoluteTimeoutMinutes * 60;
  // At least a second (the OP wants a positive lifetime): a save past the absolute end races its expiry, which wins.
  return Math.max(1, Math.min(policy.idleTimeoutMinutes * 60, absoluteEnd - now));
}

/**
 * The lifetime of a browser session at a save. `policy`: the one of the session's account, when the request read it;
 * a request that did not (a page of the OP that reads no account) keeps the session's end where it was.
 */
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

/**
 * The lifetime of a refresh token when it is issued (at the sign-in's code exchange, or at each rotation): its idle
 * lifetime, capped by the absolute end counted from the first token of the chain (`iiat`). Without the account's
 * policy (none read), the built-in default.
 */
export function refreshTokenSeconds(token: { iiat?: number | undefined }, policy: SessionPolicy | undefined, now: number): number {
  return remainingSeconds(policy ?? POLICY_DEFAULTS.session, token.iiat ?? now, now);
}

/**
 * The session policy of a user of `poolId` signing in through `client`: their isolated tenant's, else the application's
 * (a shared-pool user's sessions span its tenants), from the surface settings' cache.
 */
export async function poolSessionPolicy(
  services: Services,
  requestId: string,
  client: { clientId: string; applicationId: string },
  poolId: string,
): Promise<SessionPolicy> {
  const settings = await surfaceSettings(services, requestId, client, poolId === SHARED_POOL ? null : poolId);
  return settings?.session ?? POLICY_DEFAULTS.session;
}
