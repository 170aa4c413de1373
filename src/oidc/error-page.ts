import type { Configuration } from 'oidc-provider';
import { PLAIN_LOOK, standaloneErrorPage } from '../hosted/pages.ts';

/**
 * The OP's own error page (e.g. an authorization request whose redirect_uri is not registered, which must not be
 * redirected): the hosted pages' error page and headers, showing the OAuth error and its description, escaped. The
 * status is the one the OP has set. No tenant is known here: the plain look.
 */
export const renderError: NonNullable<Configuration['renderError']> = (ctx, out) => {
  const page = standaloneErrorPage(PLAIN_LOOK, out.error_description ?? 'The request could not be processed.', out.error);
  ctx.set(page.headers);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.html;
};
