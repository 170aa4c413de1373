import type { KoaContextWithOIDC } from 'oidc-provider';
import { USE_TTL_KEY } from '../db/oidc-model.ts';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import { LONGEST_SIGN_IN_SECONDS, refreshTokenSeconds, sessionSeconds } from '../domain/sign-in/session.ts';

/** oidc-provider asks for lifetimes synchronously: the policy is noted when findAccount reads the account, before any save. */
const noted = new WeakMap<KoaContextWithOIDC, SessionPolicy>();

export function noteSessionPolicy(ctx: KoaContextWithOIDC, policy: SessionPolicy): void {
  noted.set(ctx, policy);
}

export const sessionPolicyOf = (ctx: KoaContextWithOIDC | undefined): SessionPolicy | undefined => (ctx === undefined ? undefined : noted.get(ctx));

const epochNow = () => Math.floor(Date.now() / 1000);

/** When the session was last used (epoch seconds): its end less the lifetime that use gave it. Unknown for one saved
 *  before uses were kept. */
export function sessionUsedAt(session: { exp?: number | undefined }): number | undefined {
  const ttl = (session as Record<string, unknown>)[USE_TTL_KEY];
  return typeof ttl === 'number' && session.exp !== undefined ? session.exp - ttl : undefined;
}

/** A save with the policy read counts the session's end from now, so it is a use: the next one is judged from it
 *  (account.ts); a save without (the logout page) keeps its end, and so its last use. */
export function sessionTtl(ctx: KoaContextWithOIDC, session: { accountId?: string; loginTs?: number; exp?: number }): number {
  const policy = sessionPolicyOf(ctx);
  const ttl = sessionSeconds(session, policy, epochNow());
  if (policy !== undefined && session.accountId !== undefined) (session as Record<string, unknown>)[USE_TTL_KEY] = ttl;
  return ttl;
}

export const refreshTokenTtl = (ctx: KoaContextWithOIDC | undefined, token: { iiat?: number }): number =>
  refreshTokenSeconds(token, sessionPolicyOf(ctx), epochNow());

/** As long as the sign-in may last, so refresh tokens end by the policy; with no account read, the longest. */
export const grantTtl = (ctx: KoaContextWithOIDC | undefined): number => {
  const policy = sessionPolicyOf(ctx);
  return policy === undefined ? LONGEST_SIGN_IN_SECONDS : policy.absoluteTimeoutMinutes * 60;
};
