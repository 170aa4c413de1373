import { describe, expect, it } from 'vitest';
import { parseBranding } from '../../src/domain/branding/branding.ts';
import { CATALOGS, isBrandableCopyKey } from '../../src/domain/branding/copy/index.ts';
import { defaultTemplate, mailWords, TEMPLATE_KEYS } from '../../src/domain/email/template-defaults.ts';
import { directionOf, LOCALES, negotiateLocale } from '../../src/domain/locales.ts';

/** Locale negotiation, and every language's catalog of page copy and mail templates complete. */
describe('negotiateLocale', () => {
  it('takes the first supported tag of ui_locales, by its primary subtag', () => {
    expect(negotiateLocale('it de-AT fr', 'es')).toBe('de');
    expect(negotiateLocale('FR-ca', undefined)).toBe('fr');
    // Past what is read, a tag cut short is left out: `esu` (Central Yupik) is no `es`.
    expect(negotiateLocale(`${'xx '.repeat(170)}esu`, 'fr')).toBe('fr');
  });

  it('falls back to Accept-Language by q-value, header order among equals, never a q=0 tag', () => {
    expect(negotiateLocale('xx-YY', 'de;q=0.5, es;q=0.9')).toBe('es');
    expect(negotiateLocale(undefined, 'fr, de')).toBe('fr');
    expect(negotiateLocale(undefined, 'de;q=0.5, fr;q=0.5')).toBe('de');
    expect(negotiateLocale(undefined, 'es;q=0, de;q=0.1')).toBe('de');
    // Above 1 is no weight (1.000 at most): the range is left out, not ranked first.
    expect(negotiateLocale(undefined, 'de;q=1.5, fr')).toBe('fr');
    expect(negotiateLocale(undefined, 'es;q=0.9, de;q=1.000')).toBe('de');
    expect(negotiateLocale(undefined, 'es ; Q=0.3 , it')).toBe('es');
    // A weight without its value cannot be read: the range is left out, not taken at 1.
    expect(negotiateLocale(undefined, 'de;q, fr;q=0.5')).toBe('fr');
    // Past what is read, a range cut short is left out rather than read without the weight it had.
    const head = `fr;q=0.5,${'xx;q=0.5,'.repeat(55)}`.padEnd(509, ' ');
    expect(negotiateLocale(undefined, `${head}de;q=0.1`)).toBe('fr');
  });

  it('reads `*` as any language the header names nowhere else (RFC 9110 12.5.4), so a refused English is not served', () => {
    expect(negotiateLocale(undefined, 'en;q=0, *')).toBe('de');
    expect(negotiateLocale(undefined, 'en-GB;q=0, de;q=0, *;q=0.5')).toBe('fr');
    // Ranked by its weight like any range: a language named with less is not preferred to it.
    expect(negotiateLocale(undefined, 'de;q=0.2, en;q=0.1, *;q=0.5')).toBe('fr');
    expect(negotiateLocale(undefined, 'es;q=0.9, *;q=0.5')).toBe('es');
    // Every language served refused by name: nothing left for `*`.
    expect(negotiateLocale(undefined, 'en;q=0, de;q=0, fr;q=0, es;q=0, *')).toBe('en');
  });

  it('is English when nothing supported is asked, or what is asked cannot be read', () => {
    for (const [ui, header] of [
      [undefined, undefined],
      ['', ''],
      [['de'], 'xx'],
      [42, '*'],
      [undefined, 'de;q=abc'],
      [undefined, 'de;q=0'],
      [undefined, `${'x,'.repeat(1000)}de`],
    ] as const) {
      expect(negotiateLocale(ui, header), JSON.stringify([ui, header])).toBe('en');
    }
  });
});

describe('directionOf', () => {
  it('is ltr for every language served, rtl for those of the right-to-left table', () => {
    for (const locale of LOCALES) expect(directionOf(locale)).toBe('ltr');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he-IL')).toBe('rtl');
  });
});

describe('catalogs', () => {
  const englishKeys = Object.keys(CATALOGS.en).sort();

  it('every language has exactly the English keys, none blank, with the same {placeholders}', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const locale of LOCALES) {
      const catalog = CATALOGS[locale];
      expect(Object.keys(catalog).sort(), locale).toEqual(englishKeys);
      for (const key of englishKeys as (keyof typeof catalog)[]) {
        expect(catalog[key].trim(), `${locale} ${key}`).not.toBe('');
        expect(placeholders(catalog[key]), `${locale} ${key}`).toEqual(placeholders(CATALOGS.en[key]));
      }
    }
  });

  it('every built-in text is a copy override the branding accepts, in its own language: its placeholders are offered', () => {
    for (const locale of LOCALES) {
      const copy = Object.fromEntries(Object.entries(CATALOGS[locale]).filter(([key]) => isBrandableCopyKey(key)).map(([key, text]) => [`${locale}:${key}`, text]));
      for (let from = 0; from < Object.keys(copy).length; from += 100) {
        const part = Object.fromEntries(Object.entries(copy).slice(from, from + 100));
        expect(parseBranding({ copy: part }).copy, locale).toEqual(part);
      }
    }
  });

  it('every language words what the mails fill in: the factors’ names and the unknown browser and place', () => {
    const english = mailWords('en');
    for (const locale of LOCALES) {
      const words = mailWords(locale);
      expect(Object.keys(words.factors).sort(), locale).toEqual(Object.keys(english.factors).sort());
      for (const text of [...Object.values(words.factors), words.unknownDevice, words.unknownLocation, words.someBrowser, words.someSystem]) expect(text.trim(), locale).not.toBe('');
      if (locale !== 'en') expect([words.unknownDevice, words.unknownLocation], locale).not.toContain(english.unknownLocation);
      expect([...words.device.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort(), locale).toEqual(['browser', 'system']);
    }
  });

  it('every language has the 12 default mails, using the English ones’ variables', () => {
    const variables = (text: string) => [...new Set([...text.matchAll(/\{\{\s*([\w.]+)/g)].map((match) => match[1]))].sort();
    for (const locale of LOCALES) {
      for (const key of TEMPLATE_KEYS) {
        const mail = defaultTemplate(key, locale);
        const english = defaultTemplate(key);
        expect(mail.html, `${locale} ${key}`).toContain(`<html lang="${locale}" dir="ltr">`);
        for (const part of ['subject', 'text'] as const) {
          // The greeting's variables aside (user.name), each mail uses what the English one does.
          expect(variables(mail[part]).filter((name) => name !== 'user.name'), `${locale} ${key} ${part}`).toEqual(
            variables(english[part]).filter((name) => name !== 'user.name'),
          );
        }
        if (locale !== 'en') expect(mail.subject, `${locale} ${key}`).not.toBe(english.subject);
      }
    }
  });
});
