import { EN } from '../../src/domain/branding/copy/en.ts';
import { APPLICATION_LOOK_COPY_KEYS, UNBRANDED_COPY_KEYS } from '../../src/domain/branding/copy/unbranded.ts';

// Read from the server's own catalog at build time: the keys the API accepts, and no list of ours to fall behind it.
export { isLocale as isCopyLanguage, LOCALES as COPY_LANGUAGES, type Locale as CopyLanguage } from '../../src/domain/locales.ts';

export type CopyKey = keyof typeof EN;

export const COPY_KEYS = (Object.keys(EN) as CopyKey[]).filter((key) => !UNBRANDED_COPY_KEYS.has(key)) as readonly CopyKey[];

/** A tenant's override leaves out the tenant picker's texts (the API refuses them there): shown before any tenant is chosen. */
const TENANT_COPY_KEYS = COPY_KEYS.filter((key) => !APPLICATION_LOOK_COPY_KEYS.has(key));

/** The keys a branding's form offers: the application's, or a tenant's override's. */
export const copyKeysFor = (forTenant: boolean): readonly CopyKey[] => (forTenant ? TENANT_COPY_KEYS : COPY_KEYS);

/** The built-in English text of a key, or none for a key the catalog no longer has. */
export const builtInText = (key: string): string | undefined => (Object.hasOwn(EN, key) ? EN[key as CopyKey] : undefined);
