import { invalid } from '../errors.ts';

/**
 * Control characters (C0, DEL, C1): no name or address holds one, PostgreSQL cannot store a NUL (the statement fails),
 * and a line break in a name forges lines wherever it is shown or logged.
 */
const CONTROL = /\p{Cc}/u;
/**
 * And invisible ones (zero-width spaces and joiners, direction marks, a BOM, and every other default-ignorable code
 * point: the combining grapheme joiner, variation selectors, Hangul fillers, which are not format characters but
 * render as nothing all the same): an address holding one is a second account that reads exactly like the first.
 */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
/** Control characters but tab, LF and CR, which text of several lines (copy, an e-mail template) may hold. */
const TEXT_CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** A value of one line with no control character (a header value, a user name, a credential). */
export const isControlFree = (value: string): boolean => !CONTROL.test(value);

/** Text that may span lines but holds no other control character. */
export const isPlainText = (value: string): boolean => !TEXT_CONTROL.test(value);

/**
 * A character that shows: a letter, digit, punctuation or symbol, but not a default-ignorable one (the Hangul fillers
 * are letters that render as nothing). A name of only zero-width spaces, joiners or marks reads as no name at all.
 */
const VISIBLE = /(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{P}\p{S}]/u;
/**
 * Explicit directional formatting (UAX #9: embeddings, overrides, isolates and their terminator): they reorder the
 * text after them, so `\u202Eevil` reads backwards, and an unterminated one spills past the name into whatever text
 * shows it (an admin list, an e-mail, a log). The other format characters stay: joiners (emoji sequences, Persian),
 * the implicit direction marks (LRM, RLM) that mixed-direction names use, variation selectors.
 */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const DISPLAY_NAME_MAX = 200;

/**
 * A display name: trimmed, 1 to 200 characters (code points: 150 emoji are 150 characters, not 300), at least one of
 * them visible, no control characters, no directional overrides.
 */
export function displayName(field: string, value: string): string {
  const name = value.trim();
  // A code point is one or two UTF-16 units: longer than twice the limit is too long without counting.
  const length = name.length > 2 * DISPLAY_NAME_MAX ? Infinity : [...name].length;
  if (length === 0 || length > DISPLAY_NAME_MAX) throw invalid(field, `${field} must be 1 to ${DISPLAY_NAME_MAX} characters`);
  if (CONTROL.test(name)) throw invalid(field, `${field} must not contain control characters`);
  if (BIDI_CONTROL.test(name)) throw invalid(field, `${field} must not contain bidirectional control characters`);
  if (!VISIBLE.test(name)) throw invalid(field, `${field} must contain a visible character`);
  return name;
}

/** The longest slug. */
export const SLUG_MAX_LENGTH = 63;
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

/**
 * The slug a tenant named `name` gets when the client sends none: its letters and digits as ASCII (NFKD, combining
 * marks dropped: `Crème` → `creme`), the rest as hyphens; `tenant` when none is left (`東京`); never spelled as a UUID.
 * Not unique: the tenant's creation adds a suffix when another tenant has it.
 */
export function slugFromName(name: string): string {
  // Lower-cased after the decomposition, which may give capitals (`№` → `No`).
  const derived = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
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
