import { invalid } from '../errors.ts';

/** No name holds one, PostgreSQL cannot store a NUL, and a line break in a name forges lines where it is logged. */
const CONTROL = /\p{Cc}/u;
/** Plus invisible ones (zero-width, direction marks, BOM, default-ignorables): an address with one is a look-alike account. */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const TEXT_CONTROL = /(?![\t\n\r])\p{Cc}/u;

export const isControlFree = (value: string): boolean => !CONTROL.test(value);

export const isPlainText = (value: string): boolean => !TEXT_CONTROL.test(value);

/**
 * PostgreSQL holds no NUL in text or jsonb: a value carrying one (in a string or a key, at any depth) is the client's
 * error, never a 500.
 */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\0') || holdsNul(item));
}

/** Not default-ignorable (Hangul fillers are letters that render as nothing): a name of only those reads as none. */
const VISIBLE = /(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{P}\p{S}]/u;

/** Spaces and invisible characters (zero-width space, word joiner, Hangul filler) alone show nothing. */
export const isBlankText = (value: string): boolean => !VISIBLE.test(value);

/** Line breaks that are no control character (UAX #14 BK): a browser or mail client may start a new line at them. */
const LINE_SEPARATOR = /[\u2028\u2029]/u;

/** UAX #9 embeddings, overrides and isolates reorder the text after them (`\u202Eevil` reads backwards) past the name.
 *  Joiners, LRM/RLM and variation selectors stay: real names use them. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
export const DISPLAY_NAME_MAX = 200;

export type DisplayNameProblem = 'length' | 'control' | 'direction' | 'invisible';

const DISPLAY_NAME_PROBLEMS: Readonly<Record<DisplayNameProblem, string>> = {
  length: `must be 1 to ${DISPLAY_NAME_MAX} characters`,
  control: 'must not contain control characters',
  direction: 'must not contain bidirectional control characters',
  invisible: 'must contain a visible character',
};

/** 1 to 200 code points (150 emoji are 150 characters), at least one visible, no controls or directional overrides. */
export function displayNameProblem(value: string): DisplayNameProblem | undefined {
  const name = value.trim();
  // A code point is one or two UTF-16 units: longer than twice the limit is too long without counting.
  const length = name.length > 2 * DISPLAY_NAME_MAX ? Infinity : [...name].length;
  if (length === 0 || length > DISPLAY_NAME_MAX) return 'length';
  if (CONTROL.test(name) || LINE_SEPARATOR.test(name)) return 'control';
  if (BIDI_CONTROL.test(name)) return 'direction';
  if (!VISIBLE.test(name)) return 'invisible';
  return undefined;
}

export function displayName(field: string, value: string): string {
  const problem = displayNameProblem(value);
  if (problem !== undefined) throw invalid(field, `${field} ${DISPLAY_NAME_PROBLEMS[problem]}`);
  return value.trim();
}

export const SLUG_MAX_LENGTH = 63;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A tenant is named by id or slug wherever a client names one: a slug spelled as an id would name another tenant. */
const UUID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function slug(field: string, value: string): string {
  if (!SLUG.test(value)) {
    throw invalid(field, `${field} must be 1 to 63 lower-case letters, digits or hyphens, not starting or ending with one`);
  }
  if (UUID_SHAPED.test(value)) throw invalid(field, `${field} may not have the form of an id (a UUID)`);
  return value;
}

/** ASCII letters and digits (NFKD, marks dropped: `Crème` → `creme`), the rest hyphens; never UUID-shaped; not unique. */
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

/** RFC 5322's atext, and any non-ASCII character but a space (RFC 6531). */
const ATEXT = "(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\s])+";
const LABEL = String.raw`[\p{L}\p{N}\p{M}-]+`;
/** A dot-atom addr-spec, two labels or more. No quoted local parts, comments, domain literals or what a mail library reads
 *  as a list or display name (`,`, `<>`); no empty label (`a..b`): another spelling of one mailbox, another account. */
const ADDR_SPEC = new RegExp(`^${ATEXT}(?:\\.${ATEXT})*@${LABEL}(?:\\.${LABEL})+$`, 'u');

export function email(field: string, value: string): string {
  const trimmed = value.trim();
  // Deliverability is proven by the verification e-mail; the shape only keeps out what is not one mailbox.
  if (trimmed.length > 254 || !ADDR_SPEC.test(trimmed) || CONTROL_OR_FORMAT.test(trimmed)) {
    throw invalid(field, `${field} must be an e-mail address`);
  }
  return trimmed;
}
