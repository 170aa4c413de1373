import * as oidc from 'openid-client';
import type { TestApp } from './app.ts';
import { codeThroughSeam, discover, OFFLINE_CONSENT, type TestBrowser } from './oauth.ts';

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
