/**
 * A small web app that signs its users in through Gatehouse (OpenID Connect, authorization code with PKCE, with
 * openid-client) and calls its own API, whose route verifies Gatehouse's access token with jose.
 *
 *   node examples/express-app/app.ts      (after setup.ts; serves APP_URL, http://localhost:4000 by default)
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { CONFIG_FILE, noAnswer, readConfig, SampleRefused, type SampleConfig } from './config.ts';

interface Session {
  /** Between /login and /callback: what the callback must match. */
  login?: { verifier: string; state: string; nonce: string };
  /** The ID token itself is kept for the sign-out: it tells Gatehouse whose session to end (`id_token_hint`). */
  user?: { claims: oidc.IDToken; accessToken: string; idToken: string };
}

const SESSION_COOKIE = 'sample_session';

const escape = (text: unknown) =>
  String(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`;

/** Why the API refused a request: 401 without a valid token, 403 with one that lacks the permission, 503 when it cannot tell. */
class ApiRefusal extends Error {
  readonly status: 401 | 403 | 503;
  constructor(status: 401 | 403 | 503, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * The backend's check, as README's "Protecting your own API": a Bearer access token signed by one of Gatehouse's keys
 * (its JWKS), issued by it, for this API (the audience is the API resource's identifier), of this app's tenant, holding
 * the permission. The tenant matters: a user of another tenant of the application may hold the same role there.
 */
export function accessTokenVerifier(config: SampleConfig, jwksUri: URL) {
  // Re-read within 30 s, as Gatehouse does: jose's default (10 minutes) would accept a revoked key's tokens that long.
  const jwks = createRemoteJWKSet(jwksUri, { cacheMaxAge: 30_000 });
  return async (authorization: string | undefined): Promise<JWTPayload> => {
    const token = /^Bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1];
    if (token === undefined) throw new ApiRefusal(401, 'a Bearer access token is required');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer: config.issuer, audience: config.apiIdentifier, typ: 'at+jwt' }));
    } catch (error) {
      // Gatehouse not answering for its keys says nothing of the token: the client may try again.
      if (error instanceof errors.JWKSTimeout || noAnswer(error) !== undefined) throw new ApiRefusal(503, 'cannot read Gatehouse’s keys (its JWKS): try again later');
      if (error instanceof errors.JOSEError) throw new ApiRefusal(401, `invalid access token: ${error.code}`);
      throw error;
    }
    if (payload['tenant_id'] !== config.tenantId) throw new ApiRefusal(403, `the token is not for tenant ${config.tenant}`);
    const permissions = payload['permissions'];
    if (!Array.isArray(permissions) || !permissions.includes(config.permission)) throw new ApiRefusal(403, `the token lacks ${config.permission}`);
    return payload;
  };
}

export async function createSampleApp(config: SampleConfig): Promise<express.Express> {
  const issuer = new URL(config.issuer);
  // openid-client refuses plain http unless told: only a local Gatehouse runs without TLS.
  const insecure = issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
  const op = await oidc.discovery(issuer, config.clientId, undefined, oidc.ClientSecretBasic(config.clientSecret), insecure);
  const verifyAccessToken = accessTokenVerifier(config, new URL(op.serverMetadata().jwks_uri as string));
  const redirectUri = `${config.appUrl}/callback`;

  // In memory, for the sample: a real app keeps sessions in its store.
  const sessions = new Map<string, Session>();
  const sessionIdOf = (request: Request) => /(?:^|;\s*)sample_session=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];
  const startSession = (response: Response, session: Session): Session => {
    const id = randomUUID();
    sessions.set(id, session);
    response.cookie(SESSION_COOKIE, id, { httpOnly: true, sameSite: 'lax', path: '/', secure: config.appUrl.startsWith('https:') });
    return session;
  };
  const endSession = (request: Request, response: Response) => {
    const id = sessionIdOf(request);
    if (id !== undefined) sessions.delete(id);
    response.clearCookie(SESSION_COOKIE, { path: '/' });
  };
  const sessionOf = (request: Request, response: Response): Session => {
    const id = sessionIdOf(request);
    return (id === undefined ? undefined : sessions.get(id)) ?? startSession(response, {});
  };

  const app = express();

  app.get('/', (request, response) => {
    const { user } = sessionOf(request, response);
    if (user === undefined) {
      response.send(page('Express sample', `<p>Not signed in.</p><p><a href="/login">Sign in with Gatehouse</a></p>`));
      return;
    }
    const { claims } = user;
    response.send(
      page(
        'Express sample',
        `<p id="who">Signed in as <strong>${escape(claims['email'] ?? claims.sub)}</strong> (user <code>${escape(claims.sub)}</code>)</p>` +
          `<p id="tenant">Tenant: <strong>${escape(config.tenant)}</strong> (<code>${escape(claims['tenant_id'])}</code>)</p>` +
          `<p><a href="/notes">Call the notes API</a></p><form method="post" action="/logout"><button>Sign out</button></form>`,
      ),
    );
  });

  app.get('/login', async (request, response) => {
    const session = sessionOf(request, response);
    const login = { verifier: oidc.randomPKCECodeVerifier(), state: oidc.randomState(), nonce: oidc.randomNonce() };
    session.login = login;
    const url = oidc.buildAuthorizationUrl(op, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(login.verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
      // The access token is for our API (RFC 8707), and the user signs in to our tenant.
      resource: config.apiIdentifier,
      tenant: config.tenant,
    });
    response.redirect(url.href);
  });

  app.get('/callback', async (request, response) => {
    const session = sessionOf(request, response);
    const { login } = session;
    if (login === undefined) {
      response.status(400).send(page('Sign-in failed', '<p>No sign-in was started here. <a href="/login">Sign in</a></p>'));
      return;
    }
    delete session.login;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        op,
        new URL(request.originalUrl, config.appUrl),
        { pkceCodeVerifier: login.verifier, expectedState: login.state, expectedNonce: login.nonce, idTokenExpected: true },
        { resource: config.apiIdentifier },
      );
    } catch (error) {
      // Gatehouse's error answer (RFC 6749 §4.1.2.1; access_denied: the user cancelled), or an answer that does not
      // check out: a page the user can act on; the details go to the log.
      const again = '<p><a href="/login">Try again</a></p>';
      if (error instanceof oidc.AuthorizationResponseError && error.error === 'access_denied') {
        response.status(400).send(page('Sign-in cancelled', `<p id="reason">The sign-in was cancelled or refused.</p>${again}`));
        return;
      }
      console.error('sign-in failed:', error);
      const reason = error instanceof oidc.AuthorizationResponseError ? `Gatehouse answered ${error.error}.` : 'Its answer could not be checked.';
      response.status(400).send(page('Sign-in failed', `<p id="reason">The sign-in did not complete. ${escape(reason)}</p>${again}`));
      return;
    }
    const claims = tokens.claims() as oidc.IDToken;
    // The authorization URL names the tenant, but the browser can change it: the ID token says where the user signed in.
    if (claims['tenant_id'] !== config.tenantId) {
      response.status(400).send(page('Sign-in failed', `<p id="reason">You signed in to another tenant than ${escape(config.tenant)}.</p><p><a href="/login">Try again</a></p>`));
      return;
    }
    // A new session id once signed in: an id planted in the browser before the sign-in (session fixation) stays anonymous.
    endSession(request, response);
    startSession(response, { user: { claims, accessToken: tokens.access_token, idToken: tokens.id_token! } });
    response.redirect('/');
  });

  // The page calls the API over HTTP, as another service would, with the user's access token.
  app.get('/notes', async (request, response) => {
    const { user } = sessionOf(request, response);
    if (user === undefined) {
      response.redirect('/login');
      return;
    }
    const answer = await fetch(`${config.appUrl}/api/notes`, { headers: { authorization: `Bearer ${user.accessToken}` } });
    const body = await answer.text();
    response.send(page('Notes API', `<p id="status">The API answered ${answer.status}</p><pre id="answer">${escape(body)}</pre><p><a href="/">Back</a></p>`));
  });

  app.get('/api/notes', async (request, response) => {
    try {
      const token = await verifyAccessToken(request.headers.authorization);
      response.json({ notes: [{ id: 1, text: 'Hello from the notes API' }], user: token.sub, tenant: token['tenant_id'], permissions: token['permissions'] });
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      if (error.status === 401) response.set('www-authenticate', 'Bearer');
      response.status(error.status).json({ error: error.message });
    }
  });

  // Gatehouse's session too (RP-initiated logout), else the next "Sign in" is silent; it returns to appUrl.
  app.post('/logout', (request, response) => {
    const id = sessionIdOf(request);
    const user = id === undefined ? undefined : sessions.get(id)?.user;
    endSession(request, response);
    if (user === undefined) {
      response.redirect('/');
      return;
    }
    response.redirect(oidc.buildEndSessionUrl(op, { id_token_hint: user.idToken, post_logout_redirect_uri: config.appUrl }).href);
  });

  // Anything else that fails: a plain page, never Express's default one with its stack trace and file paths.
  app.use((error: unknown, _request: Request, response: Response, _next: express.NextFunction) => {
    console.error(error);
    response.status(500).send(page('Something went wrong', '<p>The sample could not answer this request. <a href="/">Home</a></p>'));
  });

  return app;
}

/** When it cannot start (no gatehouse.local.json, Gatehouse not answering): one line on stderr and exit code 1. */
export async function startSample(configFile: URL = CONFIG_FILE): Promise<Server | 1> {
  let config: SampleConfig | undefined;
  let app: express.Express;
  try {
    config = readConfig(configFile);
    app = await createSampleApp(config);
  } catch (error) {
    const reason = noAnswer(error);
    if (reason !== undefined && config !== undefined) {
      console.error(`sample: cannot reach Gatehouse at ${config.issuer} (${reason}): start it (npm start), or run npm run example:setup with GATEHOUSE_URL set to its PUBLIC_URL`);
      return 1;
    }
    if (!(error instanceof SampleRefused)) throw error;
    console.error(`sample: ${error.message}`);
    return 1;
  }
  const { appUrl } = config;
  const port = Number(new URL(appUrl).port || 80);
  return app.listen(port, () => console.log(`Express sample on ${appUrl}`));
}

if (import.meta.main && (await startSample()) === 1) process.exitCode = 1;
