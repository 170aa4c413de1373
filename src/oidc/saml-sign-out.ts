import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { gatehouseData } from './clients.ts';
import { isAccountSwitchReturn } from './overrides.ts';

/** A custom domain's own application when no client is named (the one surface where a logout may name none). */
export function loggingOut(ctx: KoaContextWithOIDC, surface: Surface): { applicationId: string; userId: string } | undefined {
  const applicationId = gatehouseData(ctx.oidc?.entities.Client ?? ctx.oidc?.client)?.applicationId ?? (surface.kind === 'domain' ? surface.applicationId : undefined);
  const userId = ctx.oidc?.session?.accountId;
  return applicationId === undefined || userId === undefined ? undefined : { applicationId, userId };
}

/**
 * Once a logout ends a session a SAML IdP with single logout signed in, the browser goes to that IdP with a
 * LogoutRequest; its answer then brings it on to where the OP was sending it (src/hosted/saml.ts).
 */
export function signOutAtIdp(signOut: SamlSignOut, surface: Surface) {
  return async function samlSignOutAfterLogout(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const returnTo = ctx.response.get('location');
    if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || returnTo === '') return;
    // A confirmation without `logout` signs one client out and keeps the session.
    if (ctx.oidc.params?.['logout'] === undefined) return;
    // Another account signing in here: the OP signs the session's out on its way back to the sign-in. Not a sign-out.
    if (isAccountSwitchReturn(ctx.oidc, returnTo)) return;
    const user = loggingOut(ctx, surface);
    const idpUrl = user === undefined ? undefined : await signOut.start(user.applicationId, user.userId, returnTo);
    if (idpUrl === undefined) return;
    ctx.status = 303;
    ctx.redirect(idpUrl);
  };
}
