import type { IncomingMessage } from 'node:http';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { OIDC_PATHS } from './configuration.ts';

/** RFC 8628 3.3.1: oidc-provider's auto-posting script is replaced (no script runs) by the code prefilled to confirm (5.4). */
const prefilled = new WeakMap<IncomingMessage, string>();

/** Ahead of the OP's router. A code named twice prefills nothing: the OP would answer it with its auto-posting page. */
export async function prefillUserCode(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  const userCode = ctx.query['user_code'];
  if (ctx.method === 'GET' && ctx.path === OIDC_PATHS.code_verification && userCode !== undefined) {
    if (typeof userCode === 'string') prefilled.set(ctx.req, userCode);
    ctx.querystring = '';
  }
  await next();
}

export const prefilledUserCode = (ctx: KoaContextWithOIDC): string | undefined => prefilled.get(ctx.req);
