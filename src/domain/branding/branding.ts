import type { Scope } from '../../context.ts';
import type { Setting } from '../../db/entities/index.ts';
import { invalid } from '../../errors.ts';
import { isPlainUrlHost } from '../domains/hostname.ts';
import { overrideTenant } from '../tenancy/override-target.ts';
import {
  applicationValue,
  assertTenantMayCustomize,
  effectiveValue,
  putApplicationSetting,
  putTenantOverride,
  removeTenantOverride,
  type SettingWrite,
  type Source,
} from '../tenancy/settings.ts';
import { isBlankText, isPlainText } from '../validate.ts';
import { isLocale, LOCALES } from '../locales.ts';
import { isBrandableCopyKey, offeredPlaceholders, placeholdersOf, type CopyKey } from './copy/index.ts';
import { APPLICATION_LOOK_COPY_KEYS } from './copy/unbranded.ts';

/** While `brandingScope` = `tenant`, one override per tenant (tenancy/settings.ts). */
export interface BrandingColors {
  primary: string;
  background: string;
  text: string;
}

export interface BrandingValue {
  logoUrl: string | null;
  faviconUrl: string | null;
  colors: BrandingColors;
  copy: Record<string, string>;
}

export interface Branding extends BrandingValue {
  /** Null for the application's own value. */
  source: Source | null;
  /** Null while the built-in defaults apply. */
  updatedAt: Date | null;
}

export const DEFAULT_BRANDING: Readonly<BrandingValue> = Object.freeze({
  logoUrl: null,
  faviconUrl: null,
  colors: Object.freeze({ primary: '#4f46e5', background: '#ffffff', text: '#111827' }),
  copy: Object.freeze({}) as Record<string, string>,
});

export const COPY_MAX_KEYS = 100;
export const COPY_MAX_VALUE_LENGTH = 2_000;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const URL_MAX_LENGTH = 2_048;

export interface BrandingInput {
  logoUrl?: string | null;
  faviconUrl?: string | null;
  colors?: { primary?: string | null; background?: string | null; text?: string | null } | null;
  copy?: Record<string, unknown> | null;
}

function httpsUrl(field: string, value: string | null | undefined): string | null {
  if (value == null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, `${field} must be an absolute https URL`);
  }
  if (url.protocol !== 'https:') throw invalid(field, `${field} must be an https URL`);
  if (url.username !== '' || url.password !== '') throw invalid(field, `${field} may not carry credentials`);
  if (!isPlainUrlHost(url.hostname)) {
    throw invalid(field, `${field} must name its host by a domain name (letters, digits, hyphens) or IP address`);
  }
  // What is stored is the parsed URL, percent-encoded: a few characters may spell many more.
  if (url.href.length > URL_MAX_LENGTH) throw invalid(field, `${field} may be at most ${URL_MAX_LENGTH} characters, percent-encoded`);
  return url.href;
}

function color(field: string, value: string | null | undefined, fallback: string): string {
  if (value == null) return fallback;
  if (!HEX_COLOR.test(value)) throw invalid(field, `${field} must be a #rrggbb hex color`);
  return value.toLowerCase();
}

/** A key of the copy, or a language and a key (`de:login.title`), which wins over the plain key in that language. */
function copyKeyProblem(key: string, forTenant: boolean): string | undefined {
  const colon = key.indexOf(':');
  if (colon !== -1 && !isLocale(key.slice(0, colon))) return `copy keys name a language of ${LOCALES.join(', ')} before ':'`;
  const copyKey = key.slice(colon + 1);
  if (!isBrandableCopyKey(copyKey)) {
    return "copy keys are keys of the branded hosted pages' copy (e.g. login.title), alone or after a language and ':' (de:login.title)";
  }
  if (forTenant && APPLICATION_LOOK_COPY_KEYS.has(copyKey)) return "the tenant picker is shown before any tenant is chosen, in the application's branding: set its texts there";
  return undefined;
}

/** A placeholder the pages never fill in for the key would show as typed (`{user}`, a misspelt `{nmae}`). */
function unfilledPlaceholder(key: string, text: string): void {
  const offered = offeredPlaceholders(key.slice(key.indexOf(':') + 1) as CopyKey);
  const unfilled = placeholdersOf(text).find((name) => !offered.has(name));
  if (unfilled === undefined) return;
  const list = [...offered].map((name) => `{${name}}`).join(', ');
  throw invalid(`copy.${key}`, `copy.${key} may hold the placeholders ${list} only: {${unfilled.slice(0, 100)}} would show as typed`);
}

