import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import { isUuid } from '../ids.ts';
import { servedClientData, type GatehouseClientData } from './clients.ts';
import { OIDC_PATHS } from './configuration.ts';
import { withSessionOf } from './session-application.ts';

/**
 * The hosted account page's view of the OP (src/hosted/account.ts, through services.oidc): who the browser is signed
 * in as, by the OP's own session cookie for the client's application on the page's surface; and, when nobody is, the
 * authorization request that signs them in and comes back. That request is the client's own (a first-party client of
 * the application, its first redirect URI), answered in the response mode `gatehouse_account`: instead of sending the
 * code to the client, the OP sends the browser back to the account page, which uses the browser session the sign-in
 * left and never the code (it expires unredeemed; PKCE with a verifier nobody keeps makes it useless to anyone).
 */

/** The response mode of the account page's sign-in (registered on every OP: returnToAccountPage). */
export const ACCOUNT_RESPONSE_MODE = 'gatehouse_account';

/** The account page's path below a surface (its issuer). */
export const ACCOUNT_PAGE_PATH = '/account';

/** The browser on the account page of a surface, for one client. */
export interface AccountBrowser {
  readonly client: { readonly clientId: string; readonly data: GatehouseClientData };
  /** The OP browser session of the client's application on the surface (its `uid`, stable across rotations) and its account. */
  readonly session: { readonly uid: string; readonly accountId: string } | undefined;
  /** The authorization request that signs the browser in and comes back here; undefined when the client cannot (no redirect URI). */
  readonly signInUrl: string | undefined;
}

/**
 * The browser's account session on `surface` for the client `clientId`, read from the OP's cookie as the OP reads it
 * (its name per application: session-application.ts). Undefined when there is no such client. `tenant`: the tenant
 * the page was asked for (the authorization request's `tenant`), carried into the sign-in.
 */
export async function accountBrowser(
  provider: Provider,
  surface: Surface,
  request: { readonly clientId: string; readonly tenant: string | undefined },
  req: IncomingMessage,
  res: ServerResponse,
): Promise<AccountBrowser | undefined> {
  if (!isUuid(request.clientId)) return undefined;
  const data = await servedClientData(provider, request.clientId);
  if (data === undefined) return undefined;
  const client = await provider.Client.find(request.clientId);
  const application = surface.kind === 'domain' ? undefined : data.applicationId;
  const session = await withSessionOf(application, () => provider.Session.get({ req, res } as unknown as KoaContextWithOIDC));
  const redirectUri = client?.redirectUris?.[0];
  return {
    client: { clientId: request.clientId, data },
    session: session.accountId === undefined ? undefined : { uid: session.uid, accountId: session.accountId },
    signInUrl: redirectUri === undefined ? undefined : signInUrl(surface, request, redirectUri),
  };
}

function signInUrl(surface: Surface, request: { clientId: string; tenant: string | undefined }, redirectUri: string): string {
  const url = new URL(`${surface.issuer}${OIDC_PATHS.authorization}`);
  const challenge = randomBytes(32).toString('base64url');
  url.search = new URLSearchParams({
    client_id: request.clientId,
    response_type: 'code',
    response_mode: ACCOUNT_RESPONSE_MODE,
    redirect_uri: redirectUri,
    scope: 'openid',
    prompt: 'login',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(request.tenant === undefined ? {} : { tenant: request.tenant }),
  }).toString();
  return url.href;
}

/**
 * The response mode `gatehouse_account`: the browser goes back to the account page of the surface (its issuer), for
 * the same client and tenant, with the error when the sign-in was refused; the code is not passed on.
 */
export function returnToAccountPage(issuer: string) {
  return (ctx: KoaContextWithOIDC, _redirectUri: string, payload: Record<string, unknown>) => {
    const url = new URL(`${issuer}${ACCOUNT_PAGE_PATH}`);
    const clientId = ctx.oidc.client?.clientId;
    const tenant = ctx.oidc.params?.['tenant'];
    if (clientId !== undefined) url.searchParams.set('client_id', clientId);
    if (typeof tenant === 'string' && tenant !== '') url.searchParams.set('tenant', tenant);
    if (typeof payload['error'] === 'string') url.searchParams.set('error', payload['error']);
    ctx.status = 303;
    ctx.redirect(url.href);
  };
}
