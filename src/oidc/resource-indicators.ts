import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';

/** RFC 8707: what the OP serves to the client's application, and nothing else (undefined). */
export type ResourceServers = (ctx: KoaContextWithOIDC, indicator: string) => Promise<ResourceServer | undefined>;

interface RedeemedSource {
  readonly resourceIndicators: Set<string | undefined>;
  readonly scopes: Set<string>;
}

/**
 * oidc-provider's rule, applied before consuming what is redeemed instead of after (overrides.ts): the resources named,
 * else the one granted when the token serves no userinfo (its resolve_resource).
 */
export async function assertRedeemableResources(ctx: KoaContextWithOIDC, source: RedeemedSource, servers: ResourceServers): Promise<void> {
  const named = ctx.oidc.params?.['resource'];
  // oidc-provider takes an empty `resource` as none.
  const indicators: unknown[] = Array.isArray(named) ? named : named === undefined || named === '' ? [] : [named];
  if (indicators.length === 0 && !redeemedScopes(ctx, source).has('openid')) indicators.push(...[...source.resourceIndicators].filter((granted) => granted !== undefined));
  for (const indicator of indicators) {
    if (typeof indicator !== 'string' || !source.resourceIndicators.has(indicator) || (await servers(ctx, indicator)) === undefined) {
      throw new errors.InvalidTarget();
    }
  }
  // One token has one audience (defaultResource takes one named twice as that one).
  if (new Set(indicators).size > 1) throw new errors.InvalidTarget('only a single resource indicator value must be requested');
}

/** A refresh may narrow the scope it was granted; a code's and a device code's are theirs. */
function redeemedScopes(ctx: KoaContextWithOIDC, source: RedeemedSource): ReadonlySet<string> {
  const { params } = ctx.oidc;
  const narrowed = params?.['grant_type'] === 'refresh_token' && typeof params['scope'] === 'string' && params['scope'] !== '';
  return narrowed ? ctx.oidc.requestParamScopes : source.scopes;
}

/**
 * RFC 6749 5.2: an unserved client-credentials `scope` is `invalid_scope`, where oidc-provider would drop it silently
 * and issue anyway. No lookup of its own: the hot path sends no statement.
 */
export function refuseUnservedClientCredentialsScope(ctx: KoaContextWithOIDC, server: ResourceServer): void {
  if (ctx.oidc.params?.['grant_type'] !== 'client_credentials') return;
  const served = new Set(server.scope.split(' '));
  const unserved = [...ctx.oidc.requestParamScopes].filter((scope) => !served.has(scope));
  if (unserved.length > 0) {
    throw new errors.InvalidScope('requested scope is not served for this resource (an M2M token carries its credential\'s permissions)', unserved.join(' '));
  }
}
