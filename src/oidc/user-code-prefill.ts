import type { IncomingMessage } from 'node:http';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { OIDC_PATHS } from './configuration.ts';

/**
 * verification_uri_complete (RFC 8628 3.3.1): oidc-provider answers with a script that posts the code at once; the
 * hosted pages run no script, so the input page shows the code prefilled for the user to confirm (RFC 8628 5.4).
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

export const prefilledUserCode = (ctx: KoaContextWithOIDC): string | undefined => prefilled.get(ctx.req);
