import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import type { SamlSignOut } from '../domain/sign-in/saml-logout.ts';
import { cspSource } from '../pages/pages.ts';
import { gatehouseData } from './clients.ts';

/** The session's user and application, first by a client it signed in to: on the device pages' one session, the
 *  sign-in replacing it in an account switch may be another application's. */
export async function loggingOut(ctx: KoaContextWithOIDC, surface: Surface): Promise<{ applicationId: string; userId: string } | undefined> {
  const session = ctx.oidc?.session;
  const userId = session?.accountId;
  if (session === undefined || userId === undefined) return undefined;
  const resumed = ctx.oidc.entities.Interaction?.params['client_id'];
  const named = [...Object.keys(session.authorizations ?? {}), (ctx.oidc.entities.Client ?? ctx.oidc.client)?.clientId, typeof resumed === 'string' ? resumed : undefined];
  for (const clientId of new Set(named)) {
    const applicationId = clientId === undefined ? undefined : gatehouseData(await ctx.oidc.provider.Client.find(clientId))?.applicationId;
    if (applicationId !== undefined) return { applicationId, userId };
  }
  return surface.kind === 'domain' ? { applicationId: surface.applicationId, userId } : undefined;
}

/** The form-action sources a logout of the session's user passes through on its way via the IdP (none: it does not). */
export async function idpFormTargets(signOut: SamlSignOut | undefined, ctx: KoaContextWithOIDC, surface: Surface): Promise<string[]> {
  const user = signOut === undefined ? undefined : await loggingOut(ctx, surface);
  if (signOut === undefined || user === undefined) return [];
  return (await signOut.formTargets(user.applicationId, user.userId)).flatMap((origin) => cspSource(origin) ?? []);
}

/**
 * Once a logout ends a session a SAML IdP with single logout signed in, the browser goes to that IdP with a
 * LogoutRequest; its answer then brings it on to where the OP was sending it (src/hosted/saml.ts). An account switch
 * (another account signing in on the browser) ends the session too: its return is the sign-in under way, resumed then.
 */
export function signOutAtIdp(signOut: SamlSignOut, surface: Surface) {
  return async function samlSignOutAfterLogout(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
    await next();
    const returnTo = ctx.response.get('location');
    if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303 || returnTo === '') return;
    // A confirmation without `logout` signs one client out and keeps the session.
    if (ctx.oidc.params?.['logout'] === undefined) return;
    const user = await loggingOut(ctx, surface);
    const idpUrl = user === undefined ? undefined : await signOut.start(user.applicationId, user.userId, returnTo);
    if (idpUrl === undefined) return;
    ctx.status = 303;
    ctx.redirect(idpUrl);
  };
}
