import * as oauth from 'oauth4webapi';
import type { DashboardConfig } from './config.ts';
import { clearSession, getSession, saveSession, type Session } from './session.ts';

/** What the callback must match (state) and prove (PKCE verifier), where the operator was, and which organization's
 *  client asked: the callback's page is served without `?organization=`, so with the oldest organization's client. */
interface PendingSignIn {
  readonly state: string;
  readonly codeVerifier: string;
  readonly returnTo: string;
  readonly clientId: string;
  readonly organizationId: string;
}

const PENDING_KEY = 'gatehouse.dashboard.pending-sign-in';
// offline_access for a refresh token, which OIDC Core grants only with prompt=consent (implicit for a first-party client).
const SCOPE = 'openid profile email offline_access';
/** How long before its expiry an access token is renewed, so that none expires in flight. */
const RENEWAL_MARGIN_MS = 60_000;

export function redirectUri(): string {
  return `${location.origin}/dashboard/`;
}

export function isAuthorizationResponse(url: URL): boolean {
  return url.searchParams.has('code') || url.searchParams.has('error');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The dashboard to load after the issuer's sign-out (`?state=`, the organization signed out of): the post-logout page is
 *  the oldest organization's. Null on any other page. */
export function afterSignOut(url: URL, config: DashboardConfig): string | null {
  const organizationId = url.searchParams.get('state');
  if (organizationId === null || isAuthorizationResponse(url)) return null;
  return redirectUri() + (organizationId !== config.organizationId && UUID.test(organizationId) ? `?organization=${organizationId}` : '');
}

// oauth4webapi refuses plain HTTP unless told; a local issuer (http://localhost:3000) is served that way.
function httpOptions(config: DashboardConfig): { [oauth.allowInsecureRequests]?: boolean } {
  return { [oauth.allowInsecureRequests]: config.issuer.protocol === 'http:' };
}

let discovery: Promise<oauth.AuthorizationServer> | undefined;

function discover(config: DashboardConfig): Promise<oauth.AuthorizationServer> {
  discovery ??= oauth
    .discoveryRequest(config.issuer, httpOptions(config))
    .then((response) => oauth.processDiscoveryResponse(config.issuer, response))
    .catch((error: unknown) => {
      discovery = undefined;
      throw error;
    });
  return discovery;
}

function endpoint(server: oauth.AuthorizationServer, name: 'authorization_endpoint' | 'end_session_endpoint'): URL {
  const url = server[name];
  if (url === undefined) throw new Error(`The issuer's discovery document has no ${name}.`);
  return new URL(url);
}

const clientOf = (clientId: string): oauth.Client => ({ client_id: clientId });

export async function signIn(config: DashboardConfig): Promise<void> {
  const server = await discover(config);
  const pending: PendingSignIn = {
    state: oauth.generateRandomState(),
    codeVerifier: oauth.generateRandomCodeVerifier(),
    returnTo: location.search + location.hash,
    clientId: config.clientId,
    organizationId: config.organizationId,
  };
  const url = endpoint(server, 'authorization_endpoint');
  url.search = new URLSearchParams({
    client_id: config.clientId,
    response_type: 'code',
    scope: SCOPE,
    prompt: 'consent',
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

function signInFailure(error: unknown): Error {
  if (error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError) {
    return new Error(`Sign-in failed: ${error.error_description ?? error.error}`);
  }
  return new Error(`Sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
}

/** The session a token response gives; a refresh's response may leave out the ID token and the refresh token, kept then. */
function sessionOf(tokens: oauth.TokenEndpointResponse, previous: Session | PendingSignIn): Session {
  const before = 'idToken' in previous ? previous : null;
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  const idToken = tokens.id_token ?? before?.idToken;
  if (idToken === undefined) throw new Error('the token response has no ID token');
  const email = claims?.['email'];
  return {
    id: before?.id ?? crypto.randomUUID(),
    accessToken: tokens.access_token,
    expiresAt: Date.now() + (tokens.expires_in ?? 0) * 1000,
    refreshToken: tokens.refresh_token ?? before?.refreshToken ?? null,
    idToken,
    email: typeof email === 'string' ? email : (before?.email ?? claims?.sub ?? ''),
    subject: claims?.sub ?? before?.subject ?? '',
    clientId: previous.clientId,
    organizationId: previous.organizationId,
  };
}

export interface CompletedSignIn {
  readonly session: Session;
  readonly returnTo: string;
}

async function redeem(config: DashboardConfig, callbackUrl: URL): Promise<CompletedSignIn> {
  try {
    const pending = takePendingSignIn();
    const server = await discover(config);
    const client = clientOf(pending.clientId);
    const parameters = oauth.validateAuthResponse(server, client, callbackUrl, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(server, client, oauth.None(), parameters, redirectUri(), pending.codeVerifier, {
      ...httpOptions(config),
      additionalParameters: { resource: config.managementAudience },
    });
    const tokens = await oauth.processAuthorizationCodeResponse(server, client, response, { requireIdToken: true });
    return { session: sessionOf(tokens, pending), returnTo: pending.returnTo };
  } catch (error) {
    throw signInFailure(error);
  }
}

// A code is redeemed once per page load, however often React runs the effect that asks for it.
let redemption: Promise<CompletedSignIn> | undefined;

export function completeSignIn(config: DashboardConfig): Promise<CompletedSignIn> {
  redemption ??= redeem(config, new URL(location.href));
  return redemption;
}

async function renew(config: DashboardConfig, session: Session): Promise<Session> {
  if (session.refreshToken === null) throw new Error('no refresh token');
  const server = await discover(config);
  const client = clientOf(session.clientId);
  const response = await oauth.refreshTokenGrantRequest(server, client, oauth.None(), session.refreshToken, {
    ...httpOptions(config),
    additionalParameters: { resource: config.managementAudience },
  });
  return sessionOf(await oauth.processRefreshTokenResponse(server, client, response), session);
}

// One renewal at a time: the refresh token is rotated, and a second use of the old one would revoke the grant.
let renewal: Promise<Session> | undefined;

/** When no new access token can be had (grant revoked, operator suspended, network down) the session ends and the page
 *  asks to sign in again. */
export function renewSession(config: DashboardConfig, session: Session): Promise<Session> {
  // Renewed already since `session` was read (two calls refused at once): its refresh token is spent.
  const current = getSession();
  if (renewal === undefined && current !== null && current.accessToken !== session.accessToken) return Promise.resolve(current);
  renewal ??= renew(config, session)
    .then(
      (renewed) => {
        saveSession(renewed);
        return renewed;
      },
      (error: unknown) => {
        clearSession(
          // The issuer's refusal (invalid_grant), else no answer at all.
          error instanceof oauth.ResponseBodyError
            ? 'the issuer refused to renew it (signed out in another tab, revoked, or the operator suspended).'
            : `it could not be renewed (${error instanceof Error ? error.message : String(error)}).`,
        );
        throw new Error('Your session has ended: sign in again.');
      },
    )
    .finally(() => {
      renewal = undefined;
    });
  return renewal;
}

export async function liveSession(config: DashboardConfig): Promise<Session> {
  const session = getSession();
  if (session === null) throw new Error('You are signed out.');
  if (session.expiresAt - RENEWAL_MARGIN_MS > Date.now()) return session;
  return renewSession(config, session);
}

/** Revokes the refresh token (it outlives the issuer's browser session), then signs out at the issuer (RP-initiated
 *  logout), which sends the browser back with the organization as `state` (afterSignOut). */
export async function signOut(config: DashboardConfig, session: Session): Promise<void> {
  const server = await discover(config);
  if (session.refreshToken !== null) {
    const response = await oauth.revocationRequest(server, clientOf(session.clientId), oauth.None(), session.refreshToken, httpOptions(config));
    await oauth.processRevocationResponse(response);
  }
  const url = endpoint(server, 'end_session_endpoint');
  url.search = new URLSearchParams({
    client_id: session.clientId,
    id_token_hint: session.idToken,
    post_logout_redirect_uri: redirectUri(),
    state: session.organizationId,
  }).toString();
  clearSession();
  location.assign(url);
}
