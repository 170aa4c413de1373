import { invalid } from '../errors.ts';

/** A display name: trimmed, 1 to 200 characters. */
export function displayName(field: string, value: string): string {
  const name = value.trim();
  if (name.length === 0 || name.length > 200) throw invalid(field, `${field} must be 1 to 200 characters`);
  return name;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function slug(field: string, value: string): string {
  if (!SLUG.test(value)) {
    throw invalid(field, `${field} must be 1 to 63 lower-case letters, digits or hyphens, not starting or ending with one`);
  }
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
  return derived === '' ? 'tenant' : derived;
}

export function email(field: string, value: string): string {
  const trimmed = value.trim();
  // Deliberately simple: one @, a dot in the domain, no spaces; deliverability is proven by verification e-mail.
  if (trimmed.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) throw invalid(field, `${field} must be an e-mail address`);
  return trimmed;
}
