import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import Provider from 'oidc-provider';

/** An account of a test upstream: what its ID token and userinfo (or GitHub's API) say. */
export interface UpstreamAccount {
  readonly sub: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  /** Entra ID's "domain owner verified the e-mail" claim, which another issuer may state too. */
  readonly xms_edov?: boolean;
  readonly name?: string;
}

export interface TestUpstream {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Who the next authorization signs in (no login page: the upstream's interaction completes at once). */
  login: UpstreamAccount;
  /** Awaited before the token endpoint answers: Gatehouse's callback has read its provider and waits on the upstream. */
  beforeToken?: () => Promise<void>;
  close(): Promise<void>;
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * A second oidc-provider, the upstream OpenID provider of social sign-in tests, on loopback http at `port` (chosen
 * before, so that Gatehouse's providers can name its issuer before it starts), with one client whose redirect URIs are
 * Gatehouse's callback URLs. Its interaction signs in `login` at once (as its development login page would, without
 * the forms). Its cookies have names of their own: a browser keeps cookies per host, not per port, and Gatehouse's OP
 * on the same 127.0.0.1 uses oidc-provider's names.
 */
export async function startUpstreamIdp(options: { port: number; clientSecret: string; redirectUris: readonly string[] }): Promise<TestUpstream> {
  const { redirectUris } = options;
  const server = createServer();
  const issuer = await listen(server, options.port);
  const upstream: TestUpstream = {
    issuer,
    clientId: 'gatehouse',
    clientSecret: options.clientSecret,
    login: { sub: 'nobody' },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: upstream.clientId,
        client_secret: upstream.clientSecret,
        redirect_uris: [...redirectUris],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    cookies: { keys: [randomBytes(16).toString('hex')], names: { session: '_up_session', interaction: '_up_interaction', resume: '_up_resume' } },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name'] },
    pkce: { required: () => true },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: false } },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ ...upstream.login, sub }) }),
  });
  provider.use(async (ctx, next) => {
    if (ctx.path === '/token') await upstream.beforeToken?.();
    if (!ctx.path.startsWith('/interaction/')) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const grant = new provider.Grant({ accountId: upstream.login.sub, clientId: String(details.params['client_id']) });
    grant.addOIDCScope(String(details.params['scope']));
    const grantId = await grant.save();
    ctx.respond = false;
    await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: upstream.login.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  });
  const handle = provider.callback();
  server.on('request', (request, response) => void handle(request, response));
  return upstream;
}

export interface TestGitHub {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The user the next authorization signs in, and their e-mail addresses as GitHub's /user/emails lists them. */
  user: { id: number; login: string; name: string | null };
  emails: { email: string; primary: boolean; verified: boolean }[];
  close(): Promise<void>;
}

const body = async (request: IncomingMessage) => {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return new URLSearchParams(text);
};

/**
 * A GitHub-shaped OAuth 2.0 upstream (no OIDC): /login/oauth/authorize answers at once with a code for `user`,
 * /login/oauth/access_token redeems it (client secret and PKCE S256 checked), /user and /user/emails answer for its token.
 */
export async function startGitHub(): Promise<TestGitHub> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const server = createServer();
  const url = await listen(server);
  const github: TestGitHub = {
    url,
    clientId: 'Iv1.gatehouse',
    clientSecret: randomBytes(16).toString('hex'),
    user: { id: 4242, login: 'octocat', name: 'The Octocat' },
    emails: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  server.on('request', (request: IncomingMessage, response) => {
    void (async () => {
      const { pathname, searchParams } = new URL(request.url ?? '/', url);
      const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (pathname === '/login/oauth/authorize') {
        const code = randomBytes(8).toString('hex');
        codes.set(code, { challenge: searchParams.get('code_challenge') ?? '', redirectUri: searchParams.get('redirect_uri') ?? '' });
        const back = new URL(searchParams.get('redirect_uri')!);
        back.search = new URLSearchParams({ code, state: searchParams.get('state') ?? '' }).toString();
        return response.writeHead(302, { location: back.href }).end();
      }
      if (pathname === '/login/oauth/access_token' && request.method === 'POST') {
        const form = await body(request);
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const challenge = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (form.get('client_secret') !== github.clientSecret || issued === undefined || issued.challenge !== challenge || issued.redirectUri !== form.get('redirect_uri')) {
          return json(400, { error: 'bad_verification_code' });
        }
        const token = `gho_${randomBytes(8).toString('hex')}`;
        tokens.add(token);
        return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      }
      if (!tokens.has(request.headers.authorization?.replace(/^Bearer /, '') ?? '')) return json(401, { message: 'Bad credentials' });
      if (pathname === '/user') return json(200, github.user);
      if (pathname === '/user/emails') return json(200, github.emails);
      return json(404, { message: 'Not Found' });
    })();
  });
  return github;
}

/**
 * An upstream on loopback http whose discovery document puts its token, userinfo and JWKS endpoints under `elsewhere`
 * (where the service connects at the callback), and whose authorization endpoint answers at once with a code.
 * `padding` characters of filler make the document that much larger.
 */
