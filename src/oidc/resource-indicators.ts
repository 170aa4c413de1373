import { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';

/** RFC 8707: what the OP serves to the client's application, and nothing else (undefined). */
export type ResourceServers = (ctx: KoaContextWithOIDC, indicator: string) => Promise<ResourceServer | undefined>;

/** oidc-provider's rule, applied before consuming what is redeemed instead of after (overrides.ts). */
export async function assertRedeemableResources(ctx: KoaContextWithOIDC, source: { readonly resourceIndicators: Set<string | undefined> }, servers: ResourceServers): Promise<void> {
  const named = ctx.oidc.params?.['resource'];
  // oidc-provider takes an empty `resource` as none.
  const indicators: unknown[] = Array.isArray(named) ? named : named === undefined || named === '' ? [] : [named];
  for (const indicator of indicators) {
    if (typeof indicator !== 'string' || !source.resourceIndicators.has(indicator) || (await servers(ctx, indicator)) === undefined) {
      throw new errors.InvalidTarget();
    }
  }
  // One token has one audience (defaultResource takes one named twice as that one).
  if (new Set(indicators).size > 1) throw new errors.InvalidTarget('only a single resource indicator value must be requested');
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
