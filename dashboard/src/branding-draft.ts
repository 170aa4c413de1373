import { isCopyLanguage, type CopyKey, type CopyLanguage } from './copy-keys.ts';
import type { Branding, BrandingInput } from './operations.ts';

export type ColourName = keyof Branding['colors'];

/** One copy override as the editor shows it: `language` '' applies in every language. */
export interface CopyEntry {
  readonly id: number;
  readonly language: CopyLanguage | '';
  readonly key: string;
  readonly text: string;
}

/** The form's values: text as typed, which the server alone judges. */
export interface BrandingDraft {
  readonly logoUrl: string;
  readonly faviconUrl: string;
  readonly colors: Branding['colors'];
  readonly copy: readonly CopyEntry[];
}

/** The API's key of an entry: `login.title`, or `de:login.title` for one language. */
export const copyKeyOf = (entry: CopyEntry): string => (entry.language === '' ? entry.key : `${entry.language}:${entry.key}`);

function entryOf(id: number, copyKey: string, text: string): CopyEntry {
  const colon = copyKey.indexOf(':');
  const language = copyKey.slice(0, colon);
  return colon !== -1 && isCopyLanguage(language) ? { id, language, key: copyKey.slice(colon + 1), text } : { id, language: '', key: copyKey, text };
}

/** `keys`: those the form offers; a tenant's leaves out the application's branding's texts no override may hold. */
export function draftOf(branding: Branding, keys: readonly CopyKey[]): BrandingDraft {
  const offered = new Set<string>(keys);
  const entries = Object.entries(branding.copy).map(([key, text], index) => entryOf(index, key, text));
  return {
    logoUrl: branding.logoUrl ?? '',
    faviconUrl: branding.faviconUrl ?? '',
    colors: branding.colors,
    copy: entries.filter((entry) => offered.has(entry.key)),
  };
}

/** A new entry: the first key of the catalog no entry overrides in every language yet. */
export function newCopyEntry(entries: readonly CopyEntry[], keys: readonly CopyKey[]): CopyEntry {
  const used = new Set(entries.map(copyKeyOf));
  const key = keys.find((candidate) => !used.has(candidate)) ?? keys[0] ?? '';
  return { id: Math.max(-1, ...entries.map((entry) => entry.id)) + 1, language: '', key, text: '' };
}

/** A key two entries both set, which the form refuses to send: one of the two texts would be lost. */
export function repeatedCopyKey(entries: readonly CopyEntry[]): string | undefined {
  const keys = entries.map(copyKeyOf);
  return keys.find((key, index) => keys.indexOf(key) !== index);
}

/** Whether two drafts hold the same values: the same texts in the same order, whatever their ids. */
export function sameDraft(one: BrandingDraft, other: BrandingDraft): boolean {
  const valuesOf = ({ copy, ...rest }: BrandingDraft) => JSON.stringify({ ...rest, copy: copy.map(({ language, key, text }) => [language, key, text]) });
  return valuesOf(one) === valuesOf(other);
}

/** The whole branding to put: blank URLs are none, the rest as typed. */
export function inputOf(draft: BrandingDraft): BrandingInput {
  const url = (value: string) => (value.trim() === '' ? null : value);
  return {
    logoUrl: url(draft.logoUrl),
    faviconUrl: url(draft.faviconUrl),
    colors: draft.colors,
    copy: Object.fromEntries(draft.copy.map((entry) => [copyKeyOf(entry), entry.text])),
  };
}
