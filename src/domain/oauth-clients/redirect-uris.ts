import type { OAuthClientType } from '../../db/entities/oauth-client.entity.ts';
import { invalid } from '../../errors.ts';
import { isPlainUrlHost } from '../domains/hostname.ts';

/** M2M credentials are clients too, but redirect nowhere. */
export type SignInClientType = Exclude<OAuthClientType, 'm2m'>;

export const MAX_REDIRECT_URIS = 50;
const MAX_URI_LENGTH = 2000;

/** OAuth security BCP, section 2.1. */
export const DEVELOPMENT_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252, 7.3 and 8.3: native apps listen on a loopback IP literal, not `localhost`. */
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
/** The hosts oidc-provider reads as loopback: a native client's claimed https URI may name none of them. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252, 7.1 and 8.4: a private-use scheme is the app's reverse domain name, so it holds a period. */
const REVERSE_DNS_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+$/;

/** Whitespace, controls, format characters and other default-ignorables, which IDNA drops from a host: `app\u200b.example`
 *  would be stored as written and the code delivered to app.example. */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/** `%0d%0a` splits a header wherever the URI is written into one. */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;
const NON_ASCII = /[^\x20-\x7e]/;

function written(uri: string): { scheme: string; host?: { text: string; start: number; end: number } } | undefined {
  const match = /^([a-z][a-z0-9+.-]*):(\/\/(\[[^\]]*\]|[^/:?#]*))?/i.exec(uri);
  if (match === null) return undefined;
  const [, scheme = '', authority, host] = match;
  if (authority === undefined || host === undefined) return { scheme };
  const start = scheme.length + 3;
  return { scheme, host: { text: host, start, end: start + host.length } };
}

/** The OP matches the stored string, which is the normal form (normalRedirectUri): what is checked is what is used. */
export function redirectUriProblem(type: SignInClientType, uri: string): string | null {
  if (uri.length === 0 || uri.length > MAX_URI_LENGTH) return `must be 1 to ${MAX_URI_LENGTH} characters`;
  if (INVISIBLE.test(uri)) return 'must not contain whitespace, control, format or bidirectional characters';
  if (ENCODED_CONTROL.test(uri)) return 'must not contain a percent-encoded control character (such as %0D or %0A)';
  if (uri.includes('#')) return 'must not contain a fragment (RFC 6749, 3.1.2)';
  if (uri.includes('*')) return 'must not contain wildcards: redirect URIs are matched exactly';
  // A browser reads `\` as `/` in an http(s) URI: `https://app.example\@evil.example/` goes to evil.example.
  if (uri.includes('\\')) return 'must not contain a backslash (a browser reads it as /)';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain user information';
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const host = url.hostname.toLowerCase();
  const { host: writtenHost } = written(uri) ?? {};
  const special = scheme === 'https' || scheme === 'http';
  // URL parsing fills in what is missing (`https:app.example/cb`): the stored string would not be the URI used.
  if (special && (writtenHost === undefined || writtenHost.text === '')) return `must name its host after ${scheme}://`;
  // Only an http(s) host has an ASCII form (IDNA); anything else non-ASCII would be percent-encoded, stored ≠ used.
  const outsideHost = special && writtenHost !== undefined ? uri.slice(0, writtenHost.start) + uri.slice(writtenHost.end) : uri;
  if (NON_ASCII.test(outsideHost)) return 'must be ASCII but for an internationalized host name: percent-encode the rest (RFC 3986)';
  if (scheme === 'https') {
    if (!isPlainUrlHost(host)) return 'must name its host by a domain name or IP address';
    // RFC 8252 7.2: a claimed https URI names a host the publisher controls; the OP refuses a loopback one for a native client.
    if (type === 'native' && LOOPBACK_HOSTS.has(host)) return 'must not use a loopback host over https: use http://127.0.0.1:{port} (RFC 8252, 7.3)';
    return null;
  }
  if (scheme === 'http') {
    const allowed = type === 'native' ? LOOPBACK_IPS : DEVELOPMENT_HOSTS;
    // URL parsing normalizes hosts (http://127.1 reads as 127.0.0.1): written as allowed, so the client names what a browser uses.
    if (allowed.has(host) && writtenHost?.text.toLowerCase() === host) return null;
    return type === 'native'
      ? 'must use https, a private-use scheme (com.example.app:/callback) or the loopback http://127.0.0.1:{port} (RFC 8252)'
      : 'must use https (http only for localhost or 127.0.0.1, while developing)';
  }
  if (type === 'native') {
    return REVERSE_DNS_SCHEME.test(scheme)
      ? null
      : 'a private-use scheme must be a reverse domain name such as com.example.app (RFC 8252, 7.1)';
  }
  return 'must use https (http only for localhost or 127.0.0.1, while developing)';
}

/** Scheme lower-cased and, for http(s), the host as URL parsing reads it (the host a browser goes to); the rest as
 *  written, since the OP compares strings. */
export function normalRedirectUri(uri: string): string {
  const { scheme = '', host } = written(uri) ?? {};
  const lower = scheme.toLowerCase();
  const rest = uri.slice(scheme.length);
  if (host === undefined || (lower !== 'https' && lower !== 'http')) return lower + rest;
  return `${lower}://${new URL(uri).hostname}${uri.slice(host.end)}`;
}

/** Normal form, duplicates dropped, order kept. Device clients redirect nowhere (RFC 8628): theirs must be empty. */
export function redirectUris(field: string, type: SignInClientType, uris: readonly string[], required: boolean): string[] {
  if (type === 'device') {
    if (uris.length > 0) throw invalid(field, 'device clients have no redirect URIs (RFC 8628)');
    return [];
  }
  if (required && uris.length === 0) throw invalid(field, `${field} must hold at least one URI for a ${type} client`);
  if (uris.length > MAX_REDIRECT_URIS) throw invalid(field, `${field} may hold at most ${MAX_REDIRECT_URIS} URIs`);
  uris.forEach((uri, index) => {
    const problem = redirectUriProblem(type, uri);
    if (problem !== null) throw invalid(`${field}[${index}]`, `${JSON.stringify(uri)} ${problem}`);
  });
  return [...new Set(uris.map(normalRedirectUri))];
}

/** OIDC Registration 2: a web client's redirect URI rules (https, http on a development host, no fragment), same normal
 *  form. A device's users sign in on the device: it has none. */
export function initiateLoginUri(field: string, type: SignInClientType, uri: string | null): string | null {
  if (uri === null) return null;
  if (type === 'device') throw invalid(field, 'device clients have no login URI: their users sign in on the device (RFC 8628)');
  const problem = redirectUriProblem('web', uri);
  if (problem !== null) throw invalid(field, `${JSON.stringify(uri)} ${problem}`);
  return normalRedirectUri(uri);
}
