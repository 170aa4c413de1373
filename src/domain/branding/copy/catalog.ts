import type { EN } from './en.ts';

export type CopyKey = keyof typeof EN;

/** Exactly the English catalog's keys. */
export type Catalog = Readonly<Record<CopyKey, string>>;
