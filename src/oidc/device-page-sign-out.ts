import type { KoaContextWithOIDC } from 'oidc-provider';
import { devicePagesSession, readsApplicationSession } from './session-application.ts';

/**
 * The device pages keep the plain session cookie: an application's sign-out (or account switch) ends it too when it
 * holds the same user, or whoever uses the browser next approves devices in that user's name without a password.
 */
export async function signOutDevicePages(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || ctx.oidc.params?.['logout'] === undefined) return;
  const accountId = ctx.oidc.session?.accountId;
  if (accountId === undefined || !readsApplicationSession()) return;
  const devicePages = await devicePagesSession(ctx.oidc.provider, ctx.req, ctx.res);
  if (devicePages.accountId === accountId) await devicePages.destroy();
}
