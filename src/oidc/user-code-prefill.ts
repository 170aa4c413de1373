import type { IncomingMessage } from 'node:http';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { OIDC_PATHS } from './configuration.ts';

/**
 * verification_uri_complete (`GET /oauth2/device?user_code=…`, RFC 8628 3.3.1). oidc-provider answers it with a page
 * whose script posts the code on at once; the hosted pages have no script, so the code is taken out of the request
 * here and the user code input page shows it prefilled instead, for the user to check against the device and send
 * (RFC 8628 5.4: the user still confirms the code before the device is signed in).
 */
const prefilled = new WeakMap<IncomingMessage, string>();

/** Koa middleware for `provider.use`, ahead of the OP's router. */
export async function prefillUserCode(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  const userCode = ctx.query['user_code'];
  if (ctx.method === 'GET' && ctx.path === OIDC_PATHS.code_verification && typeof userCode === 'string') {
    prefilled.set(ctx.req, userCode);
    ctx.querystring = '';
  }
  await next();
}

/** The code verification_uri_complete carried on this request, if any. */
export const prefilledUserCode = (ctx: KoaContextWithOIDC): string | undefined => prefilled.get(ctx.req);
