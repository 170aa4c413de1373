import * as oidc from 'openid-client';
import { hintedEmail } from '../sign-in.ts';
import type { OAuthProvider } from '../../auth-providers/config.ts';
import type { UpstreamClient } from './client.ts';
import { displayNameProblem, isControlFree } from '../../validate.ts';

export interface UpstreamIdentity {
  /** The user's stable id at the upstream (`sub`, GitHub's numeric user id). */
  readonly subject: string;
  /** Null unless an account could have it (the users' e-mail rule). */
  readonly email: string | null;
  /** Only a vouched-for address may find an existing account or make a new one. */
  readonly emailVerified: boolean;
  readonly name: string | null;
}

/** What the upstream's answer lacked or got wrong; thrown, as openid-client's own errors are. */
export class UpstreamAnswerError extends Error {}

export interface UpstreamCallback {
  readonly url: URL;
  readonly state: string;
  readonly codeVerifier: string;
  readonly nonce: string | undefined;
  /** The `max_age` the authorization request sent. */
  readonly maxAge: number | undefined;
}

/** Clocks apart by this much still agree on an `auth_time` (as on SAML's times). */
const AUTH_TIME_SKEW_SECONDS = 60;

/** OIDC Core 3.1.2.1: asked for `max_age`, a sign-in older than it is no answer. One stating no `auth_time` (Entra ID's is
 *  an optional claim, Google's a setting) is taken: the upstream was told, and `prompt=login` asked for a fresh one. */
function checkAuthTime(claims: oidc.IDToken, maxAge: number | undefined): void {
  if (maxAge === undefined || typeof claims.auth_time !== 'number') return;
  if (Date.now() / 1000 - claims.auth_time > maxAge + AUTH_TIME_SKEW_SECONDS) throw new UpstreamAnswerError('the upstream signed the user in longer ago than max_age');
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** OIDC Core 2: a `sub` is at most 255 ASCII characters. Longer, or with a control character, it is no subject: the link
 *  keeps it in a unique index, which refuses a NUL or a few kilobytes. */
const MAX_SUBJECT_LENGTH = 255;

/** Whoever holds the upstream account writes its name: one the users' rule refuses is none, as an address is. */
function upstreamName(value: unknown): string | null {
  const name = stringOrNull(value)?.trim();
  return name === undefined || displayNameProblem(name) !== undefined ? null : name;
}

/** Apple's ID token has no name: only its first answer's `user` form field (unsigned) holds it; its e-mail is not read. */
export function appleUserName(answer: URLSearchParams): string | null {
  let user: unknown;
  try {
    user = JSON.parse(answer.get('user') ?? 'null');
  } catch {
    return null;
  }
  const name = (user as { name?: { firstName?: unknown; lastName?: unknown } } | null)?.name;
  const parts = [name?.firstName, name?.lastName].flatMap((part) => (typeof part === 'string' && part.trim() !== '' ? [part.trim()] : []));
  return upstreamName(parts.join(' '));
}

/** Apple writes `email_verified` as a string. Entra ID states none but `xms_edov` (the domain's owner verified it), read
 *  only from the `microsoft` preset (elsewhere it means whatever the issuer lets it) and never over `email_verified`. */
export function emailVerified(preset: OAuthProvider, claims: Readonly<Record<string, unknown>>): boolean {
  const stated = claims['email_verified'];
  if (stated !== undefined) return stated === true || stated === 'true';
  return preset === 'microsoft' && (claims['xms_edov'] === true || claims['xms_edov'] === '1' || claims['xms_edov'] === 'true');
}

function identityOf(preset: OAuthProvider, claims: Readonly<Record<string, unknown>>): UpstreamIdentity {
  const subject = stringOrNull(claims['sub']);
  if (subject === null) throw new UpstreamAnswerError('the upstream named no subject');
  if (subject.length > MAX_SUBJECT_LENGTH || !isControlFree(subject)) throw new UpstreamAnswerError('the upstream named a subject over 255 characters or with a control character');
  // An upstream address the users' rule refuses is treated as none (hintedEmail applies that rule).
  const email = hintedEmail(claims['email']) ?? null;
  return { subject, email, emailVerified: email !== null && emailVerified(preset, claims), name: upstreamName(claims['name']) };
}

interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

async function gitHubJson(client: UpstreamClient, accessToken: string, url: string): Promise<unknown> {
  const headers = new Headers({ accept: 'application/vnd.github+json' });
  const response = await oidc.fetchProtectedResource(client.configuration, accessToken, new URL(url), 'GET', undefined, headers);
  if (!response.ok) throw new UpstreamAnswerError(`GitHub answered ${response.status} at ${new URL(url).pathname}`);
  return response.json();
}

async function gitHubIdentity(client: UpstreamClient, accessToken: string, apiUrl: string): Promise<UpstreamIdentity> {
  const user = (await gitHubJson(client, accessToken, `${apiUrl}/user`)) as { id?: unknown; name?: unknown; login?: unknown };
  if (typeof user.id !== 'number' && typeof user.id !== 'string') throw new UpstreamAnswerError('GitHub named no user id');
  const emails = await gitHubJson(client, accessToken, `${apiUrl}/user/emails`);
  const primary = Array.isArray(emails) ? (emails as GitHubEmail[]).find((entry) => entry.primary === true) : undefined;
  // The login (letters, digits and hyphens) stands in for a display name that is absent or refused.
  return identityOf('github', { sub: String(user.id), email: primary?.email, email_verified: primary?.verified, name: upstreamName(user.name) ?? user.login });
}

/** PKCE, `state` and `nonce` are checked by openid-client; throws on any refusal. */
export async function upstreamIdentity(client: UpstreamClient, callback: UpstreamCallback, githubApiUrl: string): Promise<UpstreamIdentity> {
  const { configuration, protocol } = client;
  // A provider of endpoints alone names no issuer to check RFC 9207's `iss` against: its own callback URL is the
  // mix-up defence (RFC 9700 4.4.2).
  const url = new URL(callback.url);
  if (protocol === 'userinfo') url.searchParams.delete('iss');
  const tokens = await oidc.authorizationCodeGrant(configuration, url, {
    pkceCodeVerifier: callback.codeVerifier,
    expectedState: callback.state,
    ...(protocol === 'oidc' ? { expectedNonce: callback.nonce, idTokenExpected: true } : {}),
  });
  if (protocol === 'github') return gitHubIdentity(client, tokens.access_token, githubApiUrl);
  if (protocol === 'userinfo') return identityOf(client.preset, await oidc.fetchUserInfo(configuration, tokens.access_token, oidc.skipSubjectCheck));
  const claims = tokens.claims()!;
  checkAuthTime(claims, callback.maxAge);
  if (claims['email'] === undefined && configuration.serverMetadata().userinfo_endpoint !== undefined) {
    return identityOf(client.preset, { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub)), sub: claims.sub });
  }
  return identityOf(client.preset, client.preset === 'apple' && claims['name'] === undefined ? { ...claims, name: appleUserName(callback.url.searchParams) } : claims);
}
