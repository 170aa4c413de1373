import { invalid } from '../../errors.ts';
import { isPlainUrlHost } from '../domains/hostname.ts';

const MAX_IDENTIFIER_LENGTH = 2000;
/** Printable ASCII, no space: an identifier is compared as a string (RFC 8707 2), so it must read as it compares. */
const PRINTABLE = /^[\x21-\x7e]+$/;

/** RFC 8707 (its tokens' `aud`): absolute https, no fragment or userinfo, scheme and host lower-cased as they compare; not
 *  the management API's audience, whose tokens must stay its own. */
export function resourceIdentifier(managementAudience: string, value: string): string {
  const field = 'identifier';
  if (value.length === 0 || value.length > MAX_IDENTIFIER_LENGTH || !PRINTABLE.test(value)) {
    throw invalid(field, `identifier must be 1 to ${MAX_IDENTIFIER_LENGTH} printable ASCII characters without spaces`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, 'identifier must be an absolute URI');
  }
  if (!value.startsWith('https://') || url.protocol !== 'https:') throw invalid(field, 'identifier must be an https URI (e.g. https://api.example.com)');
  if (url.username !== '' || url.password !== '') throw invalid(field, 'identifier must not contain user information');
  if (value.includes('#')) throw invalid(field, 'identifier must not contain a fragment (RFC 8707)');
  if (!isPlainUrlHost(url.hostname) || !value.startsWith(`https://${url.host}`)) {
    throw invalid(field, 'identifier must name its host in lower case, by a domain name or IP address');
  }
  if (value.replace(/\/$/, '') === managementAudience) throw invalid(field, 'identifier is the management API’s own audience');
  return value;
}