export async function startDiscoveryUpstream(elsewhere: string, padding = 0): Promise<{ readonly issuer: string; close(): Promise<void> }> {
  const server = createServer();
  const issuer = await listen(server);
  server.on('request', (request: IncomingMessage, response) => {
    const { pathname, searchParams } = new URL(request.url ?? '/', issuer);
    if (pathname === '/.well-known/openid-configuration') {
      const document = {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${elsewhere}/token`,
        userinfo_endpoint: `${elsewhere}/userinfo`,
        jwks_uri: `${elsewhere}/jwks`,
        ...(padding === 0 ? {} : { padding: 'x'.repeat(padding) }),
      };
      return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
    }
    const back = new URL(searchParams.get('redirect_uri') ?? issuer);
    back.search = new URLSearchParams({ code: 'code', state: searchParams.get('state') ?? '' }).toString();
    return response.writeHead(302, { location: back.href }).end();
  });
  return { issuer, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An answer a scripted upstream endpoint gives instead of its own. */
export interface UpstreamReply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** How the scripted upstream signs its ID token: its JWKS key, a key of no JWKS, unsigned, or HS256 with the client secret. */
export type IdTokenSigning = 'jwks' | 'foreign' | 'none' | 'client_secret';

/**
 * An OpenID provider on loopback http whose every answer a test may change: discovery, the authorization answer's
 * parameters, the ID token's claims and signature, the whole token answer, and userinfo. Its authorization endpoint
 * answers at once with a code; the token endpoint answers for that code with an RS256 ID token of `account`, the
 * request's nonce, `iss` its issuer, `aud` its client, issued now for ten minutes. `reset()` restores all of it.
 */
export interface ScriptedUpstream {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The claims of the ID token and userinfo. */
  account: Record<string, unknown>;
  /** Changes the ID token's claims (as the upstream would sign them) before it is signed. */
  claims: (claims: Record<string, unknown>) => Record<string, unknown>;
  signing: IdTokenSigning;
  /** The parameters the authorization answer sends back (code and state by default). */
  answer: (parameters: Record<string, string>) => Record<string, string>;
  /** The token endpoint's answer, given the ID token it would send. */
  token: ((idToken: string) => UpstreamReply | Promise<UpstreamReply>) | undefined;
  /** What userinfo answers; `account` by default. */
  userinfo: Record<string, unknown> | undefined;
  /** Discovery's answer instead of its document. */
  discovery: UpstreamReply | undefined;
  /** The parameters of each authorization request it was sent, oldest first. */
  readonly authorizations: URLSearchParams[];
  reset(): void;
  close(): Promise<void>;
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const own = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'own', alg: 'RS256', use: 'sig' };
  const nonces = new Map<string, string | undefined>();
  const server = createServer();
  const issuer = await listen(server);
  const upstream: ScriptedUpstream = {
    issuer,
    clientId: 'gatehouse',
    clientSecret: randomBytes(16).toString('hex'),
    account: {},
    claims: (claims) => claims,
    signing: 'jwks',
    answer: (parameters) => parameters,
    token: undefined,
    userinfo: undefined,
    discovery: undefined,
    authorizations: [],
    reset() {
      this.account = { sub: 'nobody' };
      this.claims = (claims) => claims;
      this.signing = 'jwks';
      this.answer = (parameters) => parameters;
      this.token = undefined;
      this.userinfo = undefined;
      this.discovery = undefined;
      this.authorizations.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  upstream.reset();

  async function idToken(nonce: string | undefined): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = upstream.claims({ iss: issuer, aud: upstream.clientId, iat: now, exp: now + 600, ...(nonce === undefined ? {} : { nonce }), ...upstream.account });
    switch (upstream.signing) {
      case 'none':
        return new UnsecuredJWT(claims).encode();
      case 'client_secret':
        return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(upstream.clientSecret));
      case 'foreign':
        return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'own' }).sign(foreign.privateKey);
      case 'jwks':
        return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'own' }).sign(own.privateKey);
    }
  }

  server.on('request', (request: IncomingMessage, response) => {
    void (async () => {
      const { pathname, searchParams } = new URL(request.url ?? '/', issuer);
      const reply = (answer: UpstreamReply) => response.writeHead(answer.status ?? 200, answer.headers ?? { 'content-type': 'application/json' }).end(answer.body ?? '');
      const json = (value: unknown) => reply({ body: JSON.stringify(value) });
      if (pathname === '/.well-known/openid-configuration') {
        if (upstream.discovery !== undefined) return reply(upstream.discovery);
        return json({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          token_endpoint_auth_methods_supported: ['client_secret_post'],
        });
      }
      if (pathname === '/jwks') return json({ keys: [jwk] });
      if (pathname === '/authorize') {
        upstream.authorizations.push(searchParams);
        const code = randomBytes(8).toString('hex');
        nonces.set(code, searchParams.get('nonce') ?? undefined);
        const back = new URL(searchParams.get('redirect_uri')!);
        back.search = new URLSearchParams(upstream.answer({ code, state: searchParams.get('state') ?? '' })).toString();
        return response.writeHead(302, { location: back.href }).end();
      }
      if (pathname === '/token' && request.method === 'POST') {
        const form = await body(request);
        if (form.get('client_secret') !== upstream.clientSecret || !nonces.has(form.get('code') ?? '')) return reply({ status: 400, body: '{"error":"invalid_grant"}' });
        const token = await idToken(nonces.get(form.get('code')!));
        nonces.delete(form.get('code')!);
        if (upstream.token !== undefined) return reply(await upstream.token(token));
        return json({ access_token: randomBytes(8).toString('hex'), token_type: 'Bearer', expires_in: 600, id_token: token });
      }
      if (pathname === '/userinfo') return json(upstream.userinfo ?? upstream.account);
      return reply({ status: 404, body: '{}' });
    })();
  });
  return upstream;
}
