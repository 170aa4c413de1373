import { createHash, randomBytes } from 'node:crypto';
import { generateClientSecret } from '../../src/auth/client-secrets.ts';
import { signJwt } from '../../src/auth/jwt.ts';
import { OAuthClient, type ClientAuthMethod, type OAuthClientType } from '../../src/db/entities/oauth-client.entity.ts';
import { newId } from '../../src/ids.ts';
import * as oidc from 'openid-client';
import type { SignIn } from '../../src/domain/sign-in/sign-in.ts';
import { finishInteraction, interactionResult } from '../../src/oidc/interactions.ts';
import type { TestApp } from './app.ts';
import { CookieJar, type Visit } from './cookie-jar.ts';
import type { FetchLike } from './host-fetch.ts';

export interface TestClientOptions {
  type?: OAuthClientType;
  authMethod?: ClientAuthMethod;
  applicationId?: string;
  tenantId?: string | null;
  permissions?: string[];
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  allowedOrigins?: string[];
  /** Public keys for private_key_jwt. */
  jwks?: { keys: Record<string, unknown>[] };
  /** A previous secret still inside (or past) its rotation grace period. */
  previousSecret?: { secret: string; expiresAt: Date };
  revoked?: boolean;
  /** Whether its users' tokens may be for the management API: true unless said, as the tests' tokens mostly are. */
  managementApi?: boolean;
}

export interface TestClient {
  clientId: string;
  /** The secret in clear, for the secret methods. */
  clientSecret: string | undefined;
}

/**
 * An OAuth client row written straight through the entity, as the management API does:
 * the OP's tests do not depend on those routes. Secrets are encrypted exactly as the service stores them.
 */
export async function createTestClient(app: TestApp, options: TestClientOptions = {}): Promise<TestClient> {
  const { clientSecrets, orm } = app.gatehouse.services;
  const type = options.type ?? 'm2m';
  const authMethod = options.authMethod ?? 'client_secret_basic';
  const usesSecret = authMethod === 'client_secret_basic' || authMethod === 'client_secret_post';
  const clientSecret = usesSecret ? generateClientSecret() : undefined;
  const em = orm.em.fork();
  const client = em.create(OAuthClient, {
    applicationId: options.applicationId ?? app.root.applicationId,
    id: newId(),
    tenantId: options.tenantId ?? null,
    type,
    name: `test ${type} client`,
    redirectUris: options.redirectUris ?? [],
    postLogoutRedirectUris: options.postLogoutRedirectUris ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    authMethod,
    secretEncrypted: clientSecret === undefined ? null : clientSecrets.encrypt(clientSecret),
    previousSecretEncrypted: options.previousSecret === undefined ? null : clientSecrets.encrypt(options.previousSecret.secret),
    previousSecretExpiresAt: options.previousSecret?.expiresAt ?? null,
    jwks: options.jwks ?? null,
    permissions: options.permissions ?? [],
    managementApi: options.managementApi ?? type !== 'm2m',
    revokedAt: options.revoked === true ? new Date() : null,
  });
  await em.flush();
  return { clientId: client.id, clientSecret };
}

/** openid-client's view of the service: discovery against the test app's (reachable) issuer. */
export async function discover(app: TestApp, clientId: string, auth: oidc.ClientAuth, metadata: Partial<oidc.ClientMetadata> = {}) {
  return oidc.discovery(new URL(app.gatehouse.services.config.publicUrl), clientId, metadata, auth, {
    execute: [oidc.allowInsecureRequests],
  });
}

/** openid-client's view of the sign-in surface at `issuer` (a tenant's path; a custom domain, reached by `fetchWith`) for `client`. */
export function discoverSurface(issuer: string, client: TestClient, fetchWith?: FetchLike): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), client.clientId, {}, oidc.ClientSecretBasic(client.clientSecret ?? ''), {
    execute: [oidc.allowInsecureRequests],
    ...(fetchWith === undefined ? {} : { [oidc.customFetch]: fetchWith }),
  });
}

/** The tokens of `flow` once `answer` sends the browser back to the client: its code redeemed (for `resource`, when given). */
export async function redeemAfter(config: oidc.Configuration, flow: AuthorizationFlow, answer: Visit, resource?: string) {
  const callback = await flow.jar.followOut(answer, config.serverMetadata().issuer);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, resource === undefined ? undefined : { resource });
}

/** The JWT's parts, unverified (the tests verify through the service's own endpoints). */
export function decodeJwt(token: string): { header: Record<string, any>; payload: Record<string, any> } {
  const [header, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
  return { header, payload };
}

/** A form POST, as an RP library would send it (for the refusals openid-client will not send). */
export async function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  let body: any = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, body, headers: response.headers };
}

export const basicAuth = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A minimal browser: a cookie jar and manual redirects (the OP's cookies bind an interaction to it). */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: init.method ?? (init.form === undefined ? 'GET' : 'POST'),
      headers,
      redirect: 'manual',
      ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form).toString() }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

