import * as oidc from 'openid-client';
import type { TestApp } from './app.ts';
import { answerInteraction, codeThroughSeam, discover, OFFLINE_CONSENT, TestBrowser } from './oauth.ts';

export interface OfflineSignIn {
  /** A public client (no authentication at the token endpoint) that may redirect to `redirectUri`. */
  clientId: string;
  redirectUri: string;
  userId: string;
  tenantId: string | null;
  /** An API the access token is for. */
  resource?: string;
  /** The browser whose session it is; by default one of its own. */
  browser?: TestBrowser;
  /** openid-client refuses a token response without an ID token. */
  idTokenExpected?: boolean;
}

/**
 * A sign-in through the OP (the hosted pages' seam) with consent to offline access: a grant, a browser session and
 * tokens with a refresh token.
 */
export async function offlineSignIn(app: TestApp, signIn: OfflineSignIn) {
  const { clientId, redirectUri, userId, tenantId, resource, browser, idTokenExpected } = signIn;
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [redirectUri] });
  const parameters = { ...OFFLINE_CONSENT, ...(resource === undefined ? {} : { resource }) };
  const { callback, verifier } = await codeThroughSeam(app, config, redirectUri, { userId, tenantId }, parameters, browser);
  const checks = { pkceCodeVerifier: verifier, ...(idTokenExpected === true ? { idTokenExpected } : {}) };
  const tokens = await oidc.authorizationCodeGrant(config, callback, checks, resource === undefined ? undefined : { resource });
  return { config, tokens };
}

/** Whether the OP refuses the refresh token as `invalid_grant` (false when it refreshes); any other failure throws. */
export async function refreshFails(config: oidc.Configuration, refreshToken: string): Promise<boolean> {
  try {
    await oidc.refreshTokenGrant(config, refreshToken);
    return false;
  } catch (error) {
    if ((error as { error?: string }).error === 'invalid_grant') return true;
    throw error;
  }
}

/**
 * A sign-in proven on the hosted pages (its interaction answered, as authorize does) whose browser has not come back to
 * the OP yet: the browser and where it would resume.
 */
export async function provenNotResumed(app: TestApp, signIn: Omit<OfflineSignIn, 'resource' | 'browser' | 'idTokenExpected'>) {
  const { clientId, redirectUri, userId, tenantId } = signIn;
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [redirectUri] });
  const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
  const browser = new TestBrowser();
  let next = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  for (let hop = 0; hop < 10; hop += 1) {
    const location = (await browser.request(next.href)).headers.get('location');
    if (location === null) break;
    next = new URL(location, next);
    const uid = /^\/interaction\/([^/]+)$/.exec(next.pathname)?.[1];
    if (uid !== undefined) return { browser, resume: new URL(await answerInteraction(app, uid, { userId, tenantId }), next) };
  }
  throw new Error('no interaction to answer');
}

/** Where `browser` lands from `url`: back at the client's `redirectUri` (`client`), or on one of the service's pages. */
export async function landing(browser: TestBrowser, url: URL, redirectUri: string): Promise<{ client: boolean; url: URL }> {
  let next = url;
  for (let hop = 0; hop < 10; hop += 1) {
    const location = (await browser.request(next.href)).headers.get('location');
    if (location === null) return { client: false, url: next };
    next = new URL(location, next);
    if (next.href.startsWith(redirectUri)) return { client: true, url: next };
  }
  throw new Error('too many redirects');
}