function copyMap(value: Record<string, unknown> | null | undefined, forTenant: boolean, shown: Readonly<Record<string, string>>): Record<string, string> {
  if (value == null) return {};
  const entries = Object.entries(value);
  if (entries.length > COPY_MAX_KEYS) throw invalid('copy', `copy may hold at most ${COPY_MAX_KEYS} entries`);
  const copy: Record<string, string> = {};
  for (const [key, text] of entries) {
    const problem = copyKeyProblem(key, forTenant);
    if (problem !== undefined) throw invalid('copy', `${problem}; got ${JSON.stringify(key.slice(0, 100))}`);
    if (typeof text !== 'string') throw invalid(`copy.${key}`, `copy.${key} must be a string`);
    if (text.length > COPY_MAX_VALUE_LENGTH) throw invalid(`copy.${key}`, `copy.${key} may be at most ${COPY_MAX_VALUE_LENGTH} characters`);
    // A page with an empty title, label or alert helps nobody; a key left out shows the built-in text.
    if (isBlankText(text)) throw invalid(`copy.${key}`, `copy.${key} may not be blank: leave the key out for the built-in text`);
    if (!isPlainText(text)) throw invalid(`copy.${key}`, `copy.${key} must not contain control characters other than tabs and line breaks`);
    // A text shown now, stored before placeholders were checked, is saved again as it is: its owner's other edits pass.
    if (shown[key] !== text) unfilledPlaceholder(key, text);
    copy[key] = text;
  }
  return copy;
}

/** PUT replaces the whole branding: a field left out takes its default, so `{}` restores the defaults. `forTenant`: a
 *  tenant's override, which shows on the pages of that tenant only. `shown`: the copy its pages show now. */
export function parseBranding(input: BrandingInput, { forTenant = false, shown = {} }: { forTenant?: boolean; shown?: Readonly<Record<string, string>> } = {}): BrandingValue {
  const colors = input.colors ?? {};
  const defaults = DEFAULT_BRANDING.colors;
  return {
    logoUrl: httpsUrl('logoUrl', input.logoUrl),
    faviconUrl: httpsUrl('faviconUrl', input.faviconUrl),
    colors: {
      primary: color('colors.primary', colors.primary, defaults.primary),
      background: color('colors.background', colors.background, defaults.background),
      text: color('colors.text', colors.text, defaults.text),
    },
    copy: copyMap(input.copy, forTenant, shown),
  };
}

export function normalize(stored: Partial<BrandingValue> | null | undefined): BrandingValue {
  return {
    logoUrl: stored?.logoUrl ?? DEFAULT_BRANDING.logoUrl,
    faviconUrl: stored?.faviconUrl ?? DEFAULT_BRANDING.faviconUrl,
    colors: { ...DEFAULT_BRANDING.colors, ...stored?.colors },
    copy: { ...stored?.copy },
  };
}

function present(row: Setting | undefined, source: Source | null): Branding {
  return { ...normalize(row?.value), source, updatedAt: row?.updatedAt ?? null };
}

export async function effectiveBranding(scope: Scope): Promise<Branding> {
  if (scope.tenantId === null) {
    return present((await applicationValue(scope, 'branding', '', null)).row, null);
  }
  const effective = await effectiveValue(scope, scope.tenantId, 'branding', '', null);
  return present(effective.row, effective.source);
}

export async function getBranding(scope: Scope): Promise<Branding> {
  return effectiveBranding(scope);
}

/** 409 `tenant_customization_disabled` for a tenant while `brandingScope` = `application`. */
export async function putBranding(scope: Scope, input: BrandingInput): Promise<Branding> {
  if (scope.tenantId !== null) assertTenantMayCustomize(await scope.application(), 'branding');
  const value = { ...parseBranding(input, { forTenant: scope.tenantId !== null, shown: (await effectiveBranding(scope)).copy }) };
  const write: SettingWrite = { feature: 'branding', key: '', compose: () => ({ value }), action: 'branding.updated' };
  if (scope.tenantId === null) return present(await putApplicationSetting(scope, write), null);
  return present(await putTenantOverride(scope, scope.tenantId, write), 'customized');
}

export async function removeBrandingOverride(scope: Scope): Promise<boolean> {
  return removeTenantOverride(scope, overrideTenant(scope), 'branding', '', 'branding.override.removed');
}
