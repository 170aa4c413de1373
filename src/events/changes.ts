import type { EntityManager } from '@mikro-orm/postgresql';
import type { Invalidation } from './invalidations.ts';

/** The invalidations a transaction's writes announced, by the transaction's entity manager. */
const announced = new WeakMap<EntityManager, Map<string, Invalidation>>();

/**
 * Announces, in the write's own transaction, what caches must forget once it commits: Scope.transactional, which began
 * it, publishes them then, and not at all on rollback. A write elsewhere has no one to publish after it: it throws.
 */
export function changed(em: EntityManager, ...invalidations: readonly Invalidation[]): void {
  const changes = announced.get(em);
  if (changes === undefined) throw new Error('A change is announced in a transaction begun by Scope.transactional, which publishes it once committed');
  for (const invalidation of invalidations) changes.set(invalidation.kind === 'all' ? 'all' : `${invalidation.kind}\0${invalidation.id}`, invalidation);
}

/** Where the writes of `em`'s transaction announce their changes; an inner transaction shares its outer one's. */
export function collectChanges(em: EntityManager, changes: Map<string, Invalidation>): void {
  announced.set(em, changes);
}

/** What the transaction of `em` collects, if `em` is in one begun by Scope.transactional. */
export const changesOf = (em: EntityManager): Map<string, Invalidation> | undefined => announced.get(em);
