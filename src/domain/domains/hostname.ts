import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { invalid } from '../../errors.ts';

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A top-level label is alphabetic or an IDNA A-label: never all digits, so no IPv4 address passes. */
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** In characters, without a trailing dot (RFC 1035 2.3.4: 255 octets on the wire). */
export const MAX_DNS_NAME = 253;

/** ASCII (IDNA `xn--` form), at least two labels, no scheme, port, path, trailing dot or IP address; lower-cased. */
export function hostname(field: string, value: string): string {
  // Before lower-casing, which folds some non-ASCII letters into ASCII (U+212A KELVIN SIGN is "k").
  if (/\P{ASCII}/u.test(value)) {
    const ascii = domainToASCII(value);
    const form = ascii.split('.').some((label) => label.startsWith('xn--')) ? ` (${ascii})` : '';
    throw invalid(field, `${field} must be ASCII: write an internationalized name in its IDNA form${form}`);
  }
  const name = value.toLowerCase();
  const problem = hostnameProblem(name);
  if (problem !== undefined) throw invalid(field, `${field} must be a fully qualified domain name (${problem})`);
  return name;
}

export function hostnameProblem(name: string): string | undefined {
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) return 'not an IP address';
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name) || /[/:?#@\s]/.test(name)) return 'no scheme, port, path or spaces';
  if (name.length > MAX_DNS_NAME) return `at most ${MAX_DNS_NAME} characters`;
  const labels = name.split('.');
  if (labels.length < 2) return 'at least two labels, e.g. login.example.com';
  if (!labels.every((label) => LABEL.test(label))) {
    return 'labels of 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen, and no trailing dot';
  }
  if (!TOP_LABEL.test(labels.at(-1) as string)) return 'the top-level label must be alphabetic';
  return undefined;
}

/** Nameable by a CSP source (CSP3 2.3.1), or an IP literal: no `_`, `;`, `,` or quotes, which URL parsing lets through and
 *  which would end the directive of the hosted pages' policy. */
export const URL_HOST_PATTERN = String.raw`(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])`;
const URL_HOST = new RegExp(`^${URL_HOST_PATTERN}$`);

export function isPlainUrlHost(host: string): boolean {
  return URL_HOST.test(host);
}
