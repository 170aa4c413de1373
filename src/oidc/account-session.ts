import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { errors, type Client, type KoaContextWithOIDC } from 'oidc-provider';
import type { Surface } from '../domain/domains/surfaces.ts';
import { isUuid } from '../ids.ts';
import { servedClientData, type GatehouseClientData } from './clients.ts';
import { OIDC_PATHS } from './configuration.ts';
import { mfaCheckedAtOf, signInMethodsOf } from './overrides.ts';
import { withSessionOf } from './session-application.ts';
import { sessionUsedAt } from './session-lifetime.ts';

/**
 * Who the browser is signed in as, else the client's own authorization request in response mode `gatehouse_account`:
 * the page uses the session and never the code (it expires unredeemed; PKCE with a discarded verifier makes it useless).
 */

/** Registered on every OP (returnToAccountPage). */
export const ACCOUNT_RESPONSE_MODE = 'gatehouse_account';

export const ACCOUNT_PAGE_PATH = '/account';

export interface AccountBrowser {
  readonly client: { readonly clientId: string; readonly data: GatehouseClientData };
  /** `uid` is stable across rotations; `loginTs` when its user signed in, `usedAt` its last use (epoch seconds); `acr` and
   *  `mfaCheckedAt` what the MFA policy's login check judges (sessionOwesStep); `methods` how they signed in. */
  readonly session:
    | {
        readonly uid: string;
        readonly accountId: string;
        readonly loginTs: number | undefined;
        readonly usedAt: number | undefined;
        readonly acr: string | undefined;
        readonly mfaCheckedAt: number | undefined;
        readonly methods: readonly string[];
      }
    | undefined;
  readonly signInUrl: string | undefined;
}

/** `tenant` is the authorization request's, carried into the sign-in. */
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
  const session = await browserSession(provider, surface, data.applicationId, req, res);
  const redirectUri = client?.redirectUris?.[0];
  return {
    client: { clientId: request.clientId, data },
    session:
      session.accountId === undefined
        ? undefined
        : { uid: session.uid, accountId: session.accountId, loginTs: session.loginTs, usedAt: sessionUsedAt(session), acr: session.acr, mfaCheckedAt: mfaCheckedAtOf(session), methods: signInMethodsOf(session) },
    signInUrl: redirectUri === undefined ? undefined : signInUrl(surface, request, redirectUri),
  };
}

/** As the OP reads its cookie (named per application: session-application.ts). */
export function browserSession(provider: Provider, surface: Surface, applicationId: string, req: IncomingMessage, res: ServerResponse) {
  const application = surface.kind === 'domain' ? undefined : applicationId;
  return withSessionOf(application, () => provider.Session.get({ req, res } as unknown as KoaContextWithOIDC));
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
 * The mode answers the account page's own request only (signInUrl: a code, `prompt=login`, the client's first redirect
 * URI); any other request naming it is refused as an unknown mode would be, at its redirect URI in the default mode.
 */
export async function refuseForeignAccountResponseMode(ctx: KoaContextWithOIDC, value: string | undefined, client: Client | undefined): Promise<void> {
  const params = ctx.oidc.params;
  if (ctx.oidc.route !== 'authorization' || value !== ACCOUNT_RESPONSE_MODE || params === undefined) return;
  const own = params['response_type'] === 'code' && params['prompt'] === 'login' && client !== undefined && params['redirect_uri'] === client.redirectUris?.[0];
  if (own) return;
  params['response_mode'] = undefined;
  throw new errors.UnsupportedResponseMode();
}

/** Never the code. */
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
