import { expect } from 'vitest';
import * as oidc from 'openid-client';
import type { Config } from '../../src/config.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { CookieJar, type Visit } from './cookie-jar.ts';
import { createTestClient, discover, startAuthorization, type AuthorizationFlow, type TestClient } from './oauth.ts';

/** Where the hosted-page suites' web client is sent back after a sign-in, and after a sign-out. */
export const REDIRECT_URI = 'https://app.example/callback';
export const POST_LOGOUT_URI = 'https://app.example/signed-out';

/** A test app whose public URL is reachable, with a confidential web client an RP drives through the hosted pages. */
export interface HostedTestApp {
  readonly app: TestApp;
  readonly issuer: string;
  readonly client: TestClient;
  /** openid-client's configuration of `client` (client_secret_basic). */
  readonly config: oidc.Configuration;
  /**
   * An authorization request of `configuration` (the web client's unless given; code + PKCE, `openid email`, no
   * resource; `parameters` add or override) in `jar`, followed to the hosted page when the OP sends the browser there.
   */
  authorize(parameters?: Record<string, string>, jar?: CookieJar, configuration?: oidc.Configuration): Promise<AuthorizationFlow>;
  /** The hosted sign-in page of a fresh `openid` request (as authorize): the OP must send the browser there. */
  signInPage(parameters?: Record<string, string>, jar?: CookieJar, configuration?: oidc.Configuration): Promise<{ jar: CookieJar; page: Visit }>;
  /**
   * Posts `values` (e-mail, password) on the sign-in page of a new request of the web client, follows the answers out
   * to the client and redeems the code (for the request's `resource`, when it names one).
   */
  signIn(values: Record<string, string>, parameters?: Record<string, string>, jar?: CookieJar): Promise<{ flow: AuthorizationFlow; tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers }>;
  close(): Promise<void>;
}

export async function startHostedTestApp(
  overrides: Partial<Config> = {},
  options: TestAppOptions & { postLogoutRedirectUris?: string[] } = {},
): Promise<HostedTestApp> {
  const { postLogoutRedirectUris, ...appOptions } = options;
  const app = await startTestApp(overrides, { ...appOptions, reachablePublicUrl: true });
  return hostedPagesOf(app, postLogoutRedirectUris);
}

/** The hosted pages of an app already started with a reachable public URL (as startHostedTestApp's), through a new web client. */
export async function hostedPagesOf(app: TestApp, postLogoutRedirectUris?: string[]): Promise<HostedTestApp> {
  const issuer = app.gatehouse.services.config.publicUrl;
  const client = await createTestClient(app, { type: 'web', redirectUris: [REDIRECT_URI], ...(postLogoutRedirectUris === undefined ? {} : { postLogoutRedirectUris }) });
  const config = await discover(app, client.clientId, oidc.ClientSecretBasic(client.clientSecret ?? ''));

  const authorize: HostedTestApp['authorize'] = (parameters = {}, jar = new CookieJar(), configuration = config) =>
    startAuthorization(configuration, { redirectUri: REDIRECT_URI, resource: '' }, parameters, jar);

  return {
    app,
    issuer,
    client,
    config,
    authorize,
    async signInPage(parameters = {}, jar = new CookieJar(), configuration = config) {
      const { start, page } = await authorize({ scope: 'openid', ...parameters }, jar, configuration);
      expect(start.location, start.body.slice(0, 300)).toMatch(new RegExp(`^${issuer}/interaction/`));
      return { jar, page };
    },
    async signIn(values, parameters = {}, jar = new CookieJar()) {
      const flow = await authorize(parameters, jar);
      expect(flow.page.status, flow.page.body.slice(0, 500)).toBe(200);
      const callback = await flow.jar.followOut(await flow.jar.submit(flow.page, values), issuer);
      const resource = parameters['resource'];
      const tokens = await oidc.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: flow.verifier, expectedState: flow.state },
        resource === undefined || resource === '' ? {} : { resource },
      );
      return { flow, tokens };
    },
    close: () => app.close(),
  };
}
