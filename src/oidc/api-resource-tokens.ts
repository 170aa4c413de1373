import { type AccessToken, type ClientCredentials, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';
import type { MikroORM } from '@mikro-orm/postgresql';
import { ACCESS_TOKEN_ALG } from '../auth/jwt.ts';
import { MAX_ACCESS_TOKEN_SECONDS } from '../auth/signing-keys.ts';
import { readResourcePermissions } from '../domain/api-resources/api-resources.ts';
import { gatehouseData } from './clients.ts';
import type { ResourceServers } from './resource-indicators.ts';
import { madeOnce } from '../made-once.ts';

/** A resource server whose tokens are ES256 JWTs whatever the client's ID token algorithm, living no longer than a retired signing key verifies. */
export function jwtResourceServer(audience: string, permissions: readonly string[]): ResourceServer {
  return {
    // The scopes a request may name for it: its permissions (a client-credentials request naming another is refused).
    scope: permissions.join(' '),
    audience,
    accessTokenTTL: MAX_ACCESS_TOKEN_SECONDS,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: ACCESS_TOKEN_ALG } },
  };
}

/** What a request has looked up, by indicator: a token request asks for the same resource several times. */
const looked = new WeakMap<KoaContextWithOIDC, Map<string, Promise<ResourceServer | undefined>>>();

/**
 * The resources of the request's client: the management API, and its application's API resources by identifier (one
 * statement, once per request and indicator). Another application's resource is none of its (`invalid_target`).
 */
export function resourceServersOf(orm: MikroORM, management: ResourceServer): ResourceServers {
  return (ctx, indicator) => {
    if (indicator === management.audience) return Promise.resolve(management);
    const applicationId = gatehouseData(ctx.oidc.client)?.applicationId;
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

/** The claims computed for a token as it was saved, which extraTokenClaims then returns. */
const computed = new WeakMap<IssuedToken, Promise<Record<string, unknown> | undefined>>();

/** Keeps the claims computed for a token as it is saved (overrides.ts, scopeApiResourceTokens), and returns them. */
export function extraClaimsComputedAtSave(token: IssuedToken, claims: Promise<Record<string, unknown> | undefined>) {
  computed.set(token, claims);
  return claims;
}

/** A token's extra claims: those computed at its save, else computed now. */
export function extraClaimsOf(claims: TokenClaims): TokenClaims {
  return (ctx, token) => computed.get(token) ?? claims(ctx, token);
}
