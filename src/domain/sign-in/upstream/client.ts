import * as oidc from 'openid-client';
import { LRUCache } from 'lru-cache';
import { signAppleClientSecret } from '../../../auth/jwt.ts';
import type { UpstreamConfig } from '../../../config.ts';
import { acceptedScheme, upstreamReach, type OAuthProvider } from '../../auth-providers/config.ts';
import { guardedFetch } from './guarded-fetch.ts';

/** OIDC discovery where the provider publishes it; configured endpoints for GitHub (plain OAuth 2.0) and the rest. */

export interface UpstreamProvider {
  readonly id: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, string>>;
  readonly updatedAt: Date;
}

export type UpstreamProtocol = 'oidc' | 'github' | 'userinfo';

export interface UpstreamClient {
  /** The provider's preset: some claims mean something only from their own issuer (Entra ID's `xms_edov`). */
  readonly preset: OAuthProvider;
  readonly configuration: oidc.Configuration;
  readonly protocol: UpstreamProtocol;
  readonly scopes: readonly string[];
  /** Apple answers with a form POST when it is asked for the user's name or e-mail. */
  readonly formPost: boolean;
}

const CLIENT_TTL_MS = 3_600_000;

/** Microsoft's `common` issuer: any Entra ID tenant or personal account. */
const DISCOVERED_ISSUERS: Partial<Record<OAuthProvider, string>> = {
  google: 'https://accounts.google.com',
  microsoft: 'https://login.microsoftonline.com/common/v2.0',
  apple: 'https://appleid.apple.com',
};

/** Keyed by id and updatedAt (a change is a new client), kept an hour so discovery need not run per request; discovery's
 *  client is kept whole, as openid-client attaches what it learned (Entra ID's issuer template). */
const clients = new LRUCache<string, UpstreamClient>({ max: 1_000, ttl: CLIENT_TTL_MS });

/** Only on loopback, where the service allows it. */
const allowsHttp = (url: string, upstreams: UpstreamConfig): boolean => new URL(url).protocol === 'http:' && acceptedScheme(new URL(url), upstreams);

function text(config: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = config[name];
  return typeof value === 'string' ? value : undefined;
}

async function configuration(provider: UpstreamProvider, upstreams: UpstreamConfig, auth: oidc.ClientAuth): Promise<{ configuration: oidc.Configuration; protocol: UpstreamProtocol }> {
  const preset = text(provider.config, 'provider') as OAuthProvider;
  const clientId = text(provider.config, 'clientId')!;
  const issuer = DISCOVERED_ISSUERS[preset] ?? text(provider.config, 'issuer');
  // Discovery and every endpoint it or the administrator names go through the guard; GitHub's URLs are the operator's
  // own (GITHUB_URL), as trusted as the rest of the environment.
  const customFetch = guardedFetch(upstreamReach(upstreams));
  if (preset !== 'github' && issuer !== undefined) {
    const execute = allowsHttp(issuer, upstreams) ? [oidc.allowInsecureRequests] : [];
    return { configuration: await oidc.discovery(new URL(issuer), clientId, undefined, auth, { execute, [oidc.customFetch]: customFetch }), protocol: 'oidc' };
  }
  const [server, protocol]: [oidc.ServerMetadata, UpstreamProtocol] =
    preset === 'github'
      ? [
          {
            issuer: upstreams.githubUrl,
            authorization_endpoint: `${upstreams.githubUrl}/login/oauth/authorize`,
            token_endpoint: `${upstreams.githubUrl}/login/oauth/access_token`,
          },
          'github',
        ]
      : [
          {
            issuer: new URL(text(provider.config, 'authorizationUrl')!).origin,
            authorization_endpoint: text(provider.config, 'authorizationUrl')!,
            token_endpoint: text(provider.config, 'tokenUrl')!,
            userinfo_endpoint: text(provider.config, 'userInfoUrl')!,
          },
          'userinfo',
        ];
  const configured = new oidc.Configuration(server, clientId, undefined, auth);
  if (protocol === 'userinfo') configured[oidc.customFetch] = withoutIdToken(customFetch, server.token_endpoint!);
  const urls = [server.authorization_endpoint, server.token_endpoint, server.userinfo_endpoint];
  if (urls.some((url) => url !== undefined && allowsHttp(url, upstreams))) oidc.allowInsecureRequests(configured);
  return { configuration: configured, protocol };
}

/** A provider of endpoints alone names no issuer (the one it is given is the authorization URL's origin): an ID token an
 *  OpenID provider adds for `openid` is left unread, as its `iss` could match none. The identity is userinfo's. */
function withoutIdToken(fetch: oidc.CustomFetch, tokenUrl: string): oidc.CustomFetch {
  return async (url, options) => {
    const response = await fetch(url, options);
    if (url !== tokenUrl || !response.ok) return response;
    const text = await response.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const body = typeof answer === 'object' && answer !== null && 'id_token' in answer ? JSON.stringify({ ...answer, id_token: undefined }) : text;
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** For Apple the client secret is a JWT signed with the stored key (valid longer than the client is kept). */
export async function upstreamClient(provider: UpstreamProvider, upstreams: UpstreamConfig): Promise<UpstreamClient> {
  const key = `${provider.id}:${provider.updatedAt.getTime()}`;
  const kept = clients.get(key);
  if (kept !== undefined) return kept;
  const clientId = text(provider.config, 'clientId')!;
  const apple = text(provider.config, 'provider') === 'apple';
  const clientSecret = apple
    ? await signAppleClientSecret(
        { teamId: text(provider.config, 'teamId')!, keyId: text(provider.config, 'keyId')!, clientId, privateKey: provider.secrets['privateKey']! },
        (2 * CLIENT_TTL_MS) / 1000,
      )
    : provider.secrets['clientSecret']!;
  const scopes = Array.isArray(provider.config['scopes']) ? (provider.config['scopes'] as string[]) : [];
  const client = {
    preset: text(provider.config, 'provider') as OAuthProvider,
    ...(await configuration(provider, upstreams, oidc.ClientSecretPost(clientSecret))),
    scopes,
    formPost: apple && scopes.some((scope) => scope === 'name' || scope === 'email'),
  };
  clients.set(key, client);
  return client;
}
