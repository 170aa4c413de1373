import type { KoaContextWithOIDC } from 'oidc-provider';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import { LONGEST_SIGN_IN_SECONDS, refreshTokenSeconds, sessionSeconds } from '../domain/sign-in/session.ts';

/** oidc-provider asks for lifetimes synchronously: the policy is noted when findAccount reads the account, before any save. */
const noted = new WeakMap<KoaContextWithOIDC, SessionPolicy>();

export function noteSessionPolicy(ctx: KoaContextWithOIDC, policy: SessionPolicy): void {
  noted.set(ctx, policy);
}

export const sessionPolicyOf = (ctx: KoaContextWithOIDC | undefined): SessionPolicy | undefined => (ctx === undefined ? undefined : noted.get(ctx));

const epochNow = () => Math.floor(Date.now() / 1000);

export const sessionTtl = (ctx: KoaContextWithOIDC, session: { accountId?: string; loginTs?: number; exp?: number }): number =>
  sessionSeconds(session, sessionPolicyOf(ctx), epochNow());

export const refreshTokenTtl = (ctx: KoaContextWithOIDC | undefined, token: { iiat?: number }): number =>
  refreshTokenSeconds(token, sessionPolicyOf(ctx), epochNow());

/** As long as the sign-in may last, so refresh tokens end by the policy; with no account read, the longest. */
export const grantTtl = (ctx: KoaContextWithOIDC | undefined): number => {
  const policy = sessionPolicyOf(ctx);
  return policy === undefined ? LONGEST_SIGN_IN_SECONDS : policy.absoluteTimeoutMinutes * 60;
};
