import { LockMode } from '@mikro-orm/core';

/** Holds the row until the transaction ends (FOR UPDATE), read as committed (`refresh`, not the identity map's copy): a
 *  write decides on what a concurrent one left, never on a stale read. */
export const HOLD_FOR_UPDATE = { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } as const;

/** The same, shared (FOR SHARE): writes of the row wait for the transaction; reads and other share locks do not. */
export const HOLD_FOR_SHARE = { lockMode: LockMode.PESSIMISTIC_READ, refresh: true } as const;
