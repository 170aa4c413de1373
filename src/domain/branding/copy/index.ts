import type { Locale } from '../../locales.ts';
import type { Catalog, CopyKey } from './catalog.ts';
import { DE } from './de.ts';
import { EN } from './en.ts';
import { ES } from './es.ts';
import { FR } from './fr.ts';
import { UNBRANDED_COPY_KEYS } from './unbranded.ts';

export type { Catalog, CopyKey, CopyText } from './catalog.ts';

export const CATALOGS: Readonly<Record<Locale, Catalog>> = { en: EN, de: DE, fr: FR, es: ES };

export const isCopyKey = (value: string): value is CopyKey => Object.hasOwn(EN, value);

/** A key a branding's `copy` may override: one the pages show in a branded look. */
export const isBrandableCopyKey = (value: string): value is CopyKey => isCopyKey(value) && !UNBRANDED_COPY_KEYS.has(value);

/** A placeholder: a word in braces. Any other brace (`{`, `{ a }`, `{}`) is text. */
const PLACEHOLDER = /\{(\w+)\}/g;

/** `template` with its `{placeholders}` filled in, in one pass: a value holding `{name}` or `$&` stays as typed. */
export const fillCopy = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(PLACEHOLDER, (placeholder, name: string) => (Object.hasOwn(values, name) ? values[name]! : placeholder));

/** The names of the placeholders `text` holds, each once. */
export const placeholdersOf = (text: string): string[] => [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1]!))];

/** The placeholder the pages fill in every text (src/pages/pages.ts): the application's or tenant's name. */
export const NAME_PLACEHOLDER = 'name';

/** What each key's texts may hold: its English text's placeholders, which the pages fill in (every language's text has
 *  the same ones: test/unit/languages.test.ts), and `{name}`. Any other shows as typed. */
const OFFERED_PLACEHOLDERS = new Map<string, ReadonlySet<string>>(
  Object.entries(EN).map(([key, text]) => [key, new Set([NAME_PLACEHOLDER, ...placeholdersOf(text)])]),
);

export const offeredPlaceholders = (key: CopyKey): ReadonlySet<string> => OFFERED_PLACEHOLDERS.get(key)!;

/** The English text, for logs and error messages that no end user reads. */
export const englishCopy = (key: CopyKey, values: Readonly<Record<string, string>> = {}): string => fillCopy(EN[key], values);
