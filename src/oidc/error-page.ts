import { randomBytes } from 'node:crypto';
import type { Configuration } from 'oidc-provider';
import { errorPage, pageHeaders, PLAIN_LOOK } from '../hosted/pages.ts';

/**
 * The OP's own error page (e.g. an authorization request whose redirect_uri is not registered, which must not be
 * redirected): the hosted pages' error page and headers, showing the OAuth error and its description, escaped. The
 * status is the one the OP has set. No tenant is known here: the plain look.
 */
export const renderError: NonNullable<Configuration['renderError']> = (ctx, out) => {
  const nonce = randomBytes(16).toString('base64');
  const message = out.error_description ?? 'The request could not be processed.';
  const page = errorPage(PLAIN_LOOK, nonce, message, out.error);
  ctx.set(pageHeaders(nonce, page));
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.html;
};
