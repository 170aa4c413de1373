import { invalid } from '../errors.ts';

/**
 * Control characters (C0, DEL, C1): no name or address holds one, PostgreSQL cannot store a NUL (the statement fails),
 * and a line break in a name forges lines wherever it is shown or logged.
 */
const CONTROL = /\p{Cc}/u;
/**
 * And invisible ones (zero-width spaces and joiners, direction marks, a BOM): an address holding one is a second
 * account that reads exactly like the first.
 */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
/** Control characters but tab, LF and CR, which text of several lines (copy, an e-mail template) may hold. */
const TEXT_CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** A value of one line with no control character (a header value, a user name, a credential). */
export const isControlFree = (value: string): boolean => !CONTROL.test(value);

/** Text that may span lines but holds no other control character. */
export const isPlainText = (value: string): boolean => !TEXT_CONTROL.test(value);

/** A display name: trimmed, 1 to 200 characters, no control characters. */
export function displayName(field: string, value: string): string {
  const name = value.trim();
  if (name.length === 0 || name.length > 200) throw invalid(field, `${field} must be 1 to 200 characters`);
  if (CONTROL.test(name)) throw invalid(field, `${field} must not contain control characters`);
  return name;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/**
 * A tenant is named by its id or its slug wherever a client names one (`tenant=`, `/t/{id or slug}`): a slug spelled
 * as an id would name another tenant, or none.
 */
const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function slug(field: string, value: string): string {
  if (!SLUG.test(value)) {
    throw invalid(field, `${field} must be 1 to 63 lower-case letters, digits or hyphens, not starting or ending with one`);
  }
  if (UUID_SHAPED.test(value)) throw invalid(field, `${field} may not have the form of an id (a UUID)`);
  return value;
}

export function slugFromName(name: string): string {
  const derived = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  if (derived === '') return 'tenant';
  return UUID_SHAPED.test(derived) ? `tenant-${derived}` : derived;
}

export function email(field: string, value: string): string {
  const trimmed = value.trim();
  // Deliberately simple: one @, a dot in the domain, no spaces; deliverability is proven by verification e-mail.
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) || CONTROL_OR_FORMAT.test(trimmed)) {
    throw invalid(field, `${field} must be an e-mail address`);
  }
  return trimmed;
}