export type AuthorizeOutcome =
  | { kind: 'redirect'; url: URL }
  /** The OP answered with a page (an error it would not redirect with). */
  | { kind: 'page'; status: number; body: string };

/**
 * Follows an authorization request as a browser does, standing in for the hosted sign-in pages: whenever the OP
 * sends the browser to `/interaction/:uid`, the interaction is answered through the seam of src/oidc/interactions.ts
 * with `signIn`. Ends at the first redirect to the request's redirect URI (the dashboard's is on the service's own
 * origin) or away from the service, or at a page.
 */
export async function authorize(app: TestApp, url: URL | string, signIn: SignIn, browser = new TestBrowser()): Promise<AuthorizeOutcome> {
  const origin = new URL(app.baseUrl).origin;
  let next = new URL(url);
  const redirectUri = next.searchParams.get('redirect_uri');
  const reachesClient = (target: URL) => target.origin !== origin || (redirectUri !== null && `${target.origin}${target.pathname}` === redirectUri);
  for (let hop = 0; hop < 10; hop += 1) {
    const response = await browser.request(next.href);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) {
      return { kind: 'page', status: response.status, body: await response.text() };
    }
    next = new URL(location, next);
    if (reachesClient(next)) return { kind: 'redirect', url: next };
    const uid = /^\/interaction\/([^/]+)$/.exec(next.pathname)?.[1];
    if (uid !== undefined) next = new URL(await answerInteraction(app, uid, signIn), next);
  }
  throw new Error('too many redirects');
}

/** What asks the OP for a refresh token: `offline_access`, which it grants only with `prompt=consent`. */
export const OFFLINE_CONSENT = { scope: 'openid offline_access', prompt: 'consent' } as const;
/** OFFLINE_CONSENT with the e-mail and profile claims. */
export const FULL_CONSENT = { ...OFFLINE_CONSENT, scope: 'openid email profile offline_access' } as const;

/**
 * A code for `signIn` through the hosted pages' seam (authorize): `config`'s client asks with PKCE S256, scope
 * `openid`, to `redirectUri` (`parameters` add or override). The redirect back to the client and the verifier.
 */
export async function codeThroughSeam(
  app: TestApp,
  config: oidc.Configuration,
  redirectUri: string,
  signIn: SignIn,
  parameters: Record<string, string> = {},
  browser?: TestBrowser,
): Promise<{ callback: URL; verifier: string }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...parameters,
  });
  const outcome = await authorize(app, url, signIn, browser);
  if (outcome.kind !== 'redirect') throw new Error(`expected a redirect, got ${outcome.status}: ${outcome.body.slice(0, 300)}`);
  return { callback: outcome.url, verifier };
}

/** What the hosted pages will do on `/interaction/:uid` once the user is authenticated. Returns where to resume. */
export async function answerInteraction(app: TestApp, uid: string, signIn: SignIn): Promise<string> {
  const { services } = app.gatehouse;
  const { provider } = await services.oidc.get();
  const interaction = await provider.Interaction.find(uid);
  if (interaction === undefined) throw new Error(`no interaction ${uid}`);
  // The pages answer a login once a credential is proven in the interaction: the seam's sign-in stands for one.
  const answered: SignIn = interaction.prompt.name === 'login' ? { ...signIn, provenHere: true } : signIn;
  return finishInteraction(interaction, await interactionResult(provider, services, interaction, answered));
}

/** What a token minted by the tests claims of its application, tenant and permissions (a type: it is a JWT payload). */
export type MintedClaims = {
  app_id: string;
  tenant_id?: string;
  permissions: string[];
};

/** A user's token carries no permissions: the user holds what their roles grant (test/support/roles.ts). */
export type UserClaims = Omit<MintedClaims, 'permissions'>;

/**
 * The claims of a client-credentials token of a new M2M credential holding `claims`' application, tenant and
 * permissions: `sub` is its `client_id`, as the OP sets them. The management API accepts a token only while the
 * credential behind it is live, so a minted token needs one.
 */
export async function liveM2MClaims(app: TestApp, claims: MintedClaims): Promise<{ subject: string; claims: MintedClaims & { client_id: string } }> {
  const { app_id: applicationId, tenant_id: tenantId, permissions } = claims;
  const { clientId } = await createTestClient(app, { applicationId, tenantId: tenantId ?? null, permissions });
  return { subject: clientId, claims: { ...claims, client_id: clientId } };
}

/**
 * The claims of a user's access token as the OP issues them at a sign-in: a new web client of the application and a
 * grant of the user's for it (the OP's `Grant` row, live for an hour), named by `client_id` and `grant_id`. The
 * management API accepts a user's token only while its client and grant stand.
 */
