/**
 * The languages of the hosted pages and the default e-mails, and which one a request gets: the authorization
 * request's `ui_locales` first, then the browser's `Accept-Language`, else English. Tags match on their primary
 * language subtag (`de-CH` is German).
 */
export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Primary language subtags written right to left: a language added to LOCALES that is one gets `dir="rtl"`. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar', 'dv', 'fa', 'he', 'ps', 'ur', 'yi']);

/** Header values longer than this are read up to it: a browser sends a few tags, not kilobytes. */
const MAX_READ = 512;

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

const primarySubtag = (tag: string) => tag.trim().toLowerCase().split('-')[0] ?? '';

export const directionOf = (language: string): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(primarySubtag(language)) ? 'rtl' : 'ltr');

/** The first supported language among `tags`, in their order. */
function firstSupported(tags: readonly string[]): Locale | undefined {
  return tags.map(primarySubtag).find(isLocale);
}

/** `ui_locales` (OIDC Core 3.1.2.1): space-separated tags, preferred first. */
function fromUiLocales(value: unknown): Locale | undefined {
  return typeof value === 'string' ? firstSupported(value.slice(0, MAX_READ).split(' ')) : undefined;
}

/** A `q=` parameter's weight (RFC 9110 12.4.2); one that cannot be read is 0: the range is left out, not guessed at. */
const qValue = (parameter: string) => Number(/^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1] ?? 0);

/** `Accept-Language` (RFC 9110 12.5.4): tags by descending `q`, in header order among equals; `q=0` is "not this". */
function fromAcceptLanguage(value: string | undefined): Locale | undefined {
  if (value === undefined) return undefined;
  const ranges = value
    .slice(0, MAX_READ)
    .split(',')
    .map((range, order) => {
      const [tag = '', ...parameters] = range.split(';');
      const weight = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
      return { tag, q: weight === undefined ? 1 : qValue(weight), order };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return firstSupported(ranges.map((range) => range.tag));
}

export function negotiateLocale(uiLocales: unknown, acceptLanguage: string | undefined): Locale {
  return fromUiLocales(uiLocales) ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
