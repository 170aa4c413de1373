import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { NameOf } from '../operations-names.ts';

// The names the page already holds (the organization signed in to, the applications managed), for what no list reads
// by id: the audit log names its organization and application targets with them, as they render, without a request.
const KnownNamesContext = createContext<NameOf>(() => undefined);

/** The name the page holds for an item, by its type and id, else undefined. */
export const useKnownNames = (): NameOf => useContext(KnownNamesContext);

interface KnownNamesProps {
  /** Their type, as audit records spell it. */
  readonly type: string;
  readonly items: readonly { readonly id: string; readonly name: string }[];
  readonly children: ReactNode;
}

/** Makes the names of `items` known below, with those known above. */
export function KnownNames({ type, items, children }: KnownNamesProps) {
  const above = useKnownNames();
  const known = useMemo((): NameOf => {
    const names = new Map(items.map(({ id, name }) => [id, name]));
    return (itemType, id) => (itemType === type ? names.get(id) : undefined) ?? above(itemType, id);
  }, [above, type, items]);
  return <KnownNamesContext.Provider value={known}>{children}</KnownNamesContext.Provider>;
}
