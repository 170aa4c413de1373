import { invalid } from '../../errors.ts';
import { isPlainUrlHost } from '../domains/hostname.ts';
import { DEVELOPMENT_HOSTS, type SignInClientType } from './redirect-uris.ts';

/** As Auth0 bounds its "Allowed Origins". */
export const MAX_ALLOWED_ORIGINS = 20;
/** A host name's 253 characters, a scheme and a port. */
const MAX_ORIGIN_LENGTH = 300;
const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };
/** Pages of these schemes send `Origin: null` (a Cordova app's file:// pages too): such an entry could never match. */
const NO_ORIGIN_SCHEMES = new Set(['file', 'data', 'blob', 'about', 'javascript']);

interface Origin {
  readonly scheme: string;
  readonly host: string;
  readonly port: number | null;
}

/** `scheme://host[:port]`, as the Origin header carries it, or why it is not one. */
function parsedOrigin(origin: string): Origin | string {
  if (origin.length === 0 || origin.length > MAX_ORIGIN_LENGTH) return `must be 1 to ${MAX_ORIGIN_LENGTH} characters`;
  if (origin.toLowerCase() === 'null') return 'must not be null: every sandboxed or file: page sends the origin null';
  if (/[\s\p{Cc}]/u.test(origin)) return 'must not contain whitespace or control characters';
  if (/[^\x21-\x7e]/.test(origin)) return 'must be ASCII: an internationalized host in its xn-- form, as browsers send it';
  if (origin.includes('*')) return 'must not contain wildcards: origins are matched exactly';
  if (origin.includes('\\')) return 'must not contain a backslash';
  const [, writtenScheme] = /^([a-z][a-z0-9+.-]*):\/\//i.exec(origin) ?? [];
  if (writtenScheme === undefined) return 'must be scheme://host[:port], such as https://app.example.com or capacitor://localhost';
  const scheme = writtenScheme.toLowerCase();
  const authority = origin.slice(scheme.length + 3);
  if (authority.includes('@')) return 'must not contain user information';
  if (authority.includes('#')) return 'must not contain a fragment';
  if (authority.includes('?')) return 'must not contain a query';
  if (authority.includes('/')) return 'must not contain a path, not even a trailing /';
  const [, writtenHost = '', portText] = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority) ?? [];
  const host = writtenHost.toLowerCase();
  if (host === '') return `must name a host after ${scheme}://`;
  if (!isPlainUrlHost(host)) return 'must name its host by a domain name or IP address';
  const port = portText === undefined ? null : /^\d{1,5}$/.test(portText) ? Number(portText) : 0;
  if (port !== null && (port < 1 || port > 65535)) return 'must have a port of 1 to 65535 after its colon, or no colon';
  if (NO_ORIGIN_SCHEMES.has(scheme)) return `must not use ${scheme}: such a page sends the origin null`;
  if (scheme === 'http' || scheme === 'https') {
    // URL parsing rewrites some hosts (127.1 is 127.0.0.1): the Origin header carries the rewritten one.
    if (URL.parse(origin)?.hostname !== host) return 'must name its host as a browser writes it (127.0.0.1, not 127.1)';
    if (scheme === 'http' && !DEVELOPMENT_HOSTS.has(host)) return 'must use https (http only for localhost, 127.0.0.1 or [::1], while developing)';
  }
  return { scheme, host, port };
}

/** Lower case, the scheme's default port left out: the form a browser serializes an origin in (HTML, origin). */
function normalOrigin({ scheme, host, port }: Origin): string {
  return port === null || port === DEFAULT_PORTS[scheme] ? `${scheme}://${host}` : `${scheme}://${host}:${port}`;
}

/**
 * Normal form, duplicates dropped, order kept. A web client is confidential: the OP answers no browser for it, so it
 * has none (src/oidc/configuration.ts, clientBasedCORS).
 */
export function allowedOrigins(field: string, type: SignInClientType, origins: readonly string[]): string[] {
  if (type === 'web' && origins.length > 0) {
    throw invalid(field, 'a web client is confidential: its secret never reaches a browser, so it has no allowed origins (make an spa or native client)');
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) throw invalid(field, `${field} may hold at most ${MAX_ALLOWED_ORIGINS} origins`);
  const normal = origins.map((origin, index) => {
    const parsed = parsedOrigin(origin);
    if (typeof parsed === 'string') throw invalid(`${field}[${index}]`, `${JSON.stringify(origin)} ${parsed}`);
    return normalOrigin(parsed);
  });
  return [...new Set(normal)];
}
