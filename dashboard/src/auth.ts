import * as oauth from 'oauth4webapi';
import type { DashboardConfig } from './config.ts';
import { clearSession, type Session } from './session.ts';

/** The authorization request in flight: what the callback must match (state) and prove (PKCE verifier). */
interface PendingSignIn {
  readonly state: string;
  readonly codeVerifier: string;
}

const PENDING_KEY = 'gatehouse.dashboard.pending-sign-in';
const SCOPE = 'openid profile email';

export function redirectUri(): string {
  return `${location.origin}/dashboard/`;
}

/** Whether the page was loaded as the authorization response (`?code=…&state=…` or `?error=…`). */
export function isAuthorizationResponse(url: URL): boolean {
  return url.searchParams.has('code') || url.searchParams.has('error');
}

// oauth4webapi refuses plain HTTP unless told; a local issuer (http://localhost:3000) is served that way.
function httpOptions(config: DashboardConfig): { [oauth.allowInsecureRequests]?: boolean } {
  return { [oauth.allowInsecureRequests]: config.issuer.protocol === 'http:' };
}

async function discover(config: DashboardConfig): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(config.issuer, httpOptions(config));
  return oauth.processDiscoveryResponse(config.issuer, response);
}

function endpoint(server: oauth.AuthorizationServer, name: 'authorization_endpoint' | 'end_session_endpoint'): URL {
  const url = server[name];
  if (url === undefined) throw new Error(`The issuer's discovery document has no ${name}.`);
  return new URL(url);
}

/** Starts the authorization code flow with PKCE: leaves the page for the issuer's authorization endpoint. */
export async function signIn(config: DashboardConfig): Promise<void> {
  const server = await discover(config);
  const pending: PendingSignIn = { state: oauth.generateRandomState(), codeVerifier: oauth.generateRandomCodeVerifier() };
  const url = endpoint(server, 'authorization_endpoint');
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    scope: SCOPE,
    redirect_uri: redirectUri(),
    resource: config.managementAudience,
    state: pending.state,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  location.assign(url);
}

function takePendingSignIn(): PendingSignIn {
  const stored = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  if (stored === null) throw new Error('No sign-in was started in this tab, or it was already completed: sign in again.');
  return JSON.parse(stored) as PendingSignIn;
}

/** The words to show for a failed sign-in: the issuer's own description when it gave one. */
function signInFailure(error: unknown): Error {
  if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
    return new Error(`Sign-in failed: ${error.error_description ?? error.error}`);
  }
  return new Error(`Sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
}

async function redeem(config: DashboardConfig, callbackUrl: URL): Promise<Session> {
  try {
    const pending = takePendingSignIn();
    const server = await discover(config);
    const client: oauth.Client = { client_id: config.clientId };
    const parameters = oauth.validateAuthResponse(server, client, callbackUrl, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), parameters, redirectUri(), pending.codeVerifier, {
      ...httpOptions(config),
      additionalParameters: { resource: config.managementAudience },
    });
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: true });
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (claims === undefined || tokens.id_token === undefined) throw new Error('the token response has no ID token');
    return {
      accessToken: tokens.access_token,
      idToken: tokens.id_token,
      email: typeof claims['email'] === 'string' ? claims['email'] : claims.sub,
    };
  } catch (error) {
    throw signInFailure(error);
  }
}

// A code is redeemed once per page load, however often React runs the effect that asks for it.
let redemption: Promise<Session> | undefined;

/** Validates the authorization response in the page's URL and exchanges its code for the tokens. */
export function completeSignIn(config: DashboardConfig): Promise<Session> {
  redemption ??= redeem(config, new URL(location.href));
  return redemption;
}

/** Ends the session here, then at the issuer (RP-initiated logout), which sends the browser back to the dashboard. */
export async function signOut(config: DashboardConfig, session: Session): Promise<void> {
  const url = endpoint(await discover(config), 'end_session_endpoint');
  url.search = new URLSearchParams({
    client_id: config.clientId,
    id_token_hint: session.idToken,
    post_logout_redirect_uri: redirectUri(),
  }).toString();
  clearSession();
  location.assign(url);
}
