import { errors, type AccessToken, type ClientCredentials, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_ALG } from '../auth/jwt.ts';
import { MAX_ACCESS_TOKEN_SECONDS } from '../auth/signing-keys.ts';
import { readResourcePermissions } from '../domain/api-resources/api-resources.ts';
import { gatehouseData } from './clients.ts';
import type { ResourceServers } from './resource-indicators.ts';
import { madeOnce } from '../made-once.ts';

/** ES256 whatever the client's ID token algorithm, living at most MAX_ACCESS_TOKEN_SECONDS. */
export function jwtResourceServer(audience: string, permissions: readonly string[]): ResourceServer {
  return {
    // A client-credentials request naming another scope is refused.
    scope: permissions.join(' '),
    audience,
    accessTokenTTL: MAX_ACCESS_TOKEN_SECONDS,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: ACCESS_TOKEN_ALG } },
  };
}

/** A token request asks for the same resource several times. */
const looked = new WeakMap<KoaContextWithOIDC, Map<string, Promise<ResourceServer | undefined>>>();

/**
 * One statement per request and indicator; another application's resource is none of its (`invalid_target`). Asked
 * before a code or refresh token is consumed (resource-indicators.ts), so a refusal leaves it as it was.
 */
export function resourceServersOf(orm: MikroORM, management: ResourceServer): ResourceServers {
  return (ctx, indicator) => {
    const data = gatehouseData(ctx.oidc.client);
    if (indicator === management.audience) {
      // A user's management API token acts with all the user may do: only for clients made to ask for one.
      if (data?.type !== 'm2m' && data?.managementApi !== true) {
        return Promise.reject(new errors.InvalidTarget('this client may not obtain management API tokens (its managementApi is off)'));
      }
      return Promise.resolve(management);
    }
    const applicationId = data?.applicationId;
    if (applicationId === undefined) return Promise.resolve(undefined);
    const found = madeOnce(looked, ctx, () => new Map<string, Promise<ResourceServer | undefined>>());
    return madeOnce(found, indicator, () =>
      readResourcePermissions(orm.em.getConnection(), applicationId, indicator).then((permissions) =>
        permissions === null ? undefined : jwtResourceServer(indicator, permissions),
      ),
    );
  };
}

type IssuedToken = AccessToken | ClientCredentials;
export type TokenClaims = (ctx: KoaContextWithOIDC, token: IssuedToken) => Promise<Record<string, unknown> | undefined>;

const computed = new WeakMap<IssuedToken, Promise<Record<string, unknown> | undefined>>();

/** overrides.ts, scopeApiResourceTokens. */
export function extraClaimsComputedAtSave(token: IssuedToken, claims: Promise<Record<string, unknown> | undefined>) {
  computed.set(token, claims);
  return claims;
}

export function extraClaimsOf(claims: TokenClaims): TokenClaims {
  return (ctx, token) => computed.get(token) ?? claims(ctx, token);
}
