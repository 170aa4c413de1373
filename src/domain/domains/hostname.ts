import { isIP } from 'node:net';
import { invalid } from '../../errors.ts';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level label is alphabetic or an IDNA A-label: never all digits, so no IPv4 address passes. */
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A fully qualified domain name as a custom domain or WebAuthn RP id: at least two labels, ASCII (internationalized
 * names in their `xn--` form), no scheme, port, path, trailing dot or IP address. Returned lower-case.
 */
export function hostname(field: string, value: string): string {
  const name = value.toLowerCase();
  const problem = hostnameProblem(name);
  if (problem !== undefined) throw invalid(field, `${field} must be a fully qualified domain name (${problem})`);
  return name;
}

/** What keeps a lower-case name from being a fully qualified domain name (see `hostname`), or undefined when it is one. */
export function hostnameProblem(name: string): string | undefined {
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) return 'not an IP address';
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name) || /[/:?#@\s]/.test(name)) return 'no scheme, port, path or spaces';
  if (name.length > 253) return 'at most 253 characters';
  const labels = name.split('.');
  if (labels.length < 2) return 'at least two labels, e.g. login.example.com';
  if (!labels.every((label) => LABEL.test(label))) {
    return 'labels of 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen, and no trailing dot';
  }
  if (!TOP_LABEL.test(labels.at(-1) as string)) return 'the top-level label must be alphabetic';
  return undefined;
}

/**
 * Whether a URL's host, as the URL parser leaves it (lower-case, `xn--` labels), is DNS labels or an IP literal. The
 * parser lets `;`, `,` and quotes through in a host: no host has them, and in the pages' Content-Security-Policy, where
 * a URL's origin goes (a logo's in img-src, a redirect URI's in form-action), they would end the directive.
 */
export function isPlainUrlHost(host: string): boolean {
  return /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/.test(host);
}
