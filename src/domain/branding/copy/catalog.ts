import type { EN } from './en.ts';

/** A key of the hosted pages' copy. */
export type CopyKey = keyof typeof EN;

/** Every text of the hosted pages in one language: exactly the English catalog's keys. */
export type Catalog = Readonly<Record<CopyKey, string>>;
