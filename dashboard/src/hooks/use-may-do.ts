import { useMemo } from 'react';
import { mayDoFrom, type MayDo } from '../operations-own-permissions.ts';

/** A MayDo of `permissions` that stays the same while they do: the operator's permissions read again (on return to the
 *  page) make screens that read with it (the tenants, or none) read nothing again, and keep their open panels. */
export function useMayDo(permissions: readonly string[]): MayDo {
  const held = permissions.toSorted().join(' ');
  return useMemo(() => mayDoFrom(held === '' ? [] : held.split(' ')), [held]);
}
