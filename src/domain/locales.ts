/** `ui_locales` first, then `Accept-Language`, else English. Tags match on their primary subtag (`de-CH` is German). */
export const LOCALES = ['en', 'de', 'fr', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** A language added to LOCALES that is one gets `dir="rtl"`. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar', 'dv', 'fa', 'he', 'ps', 'ur', 'yi']);

const MAX_READ = 512;

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

const primarySubtag = (tag: string) => tag.trim().toLowerCase().split('-')[0] ?? '';

export const directionOf = (language: string): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(primarySubtag(language)) ? 'rtl' : 'ltr');

function firstSupported(tags: readonly string[]): Locale | undefined {
  return tags.map(primarySubtag).find(isLocale);
}

/** The first MAX_READ characters, split: past them, the last item may be cut short (`esu` read as `es`, a weight lost),
 *  so it is left out. */
function itemsRead(value: string, separator: string): string[] {
  const items = value.slice(0, MAX_READ).split(separator);
  return value.length > MAX_READ ? items.slice(0, -1) : items;
}

/** OIDC Core 3.1.2.1: space-separated tags, preferred first. */
function fromUiLocales(value: unknown): Locale | undefined {
  return typeof value === 'string' ? firstSupported(itemsRead(value, ' ')) : undefined;
}

/** RFC 9110 12.4.2; one that cannot be read (`q` without a value too) is 0: the range is left out, not guessed at. */
const qValue = (parameter: string) => Number(/^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(parameter)?.[1] ?? 0);

/** RFC 9110 12.5.4: by descending `q`, header order among equals; `q=0` is "not this"; `*` is any language the header
 *  names nowhere else (so `en;q=0, *` is not English). */
function fromAcceptLanguage(value: string | undefined): Locale | undefined {
  if (value === undefined) return undefined;
  const ranges = itemsRead(value, ',').map((range, order) => {
    const [tag = '', ...parameters] = range.split(';');
    const weight = parameters.find((parameter) => /^\s*q\s*(?:=|$)/i.test(parameter));
    return { tag, q: weight === undefined ? 1 : qValue(weight), order };
  });
  const named = new Set(ranges.map((range) => primarySubtag(range.tag)));
  const unnamed = LOCALES.find((locale) => !named.has(locale));
  const accepted = ranges.filter((range) => range.q > 0).sort((a, b) => b.q - a.q || a.order - b.order);
  return firstSupported(accepted.map((range) => (range.tag.trim() === '*' && unnamed !== undefined ? unnamed : range.tag)));
}

export function negotiateLocale(uiLocales: unknown, acceptLanguage: string | undefined): Locale {
  return fromUiLocales(uiLocales) ?? fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LOCALE;
}
