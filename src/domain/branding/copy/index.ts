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

/** `template` with its `{placeholders}` filled in, in one pass: a value holding `{name}` or `$&` stays as typed. */
export const fillCopy = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(values, name) ? values[name]! : placeholder));

/** The English text, for logs and error messages that no end user reads. */
export const englishCopy = (key: CopyKey, values: Readonly<Record<string, string>> = {}): string => fillCopy(EN[key], values);
