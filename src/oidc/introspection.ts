import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { isLive, subjectKind, type BearerSubject, type LiveSubjectCache } from '../auth/bearer-subject.ts';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import type { Surface, SurfaceRouter } from '../domain/domains/surfaces.ts';
import { isUuid } from '../ids.ts';
import type { FindAccount } from './account.ts';
import { grantTenant } from './grant-tenant.ts';
import { gatehouseData } from './clients.ts';

export interface IntrospectionDependencies {
  readonly orm: MikroORM;
  readonly signingKeys: SigningKeyStore;
  readonly liveSubjects: LiveSubjectCache;
  readonly surfaces: SurfaceRouter;
}

interface TokenOwner {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly subject: BearerSubject;
}

/**
 * RFC 7662 2.2: only a confidential client of the token's application (and tenant), while its subject stands, and only
 * where the token could be used (a slug or hostname passed to another tenant keeps its issuer). Else `active: false`,
 * which says nothing of why.
 */
async function mayLearn(deps: IntrospectionDependencies, surface: Surface, caller: Client, owner: TokenOwner): Promise<boolean> {
  const data = gatehouseData(caller);
  if (data === undefined || caller.clientAuthMethod === 'none' || data.applicationId !== owner.applicationId) return false;
  if (data.tenantId !== null && data.tenantId !== owner.tenantId) return false;
  if (!(await deps.surfaces.servesToken(surface, owner))) return false;
  return isLive(deps.orm, deps.liveSubjects, owner.subject);
}

interface IssuedTo {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly clientId: string;
  readonly accountId: string | undefined;
  readonly grantId: string | undefined;
  readonly managementApi: boolean;
}

function ownerOf({ applicationId, tenantId, clientId, accountId, grantId, managementApi }: IssuedTo): TokenOwner | undefined {
  if (accountId === undefined) return { applicationId, tenantId, subject: { kind: 'm2m_credential', subject: clientId, applicationId, tenantId } };
  if (grantId === undefined) return undefined;
  return { applicationId, tenantId, subject: { kind: 'user', subject: accountId, applicationId, tenantId, clientId, grantId, managementApi } };
}

type StoredToken = Parameters<NonNullable<NonNullable<NonNullable<Configuration['features']>['introspection']>['allowedPolicy']>>[2];

/**
 * Userinfo access tokens, refresh tokens. A refresh token is active only while the token endpoint would take it: its
 * account found as there (`findAccount`, which judges it by the session policy as it is now).
 */
export function introspectionAllowed(deps: IntrospectionDependencies, surface: Surface, findAccount: FindAccount) {
  return async (ctx: KoaContextWithOIDC, caller: Client, token: StoredToken): Promise<boolean> => {
    const issuedTo = gatehouseData(await ctx.oidc.provider.Client.find(token.clientId ?? ''));
    if (issuedTo === undefined || token.clientId === undefined) return false;
    const grantId = 'grantId' in token && typeof token.grantId === 'string' ? token.grantId : undefined;
    const extra = 'extra' in token ? token.extra : undefined;
    const tenantId = typeof extra?.['tenant_id'] === 'string' ? extra['tenant_id'] : grantId === undefined ? issuedTo.tenantId : await grantTenant(deps.orm, grantId);
    const accountId = 'accountId' in token && typeof token.accountId === 'string' ? token.accountId : undefined;
    // Opaque tokens are userinfo's and refresh tokens; the token endpoint checks managementApi at each refresh.
    const owner = ownerOf({ applicationId: issuedTo.applicationId, tenantId, clientId: token.clientId, accountId, grantId, managementApi: false });
    if (owner === undefined || !(await mayLearn(deps, surface, caller, owner))) return false;
    return token.kind !== 'RefreshToken' || accountId === undefined || (await findAccount(ctx, accountId, token)) !== undefined;
  };
}

/**
 * oidc-provider answers a JWT with `unsupported_token_type` (it keeps none): ours are answered here once the client is
 * authenticated.
 */
export function introspectJwtAccessTokens(deps: IntrospectionDependencies, surface: Surface) {
  return async function jwtIntrospection(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const caller = ctx.oidc?.client;
    const body = ctx.body as { error?: unknown } | undefined;
    if (ctx.oidc?.route !== 'introspection' || caller === undefined || ctx.status !== 400 || body?.error !== 'unsupported_token_type') return;
    const token = ctx.oidc.params?.['token'];
    ctx.status = 200;
    ctx.body = typeof token === 'string' ? await introspectJwt(deps, surface, caller, token) : { active: false };
  };
}

async function introspectJwt(deps: IntrospectionDependencies, surface: Surface, caller: Client, token: string): Promise<Record<string, unknown>> {
  let claims;
  try {
    claims = await deps.signingKeys.verifyIssuedAccessToken(token, surface.issuer);
  } catch {
    return { active: false };
  }
  const { app_id: applicationId, tenant_id: tenantId, client_id: clientId, sub, grant_id: grantId, aud } = claims;
  if (typeof applicationId !== 'string' || !isUuid(applicationId) || typeof clientId !== 'string' || typeof sub !== 'string') return { active: false };
  const tenant = typeof tenantId === 'string' ? tenantId : null;
  const accountId = subjectKind(sub, clientId) === 'user' ? sub : undefined;
  const owner = ownerOf({
    applicationId,
    tenantId: tenant,
    clientId,
    accountId,
    grantId: typeof grantId === 'string' ? grantId : undefined,
    managementApi: aud === deps.signingKeys.managementAudience,
  });
  if (owner === undefined || !(await mayLearn(deps, surface, caller, owner))) return { active: false };
  return { ...claims, active: true, token_type: 'Bearer' };
}
