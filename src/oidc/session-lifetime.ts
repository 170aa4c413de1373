import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import { LONGEST_SIGN_IN_SECONDS, refreshTokenSeconds, sessionSeconds } from '../domain/sign-in/session.ts';

/**
 * The session policy applied to what an OP request saves (src/domain/sign-in/session.ts). oidc-provider asks for
 * lifetimes synchronously (`ttl`), so the policy is noted when findAccount reads the account, which every request does
 * before it saves a session, grant or refresh token.
 */
const noted = new WeakMap<KoaContextWithOIDC, SessionPolicy>();

export function noteSessionPolicy(ctx: KoaContextWithOIDC, policy: SessionPolicy): void {
  noted.set(ctx, policy);
}

export const sessionPolicyOf = (ctx: KoaContextWithOIDC | undefined): SessionPolicy | undefined => (ctx === undefined ? undefined : noted.get(ctx));

const epochNow = () => Math.floor(Date.now() / 1000);

/** `ttl.Session`. */
export const sessionTtl = (ctx: KoaContextWithOIDC, session: { accountId?: string; loginTs?: number; exp?: number }): number =>
  sessionSeconds(session, sessionPolicyOf(ctx), epochNow());

/** `ttl.RefreshToken`. */
export const refreshTokenTtl = (ctx: KoaContextWithOIDC | undefined, token: { iiat?: number }): number =>
  refreshTokenSeconds(token, sessionPolicyOf(ctx), epochNow());

/**
 * `ttl.Grant`: as long as the sign-in may last, so that its refresh tokens end by the policy, not by their grant. A
 * grant saved where no account was read (the hosted pages' consent) lives as long as any policy allows.
 */
export const grantTtl = (ctx: KoaContextWithOIDC | undefined): number => {
  const policy = sessionPolicyOf(ctx);
  return policy === undefined ? LONGEST_SIGN_IN_SECONDS : policy.absoluteTimeoutMinutes * 60;
};
