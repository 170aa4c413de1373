import type { EntityManager } from '@mikro-orm/postgresql';
import { scopeInTransaction, type Scope } from '../../context.ts';
import { Application } from '../../db/entities/index.ts';
import { HOLD_FOR_SHARE, HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { notFound } from '../../errors.ts';

/** A switch holds the application's row FOR UPDATE; writes whose validity depends on the switches hold it FOR SHARE
 *  (underTenancyConfig), so whichever comes second sees the first's outcome. */

/** Writes that depend on the switches wait. */
export async function lockForTenancyChange(em: EntityManager, applicationId: string): Promise<Application | null> {
  // refresh: the request may have read the row before the lock; the switch must start from the committed one.
  return em.findOne(Application, { id: applicationId }, HOLD_FOR_UPDATE);
}

/** What the write decides on the tenancy configuration stays true until it commits. Reads run on the transaction's own
 *  connection (the embedded database answers no other meanwhile). `lock`: as Scope.transactional's. */
export async function underTenancyConfig<T>(scope: Scope, write: (tx: Scope) => Promise<T>, lock?: string | readonly string[]): Promise<T> {
  return scope.transactional(async (em) => {
    const application = await em.findOne(Application, { id: scope.applicationId }, HOLD_FOR_SHARE);
    if (application === null) throw notFound('Application', 'appId');
    return write(scopeInTransaction(scope, em, application));
  }, lock);
}
