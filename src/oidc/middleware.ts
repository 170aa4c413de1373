import type { KoaContextWithOIDC } from 'oidc-provider';
import type { GrantRevocationDependencies } from './grant-revocation.ts';
import { grantMadeBy, revokeUntakenDeviceGrant } from './untaken-device-grants.ts';

/** Koa middleware reading the OP's answers on their way out (provider.ts installs them). */

/** src/shared/client_auth.js's refusals that are `invalid_client`, with the description each is answered with. */
const CLIENT_AUTHENTICATION_REFUSALS: ReadonlyMap<string, string> = new Map([
  ['no client authentication mechanism provided', 'no client authentication included'],
  ['invalid client_assertion format', 'the client_assertion is not a JWT'],
]);

/**
 * RFC 9110 15.5.2: oidc-provider sends WWW-Authenticate only to Authorization-header clients. No client authentication
 * (RFC 6749 5.2) and a client_assertion that is no JWT (RFC 7523 3.2) are `invalid_client`, where oidc-provider
 * answers 400 `invalid_request`.
 */
export function challengeClientAuthentication(issuer: string) {
  const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;
  return async function clientAuthenticationChallenge(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const answer = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    const refusal = typeof answer.error_description === 'string' ? CLIENT_AUTHENTICATION_REFUSALS.get(answer.error_description) : undefined;
    if (ctx.status === 400 && answer.error === 'invalid_request' && refusal !== undefined) {
      ctx.status = 401;
      ctx.body = { error: 'invalid_client', error_description: refusal };
    }
    if (ctx.status !== 401 || ctx.response.headers['www-authenticate'] !== undefined) return;
    const body = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (body.error !== 'invalid_client') return;
    const description = typeof body.error_description === 'string' ? `, error_description=${quoted(body.error_description)}` : '';
    ctx.set('www-authenticate', `Basic realm=${quoted(issuer)}, error="invalid_client"${description}`);
  };
}

/** Where tokens (or a device code) are returned. */
const TOKEN_ROUTES: ReadonlySet<string> = new Set(['token', 'device_authorization']);

/** RFC 6749 5.1: beside oidc-provider's `Cache-Control: no-store`, `Pragma: no-cache` for HTTP/1.0 caches. */
export async function forbidCachingTokens(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== undefined && TOKEN_ROUTES.has(ctx.oidc.route)) ctx.set('pragma', 'no-cache');
}

/** src/actions/token.js and src/actions/authorization/client.js: the client's registration lacks the grant type. */
const GRANT_TYPE_NOT_ALLOWED: Readonly<Record<string, RegExp>> = {
  token: /^requested grant type is not allowed for this client$/,
  device_authorization: / is not allowed for this client$/,
};

/**
 * RFC 6749 5.2 (and RFC 8628 3.2, which answers with its errors): an authenticated client asking for a grant type it may
 * not use is `unauthorized_client`, where oidc-provider answers `invalid_request`.
 */
export async function refuseUnauthorizedClient(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const answer = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
  const notAllowed = ctx.oidc?.route === undefined ? undefined : GRANT_TYPE_NOT_ALLOWED[ctx.oidc.route];
  if (notAllowed === undefined || ctx.status !== 400 || answer.error !== 'invalid_request' || typeof answer.error_description !== 'string') return;
  if (notAllowed.test(answer.error_description)) ctx.body = { ...answer, error: 'unauthorized_client' };
}

/** No `sid`: neither front- nor back-channel logout is enabled, and no configuration takes it out of the default claims. */
export async function advertiseIssuedClaimsOnly(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const body = ctx.body as { claims_supported?: unknown } | undefined;
  if (ctx.oidc?.route !== 'discovery' || !Array.isArray(body?.claims_supported)) return;
  ctx.body = { ...body, claims_supported: body.claims_supported.filter((claim) => claim !== 'sid') };
}

export function endUntakenDeviceGrants(deps: GrantRevocationDependencies) {
  return async function untakenDeviceGrants(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'device_resume') return;
    const made = grantMadeBy(ctx.oidc.result);
    const deviceCode = ctx.oidc.entities.Interaction?.deviceCode;
    if (made !== undefined && deviceCode !== undefined) await revokeUntakenDeviceGrant(deps, deviceCode, made);
  };
}

/** A confirmed logout goes on to the signed-out page in the logout's language: the OP forwards only `client_id` there,
 *  so the `ui_locales` its confirmation form posted back (logoutPage) is added to the address. */
export async function keepLogoutLanguage(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  const language = ctx.oidc?.body?.['ui_locales'];
  if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || typeof language !== 'string') return;
  const location = new URL(ctx.response.get('location'), ctx.href);
  if (location.origin + location.pathname !== ctx.oidc.urlFor('end_session_success')) return;
  location.searchParams.set('ui_locales', language);
  ctx.redirect(location.href);
}
