import type { Locale } from '../../locales.ts';
import type { Catalog, CopyKey } from './catalog.ts';
import { DE } from './de.ts';
import { EN } from './en.ts';
import { ES } from './es.ts';
import { FR } from './fr.ts';

export type { Catalog, CopyKey };

export const CATALOGS: Readonly<Record<Locale, Catalog>> = { en: EN, de: DE, fr: FR, es: ES };

export const isCopyKey = (value: string): value is CopyKey => Object.hasOwn(EN, value);
