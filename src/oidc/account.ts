import type { Account, KoaContextWithOIDC } from 'oidc-provider';
import { tokenStands, type Surface } from '../domain/domains/surfaces.ts';
import { signInClaims } from '../domain/authorization/token-claims.ts';
import { mayActNow, readSignInUser } from '../domain/users/sign-in-user.ts';
import { isUuid } from '../ids.ts';
import { grantTenant } from './grant-tenant.ts';
import { opRequestId } from './op-request-id.ts';
import { gatehouseData } from './clients.ts';
import type { OidcDependencies } from './configuration.ts';
import { refusingOverload } from './overload.ts';
import { noteSessionPolicy, sessionUsedAt } from './session-lifetime.ts';
import { signInEnded } from '../domain/sign-in/session.ts';
import type { SessionPolicy } from '../domain/policies/definitions.ts';
import type { PoolMfaPolicy } from '../domain/mfa/requirement.ts';
import { madeOnce } from '../made-once.ts';

const sessionMfaPolicies = new WeakMap<KoaContextWithOIDC, PoolMfaPolicy>();

/** The MFA policy of the browser session's account, as findAccount read it for this request. */
export const sessionMfaPolicy = (ctx: KoaContextWithOIDC): PoolMfaPolicy | undefined => sessionMfaPolicies.get(ctx);

/** oidc-provider passes the Account object through. */
const TENANT_IDS = 'gatehouseTenantIds';

export const accountTenants = (account: Account | undefined): readonly string[] => (account?.[TENANT_IDS] as readonly string[] | undefined) ?? [];

/**
 * With a token, an account exists only while the user is a member of the grant's tenant and the surface serves that
 * tenant's tokens (a slug renamed and given to another tenant must not serve the first one's grants).
 */
export async function findAccount(
  deps: OidcDependencies,
  surface: Surface,
  ctx: KoaContextWithOIDC,
  sub: string,
  token?: { grantId?: string; kind?: string; iat?: number; iiat?: number },
): Promise<Account | undefined> {
  const { client } = ctx.oidc;
  const data = gatehouseData(client);
  const applicationId = data?.applicationId;
  if (client === undefined || data === undefined || applicationId === undefined || !isUuid(sub)) return undefined;
  const grantId = token?.grantId;
  const [user, tenantId, surfaceTenant] = await Promise.all([
    readSignInUser(deps.orm.em, applicationId, { id: sub }),
    grantId === undefined ? null : grantTenant(deps.orm, grantId),
    token === undefined ? null : deps.surfaces.tenantFor(surface, applicationId),
  ]);
  // A suspended user, or one whose lock has not run out, keeps no access.
  if (user === null || !mayActNow(user)) return undefined;
  if (tenantId !== null && !user.tenantIds.includes(tenantId)) return undefined;
  // A client bound to a tenant signs in to it alone: a grant of it naming another tenant, or none, is no sign-in of it.
  if (grantId !== undefined && data.tenantId !== null && tenantId !== data.tenantId) return undefined;
  if (surfaceTenant !== null && !tokenStands(surfaceTenant, tenantId)) return undefined;
  // The browser session's own account: its MFA policy is the login check's (policies.ts, sessionOwesStep).
  const ownSession = token === undefined && ctx.oidc.session?.accountId === sub;
  const [policy, mfa] = await Promise.all([
    deps.signIn?.sessionPolicy(opRequestId(ctx), applicationId, user.poolId),
    ownSession ? deps.signIn?.mfaPolicy(opRequestId(ctx), applicationId, user.poolId) : undefined,
  ]);
  if (mfa !== undefined) sessionMfaPolicies.set(ctx, mfa);
  if (policy !== undefined) {
    if (endedByPolicy(ctx, sub, token, policy)) return undefined;
    noteSessionPolicy(ctx, policy);
  }
  return {
    accountId: user.id,
    [TENANT_IDS]: user.tenantIds,
    // The sign-in's tenant is in every ID token and userinfo of a tenant's sign-in (absent, not null, otherwise); its
    // roles and permissions with the scope `roles`. Read past findAccount: answered as its other callbacks are.
    claims: refusingOverload(async (_use: string, scope: string) => ({
      sub: user.id,
      email: user.email,
      email_verified: user.emailVerified === true,
      name: user.name ?? undefined,
      ...(tenantId !== null ? { tenant_id: tenantId } : {}),
      ...(scope.split(' ').includes('roles') ? await signInClaims(deps.orm.em.getConnection(), applicationId, tenantId, user.id) : {}),
    })),
  };
}

/** The browser session's sign-in and its last use, or a refresh token's chain (`iiat`) and its last rotation (`iat`), by the policy now. */
function endedByPolicy(ctx: KoaContextWithOIDC, sub: string, token: { kind?: string; iat?: number; iiat?: number } | undefined, policy: SessionPolicy): boolean {
  const now = Math.floor(Date.now() / 1000);
  if (token === undefined) {
    const session = ctx.oidc.session;
    return session?.accountId === sub && session.loginTs !== undefined && signInEnded(policy, session.loginTs, sessionUsedAt(session), now);
  }
  if (token.kind !== 'RefreshToken' || token.iat === undefined) return false;
  return signInEnded(policy, token.iiat ?? token.iat, token.iat, now);
}

/** One request reads each once. */
const accountsFound = new WeakMap<KoaContextWithOIDC, Map<string, Promise<Account | undefined>>>();

export type FindAccount = (ctx: KoaContextWithOIDC, sub: string, token?: { grantId?: string }) => Promise<Account | undefined>;

/** The token endpoint asks twice. */
export function findAccountOnce(find: FindAccount): FindAccount {
  return (ctx, sub, token) => {
    if (token === undefined) return find(ctx, sub);
    const found = madeOnce(accountsFound, ctx, () => new Map<string, Promise<Account | undefined>>());
    return madeOnce(found, `${sub}\0${token.grantId ?? ''}`, () => find(ctx, sub, token));
  };
}

/** Null on the service's surface and an application's domain. */
export async function fixedTenant(deps: OidcDependencies, surface: Surface, applicationId: string): Promise<string | null> {
  if (surface.kind === 'service') return null;
  const decided = await deps.surfaces.tenantFor(surface, applicationId);
  return decided.kind === 'fixed' ? decided.tenantId : null;
}
