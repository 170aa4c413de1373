import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { gatehouseData } from './clients.ts';

/**
 * The application and user of the logout being answered: the application its client names, else a custom domain's
 * own (the one surface where a logout may name no client).
 */
export function loggingOut(ctx: KoaContextWithOIDC, surface: Surface): { applicationId: string; userId: string } | undefined {
  const applicationId = gatehouseData(ctx.oidc?.entities.Client ?? ctx.oidc?.client)?.applicationId ?? (surface.kind === 'domain' ? surface.applicationId : undefined);
  const userId = ctx.oidc?.session?.accountId;
  return applicationId === undefined || userId === undefined ? undefined : { applicationId, userId };
}

/**
 * Koa middleware for `provider.use`: once the logout's confirmation has ended the browser session of a user a SAML IdP
 * with single logout signed in, the browser goes on to that IdP with a LogoutRequest instead of straight to where the
 * OP sends it (the post-logout redirect URI or its done page), where the IdP's answer then brings it (src/hosted/saml.ts).
 */
export function signOutAtIdp(signOut: SamlSignOut, surface: Surface) {
  return async function samlSignOutAfterLogout(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const returnTo = ctx.response.get('location');
    if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || returnTo === '') return;
    // Only the browser session's end: a confirmation without `logout` signs one client out and keeps the session.
    if (ctx.oidc.params?.['logout'] === undefined) return;
    // Another account signing in on this browser: the OP signs the session's out on its way back to the authorization
    // (its own self-submitting form, whose policy names no IdP). That is not its user signing out.
    if (returnTo.startsWith(`${ctx.oidc.urlFor('authorization')}/`)) return;
    const user = loggingOut(ctx, surface);
    const idpUrl = user === undefined ? undefined : await signOut.start(user.applicationId, user.userId, returnTo);
    if (idpUrl === undefined) return;
    ctx.status = 303;
    ctx.redirect(idpUrl);
  };
}
