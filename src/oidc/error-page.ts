import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { errorPage, lookFor, PLAIN_LOOK, renderPage, type PageLook, type RenderedPage } from '../pages/pages.ts';

/** `formAction`: where its form may post and be redirected through. */
export function writePage(ctx: KoaContextWithOIDC, render: (nonce: string) => RenderedPage, formAction?: readonly string[], status?: number): void {
  const page = renderPage(render, formAction);
  ctx.set(page.headers);
  if (status !== undefined) ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = page.html;
}

/** Their errors end a sign-out, not a sign-in. */
const SIGN_OUT_ROUTES: ReadonlySet<string> = new Set(['end_session', 'end_session_confirm', 'end_session_success']);

/** E.g. an unregistered redirect_uri, which must not be redirected to. The OP's English description is for the developer.
 *  `surfaceLook`: the look of the surface itself (a custom domain's), else plain; a look it cannot read is plain. */
export const errorRenderer =
  (surfaceLook: (ctx: KoaContextWithOIDC) => Promise<PageLook>): NonNullable<Configuration['renderError']> =>
  async (ctx, out) => {
    // An error page renders whatever context it is handed (one without `oidc` is a sign-in's).
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const route = oidc?.route;
    const flow = route !== undefined && SIGN_OUT_ROUTES.has(route) ? 'sign_out' : 'sign_in';
    const surface = await surfaceLook(ctx).catch(() => PLAIN_LOOK);
    const look = lookFor(surface, ctx.headers['accept-language'], oidc?.params?.['ui_locales']);
    const key = out.error === 'temporarily_unavailable' ? 'error.unavailable' : 'error.request';
    writePage(ctx, (nonce) => errorPage(look, nonce, { key }, { code: out.error, description: out.error_description }, flow));
  };

/** The service's surface: one OP for every application, so its errors name none. */
export const renderError = errorRenderer(() => Promise.resolve(PLAIN_LOOK));
