import type { KoaContextWithOIDC } from 'oidc-provider';

/** Koa middleware for `provider.use`, reading the OP's answers on their way out (provider.ts installs them). */

/** oidc-provider's description of a request that names no client (src/shared/client_auth.js). */
const NO_CLIENT_AUTHENTICATION = 'no client authentication mechanism provided';

/**
 * RFC 9110 15.5.2: a 401 carries WWW-Authenticate. oidc-provider challenges an `invalid_client` 401 (token,
 * revocation, device authorization) with `Basic realm=<issuer>` only when the client sent an Authorization header;
 * one that authenticated in the body (client_secret_post, private_key_jwt) or not at all (a public client) got none.
 * It gets the same challenge. A request with no client authentication at all (no client_id, no credentials) is
 * RFC 6749 5.2's `invalid_client` ("no client authentication included"), where oidc-provider answers 400
 * `invalid_request`. Koa middleware for `provider.use`, reading the OP's answers on their way out.
 */
export function challengeClientAuthentication(issuer: string) {
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
  return async function clientAuthenticationChallenge(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const answer = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (ctx.status === 400 && answer.error === 'invalid_request' && answer.error_description === NO_CLIENT_AUTHENTICATION) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: 'no client authentication included' };
    }
    if (ctx.status !== 401 || ctx.response.headers['www-authenticate'] !== undefined) return;
    const body = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (body.error !== 'invalid_client') return;
    const description = typeof body.error_description === 'string' ? `, error_description=${quoted(body.error_description)}` : '';
    ctx.set('www-authenticate', `Basic realm=${quoted(issuer)}, error="invalid_client"${description}`);
  };
}

/**
 * claims_supported without `sid`: only front- and back-channel logout issue it, and neither is enabled. It is one of
 * oidc-provider's default claims, which a configuration can add to but not take from (its defaults are merged under
 * it), so the discovery documents leave it out here. Koa middleware for `provider.use`.
 */
export async function advertiseIssuedClaimsOnly(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const body = ctx.body as { claims_supported?: unknown } | undefined;
  if (ctx.oidc?.route !== 'discovery' || !Array.isArray(body?.claims_supported)) return;
  ctx.body = { ...body, claims_supported: body.claims_supported.filter((claim) => claim !== 'sid') };
}
