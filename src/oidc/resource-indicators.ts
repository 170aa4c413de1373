import Provider, { errors, type KoaContextWithOIDC, type ResourceServer } from 'oidc-provider';

/**
 * The resource servers a token may be for (RFC 8707), by resource indicator, for the request's client: what the OP
 * serves to its application (the management API, the application's API resources), and nothing else (undefined).
 */
export type ResourceServers = (ctx: KoaContextWithOIDC, indicator: string) => Promise<ResourceServer | undefined>;

/** What a token request redeems: a code, a refresh token or a device code, with the resources it was granted. */
interface GrantSource {
  readonly resourceIndicators: Set<string | undefined>;
  /** A device code the user refused: its refusal is the answer, whatever resource is named. */
  readonly error?: string | undefined;
  consume(): Promise<void>;
}

/**
 * oidc-provider resolves a token request's `resource` only after it has consumed the code, refresh token or device
 * code being redeemed: an invalid one was answered `invalid_target` with that credential spent, and the client's retry
 * read as a replay (`invalid_grant`, the grant revoked). An error must leave the credentials as they were (RFC 6749
 * 5.2, RFC 8707 2), so the OP's `consume` of each of them first applies the rule oidc-provider applies after it: every
 * resource the request names is one we serve and one granted to what is redeemed. A replay is still found before
 * this, and revokes the grant whatever resource it names.
 */
export function refuseInvalidResourceBeforeConsuming(provider: Provider, servers: ResourceServers): void {
  guardConsume(provider.AuthorizationCode.prototype, servers);
  guardConsume(provider.RefreshToken.prototype, servers);
  guardConsume(provider.DeviceCode.prototype, servers);
}

function guardConsume(prototype: GrantSource, servers: ResourceServers): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the grant source as `this`
  const consume = prototype.consume;
  prototype.consume = async function (this: GrantSource) {
    // Consumed outside a request (no context) there is no `resource` to check.
    const ctx = Provider.ctx;
    if (ctx !== undefined && this.error === undefined) await assertRedeemableResources(ctx, this, servers);
    return consume.call(this);
  };
}

async function assertRedeemableResources(ctx: KoaContextWithOIDC, source: GrantSource, servers: ResourceServers): Promise<void> {
  const named = ctx.oidc.params?.['resource'];
  // oidc-provider takes an empty `resource` as none.
  const indicators: unknown[] = Array.isArray(named) ? named : named === undefined || named === '' ? [] : [named];
  for (const indicator of indicators) {
    if (typeof indicator !== 'string' || !source.resourceIndicators.has(indicator) || (await servers(ctx, indicator)) === undefined) {
      throw new errors.InvalidTarget();
    }
  }
  // One token has one audience: oidc-provider refuses several distinct resources, after consuming (provider.ts's
  // defaultResource takes one named twice as that one).
  if (new Set(indicators).size > 1) throw new errors.InvalidTarget('only a single resource indicator value must be requested');
}

/**
 * RFC 6749 5.2: a client-credentials request whose `scope` names a value the resource does not serve is
 * `invalid_scope`, and nothing is issued. oidc-provider kept only the resource's scopes and dropped the rest silently:
 * the management API serves none (an M2M token's rights are its credential's permissions), so a token came back
 * whatever the client named, and a client could believe it held a scope it had asked for. A request without `scope`
 * is answered as before (and its response names no scope). Called where oidc-provider resolves the request's
 * resource (getResourceServerInfo), before anything is issued; no lookup of its own (the hot path sends no statement).
 */
export function refuseUnservedClientCredentialsScope(ctx: KoaContextWithOIDC, server: ResourceServer): void {
  if (ctx.oidc.params?.['grant_type'] !== 'client_credentials') return;
  const served = new Set(server.scope.split(' '));
  const unserved = [...ctx.oidc.requestParamScopes].filter((scope) => !served.has(scope));
  if (unserved.length > 0) {
    throw new errors.InvalidScope('requested scope is not served for this resource (an M2M token carries its credential\'s permissions)', unserved.join(' '));
  }
}
