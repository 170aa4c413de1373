import * as oidc from 'openid-client';
import { AuthProvider } from '../../../db/entities/index.ts';
import { lackingScopes, subjectIssuer, type OAuthProvider } from '../../auth-providers/config.ts';
import { domainLog } from '../../../observability/log.ts';
import type { Reauthentication } from '../reauthentication.ts';
import { recordAttempt, type FactorRecord, type SignInTarget } from '../sign-in.ts';
import type { UpstreamMethod } from '../surface-settings.ts';
import { upstreamAccount, type UpstreamAccount } from './accounts.ts';
import { upstreamClient, type UpstreamProvider } from './client.ts';
import { upstreamIdentity, type UpstreamIdentity } from './identity.ts';

/**
 * Social and OIDC sign-in, apart from HTTP: authorization code with PKCE, `state`, and `nonce` for OIDC. The browser
 * carries the request's secrets between the two steps (sealed in a cookie: src/hosted/upstream.ts).
 */

export interface UpstreamRequest {
  readonly providerId: string;
  readonly redirectUri: string;
  readonly state: string;
  readonly codeVerifier: string;
  readonly nonce?: string;
  /** Sent as `max_age`: the ID token's `auth_time`, when it states one, is held to it. */
  readonly maxAge?: number;
}

/**
 * Which presets' authorization endpoints are told a fresh sign-in (`prompt=login`) and `max_age`. Google takes no
 * `prompt=login` (none, consent, select_account; another value is its error page), GitHub only `select_account`,
 * Apple documents neither; a generic provider is an OpenID provider, or an OAuth 2.0 one that ignores parameters it
 * does not know (RFC 6749 3.1).
 */
const PASSES_ON: Readonly<Record<OAuthProvider, { readonly prompt: boolean; readonly maxAge: boolean }>> = {
  google: { prompt: false, maxAge: true },
  microsoft: { prompt: true, maxAge: true },
  apple: { prompt: false, maxAge: false },
  github: { prompt: false, maxAge: false },
  generic: { prompt: true, maxAge: true },
};

function freshnessParameters(preset: OAuthProvider, reauthentication: Reauthentication): { prompt?: string; max_age?: string } {
  const passes = PASSES_ON[preset];
  return {
    ...(passes.prompt && reauthentication.fresh ? { prompt: 'login' } : {}),
    ...(passes.maxAge && reauthentication.maxAge !== undefined ? { max_age: String(reauthentication.maxAge) } : {}),
  };
}

/** The provider a surface offers (its button), or undefined: disabled, deleted, or not this surface's. */
export const offeredUpstream = (target: SignInTarget, providerId: string): UpstreamMethod | undefined =>
  target.upstreams.find((method) => method.providerId === providerId);

/** The provider as stored, its secrets opened. */
async function storedProvider(target: SignInTarget, method: UpstreamMethod): Promise<UpstreamProvider> {
  const { services } = target.scope;
  const provider = await target.applicationScope.em.findOneOrFail(AuthProvider, { id: method.providerId });
  const secrets = Object.fromEntries(Object.entries(provider.secrets ?? {}).map(([name, sealed]) => [name, services.storedSecrets.decrypt(sealed)]));
  return { id: provider.id, config: provider.config, secrets, updatedAt: provider.updatedAt };
}

/** `statePrefix` leads the random `state` (the hosted pages put the interaction there). */
export async function startUpstream(
  target: SignInTarget,
  method: UpstreamMethod,
  redirectUri: string,
  statePrefix: string,
  reauthentication: Reauthentication,
): Promise<{ url: URL; request: UpstreamRequest }> {
  const client = await upstreamClient(await storedProvider(target, method), target.scope.services.config.upstreams);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = `${statePrefix}${oidc.randomState()}`;
  const nonce = client.protocol === 'oidc' ? oidc.randomNonce() : undefined;
  const freshness = freshnessParameters(client.preset, reauthentication);
  // Only an ID token states auth_time: held to max_age where one is read.
  const maxAge = client.protocol === 'oidc' && freshness.max_age !== undefined ? reauthentication.maxAge : undefined;
  const url = oidc.buildAuthorizationUrl(client.configuration, {
    redirect_uri: redirectUri,
    scope: client.scopes.join(' '),
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    ...(nonce === undefined ? {} : { nonce }),
    ...(client.formPost ? { response_mode: 'form_post' } : {}),
    ...freshness,
  });
  return {
    url,
    request: { providerId: method.providerId, redirectUri, state, codeVerifier, ...(nonce === undefined ? {} : { nonce }), ...(maxAge === undefined ? {} : { maxAge }) },
  };
}

/** `scopesLacking`: refused for want of what the provider's stored scopes do not ask (config.ts lackingScopes), which the
 *  user cannot mend: the page says so. */
export type UpstreamSignIn =
  | (Extract<UpstreamAccount, { ok: true }> & { readonly record: FactorRecord })
  | (Extract<UpstreamAccount, { ok: false }> & { readonly scopesLacking?: true });

/**
 * A failed discovery, exchange or check of the upstream's answer is `upstream_error`, its cause logged through `log`.
 * Reading the provider, finding or linking the account is ours: its refusals and failures are thrown as they are.
 */
export async function finishUpstream(
  target: SignInTarget,
  method: UpstreamMethod,
  request: UpstreamRequest,
  parameters: URLSearchParams,
  address: string,
  log: (error: unknown) => void,
): Promise<UpstreamSignIn> {
  const provider = await storedProvider(target, method);
  const upstream = { providerId: method.providerId, provider: String(provider.config['provider']) };
  // A link is written only while the provider still asks this issuer (accounts.ts): a change of it removes links.
  const verified = { ...upstream, issuer: subjectIssuer(provider.config) };
  let identity: UpstreamIdentity;
  try {
    // Made again here when no longer kept (another instance started the sign-in, or the provider changed since): its
    // discovery failing is the upstream's failure too.
    const client = await upstreamClient(provider, target.scope.services.config.upstreams);
    const url = new URL(request.redirectUri);
    url.search = parameters.toString();
    identity = await upstreamIdentity(client, { url, state: request.state, codeVerifier: request.codeVerifier, nonce: request.nonce, maxAge: request.maxAge }, target.scope.services.config.upstreams.githubApiUrl);
  } catch (error) {
    log(error);
    await recordAttempt(target, { method: 'oauth', upstream, outcome: { ok: false, reason: 'upstream_error', user: null, email: null } });
    return { ok: false, reason: 'upstream_error', user: null };
  }
  const account = await upstreamAccount(target, method, verified, identity, address);
  if (account.ok) return { ...account, record: { method: 'oauth', upstream } };
  await recordAttempt(target, { method: 'oauth', upstream, outcome: { ok: false, reason: account.reason, user: account.user, email: identity.email } });
  const missing = account.reason === 'upstream_no_email' ? lackingScopes(provider.config) : undefined;
  if (missing === undefined) return account;
  domainLog().warn(
    { providerId: method.providerId, applicationId: target.application.id, missingScopes: missing.scopes },
    `upstream sign-in refused: auth provider ${method.providerId} is stored with scopes lacking ${missing.scopes.join(' or ')}, so no account can be found or made`,
  );
  return { ...account, scopesLacking: true };
}
