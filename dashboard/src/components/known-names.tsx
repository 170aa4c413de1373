import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { NameOf } from '../operations-names.ts';

// The names the page already holds (its organization, the applications), for the audit log's organization and
// application targets, which no list reads by id.
const KnownNamesContext = createContext<NameOf>(() => undefined);

export const useKnownNames = (): NameOf => useContext(KnownNamesContext);

interface KnownNamesProps {
  /** Their type, as audit records spell it. */
  readonly type: string;
  readonly items: readonly { readonly id: string; readonly name: string }[];
  readonly children: ReactNode;
}

export function KnownNames({ type, items, children }: KnownNamesProps) {
  const above = useKnownNames();
  const known = useMemo((): NameOf => {
    const names = new Map(items.map(({ id, name }) => [id, name]));
    return (itemType, id) => (itemType === type ? names.get(id) : undefined) ?? above(itemType, id);
  }, [above, type, items]);
  return <KnownNamesContext.Provider value={known}>{children}</KnownNamesContext.Provider>;
}
