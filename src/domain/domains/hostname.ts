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
  const refuse = (why: string) => invalid(field, `${field} must be a fully qualified domain name (${why})`);
  if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) throw refuse('not an IP address');
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name) || /[/:?#@\s]/.test(name)) throw refuse('no scheme, port, path or spaces');
  if (name.length > 253) throw refuse('at most 253 characters');
  const labels = name.split('.');
  if (labels.length < 2) throw refuse('at least two labels, e.g. login.example.com');
  if (!labels.every((label) => LABEL.test(label))) {
    throw refuse('labels of 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen, and no trailing dot');
  }
  if (!TOP_LABEL.test(labels.at(-1) as string)) throw refuse('the top-level label must be alphabetic');
  return name;
}