export async function liveUserClaims(
  app: TestApp,
  userId: string,
  claims: UserClaims,
): Promise<UserClaims & { client_id: string; grant_id: string }> {
  const { clientId } = await createTestClient(app, { applicationId: claims.app_id, type: 'web', redirectUris: ['https://app.example/callback'] });
  const grantId = newId();
  await app.gatehouse.services.orm.em.getConnection().execute(
    `insert into oidc_model (model, id, application_id, payload, expires_at) values ('Grant', ?, ?, ?::jsonb, now() + interval '1 hour')`,
    [grantId, claims.app_id, JSON.stringify({ kind: 'Grant', jti: grantId, accountId: userId, clientId })],
  );
  return { ...claims, client_id: clientId, grant_id: grantId };
}

/**
 * A management API access token as a sign-in surface would issue it (`iss` = that surface's issuer), signed with the
 * service's active key, for a live M2M credential: for the refusals no surface would mint (a tenant's surface
 * claiming another tenant).
 */
export async function mintSurfaceToken(app: TestApp, issuer: string, claims: MintedClaims): Promise<string> {
  const { signingKeys } = app.gatehouse.services;
  const [active] = (await signingKeys.privateJwks()).keys;
  const live = await liveM2MClaims(app, claims);
  return signJwt(active!, live.claims, { issuer, audience: signingKeys.managementAudience, subject: live.subject, expiresInSeconds: 300 });
}

/** An authorization request as a browser starts it, in its own cookie jar, with PKCE S256 and a state. */
export interface AuthorizationFlow {
  readonly jar: CookieJar;
  readonly verifier: string;
  readonly state: string;
  readonly start: Visit;
  /** The sign-in page (or, when the server refuses, its answer to the authorization request). */
  readonly page: Visit;
}

/** An authorization request for a code with PKCE S256: the URL, and what the client keeps to redeem the answer. */
export interface AuthorizationRequest {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
}

/**
 * The authorization URL of `config` for a code (`openid email`, the given redirect URI and resource; `parameters` add
 * or override, `resource: ''` asks for none), with a fresh PKCE verifier and state.
 */
export async function authorizationRequest(
  config: oidc.Configuration,
  defaults: { redirectUri: string; resource: string },
  parameters: Record<string, string> = {},
): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const all: Record<string, string> = {
    redirect_uri: defaults.redirectUri,
    scope: 'openid email',
    resource: defaults.resource,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...parameters,
  };
  if (all['resource'] === '') delete all['resource'];
  return { url: oidc.buildAuthorizationUrl(config, all), verifier, state };
}

/** Sends the browser to an authorization request (authorizationRequest) and follows it to the hosted sign-in page. */
export async function startAuthorization(
  config: oidc.Configuration,
  defaults: { redirectUri: string; resource: string },
  parameters: Record<string, string> = {},
  jar = new CookieJar(),
): Promise<AuthorizationFlow> {
  const { url, verifier, state } = await authorizationRequest(config, defaults, parameters);
  const start = await jar.visit(url.href);
  const page = start.location?.startsWith(`${url.origin}/interaction/`) === true ? await jar.visit(start.location) : start;
  return { jar, verifier, state, start, page };
}

/**
 * A code + PKCE S256 authorization URL at `issuer`, built without discovery (a fresh challenge, scope `openid`);
 * `parameters` add or override.
 */
export function codeAuthorizationUrl(issuer: string, clientId: string, redirectUri: string, parameters: Record<string, string> = {}): string {
  const url = new URL(`${issuer}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    ...parameters,
  }).toString();
  return url.href;
}

/** A public client's id and the redirect URI it is signed in with. */
export interface PublicClient {
  readonly clientId: string;
  readonly redirectUri: string;
}

/**
 * A user signed in through the hosted pages (their seam, src/oidc/interactions.ts) to `tenantId` (null: none) by
 * `client` (by default a new SPA client of the root application), which redeems the code for an access token of the
 * management API (`resource` = PUBLIC_URL/api/v1). Needs a test app whose PUBLIC_URL is reachable (discovery).
 */
export async function signInForManagement(app: TestApp, userId: string, tenantId: string | null, client?: PublicClient): Promise<string> {
  const { clientId, redirectUri } = client ?? (await newSpaClient(app));
  const config = await discover(app, clientId, oidc.None(), { redirect_uris: [redirectUri] });
  const resource = `${app.gatehouse.services.config.publicUrl}/api/v1`;
  const state = oidc.randomState();
  const { callback, verifier } = await codeThroughSeam(app, config, redirectUri, { userId, tenantId }, { state, resource });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, { resource });
  return tokens.access_token;
}

async function newSpaClient(app: TestApp): Promise<PublicClient> {
  const redirectUri = 'https://app.example/callback';
  const spa = await createTestClient(app, { type: 'spa', authMethod: 'none', redirectUris: [redirectUri] });
  return { clientId: spa.clientId, redirectUri };
}
