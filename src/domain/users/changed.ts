import type { EntityManager } from '@mikro-orm/postgresql';
import { changed } from '../../events/changes.ts';

/** Every write of a user's row announces this in its transaction: every instance forgets its read cache (src/rest/read-cache.ts) of them. */
export function usersChanged(em: EntityManager, applicationId: string): void {
  changed(em, { kind: 'users', id: applicationId });
}

/** Else each instance's cache would accept their keys and tokens' subjects until the entries expire. */
export function forgetUserKeys(em: EntityManager, userIds: readonly string[]): void {
  // Past a few, one message that empties the caches beats a message per user: they refill within a lifetime anyway.
  if (userIds.length > FORGET_ALL_ABOVE) return changed(em, { kind: 'all' });
  changed(em, ...userIds.map((id) => ({ kind: 'user' as const, id })));
}

const FORGET_ALL_ABOVE = 100;
