import { EN } from '../../src/domain/branding/copy/en.ts';
import { UNBRANDED_COPY_KEYS } from '../../src/domain/branding/copy/unbranded.ts';

// Read from the server's own catalog at build time: the keys the API accepts, and no list of ours to fall behind it.
export { isLocale as isCopyLanguage, LOCALES as COPY_LANGUAGES, type Locale as CopyLanguage } from '../../src/domain/locales.ts';

export type CopyKey = keyof typeof EN;

export const COPY_KEYS = (Object.keys(EN) as CopyKey[]).filter((key) => !UNBRANDED_COPY_KEYS.has(key)) as readonly CopyKey[];

/** The built-in English text of a key, or none for a key the catalog no longer has. */
export const builtInText = (key: string): string | undefined => (Object.hasOwn(EN, key) ? EN[key as CopyKey] : undefined);
