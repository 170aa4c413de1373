import type { KoaContextWithOIDC } from 'oidc-provider';
import { devicePagesSession, readsApplicationSession } from './session-application.ts';

/**
 * Where each application has a session cookie of its own, the device pages keep the plain one, which stays signed in
 * once a device is approved: an application's sign-out ends it too when it holds the same user, whether confirmed by
 * the user or the OP's on an account switch (another account signing in), or whoever uses the browser next approves
 * devices in that user's name without a password. The devices approved keep their sign-ins.
 */
export async function signOutDevicePages(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || ctx.oidc.params?.['logout'] === undefined) return;
  const accountId = ctx.oidc.session?.accountId;
  if (accountId === undefined || !readsApplicationSession()) return;
  const devicePages = await devicePagesSession(ctx.oidc.provider, ctx.req, ctx.res);
  if (devicePages.accountId === accountId) await devicePages.destroy();
}
