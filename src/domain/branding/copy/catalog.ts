import type { EN } from './en.ts';

export type CopyKey = keyof typeof EN;

/** Exactly the English catalog's keys. */
export type Catalog = Readonly<Record<CopyKey, string>>;

/** A text of the catalog with its placeholders' values: what the domain says to an end user, worded by the page. */
export interface CopyText {
  readonly key: CopyKey;
  readonly values?: Readonly<Record<string, string>>;
}
