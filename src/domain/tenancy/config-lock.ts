import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { Application } from '../../db/entities/index.ts';
import { HOLD_FOR_SHARE, HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { notFound } from '../../errors.ts';
import { createLoaders } from '../loaders.ts';

/**
 * The tenancy switches live on the application's row, and whether a write is valid may depend on them: tenant auth
 * data needs `isolated`, a new user's pool and password policy follow `authIsolation`, a tenant key's user must be
 * a member as the pools have them. A switch changes them holding the row FOR UPDATE (lockForTenancyChange); such
 * writers read them holding it FOR SHARE (underTenancyConfig), which conflicts with that and with nothing else. So a
 * writer and a switch never overlap: whichever comes second waits for the first to commit and then sees its outcome,
 * which a check read before the write transaction could not (it would act on a switch already undone).
 */

/** The application's row, held FOR UPDATE until `em`'s transaction ends: writes that depend on the switches wait. */
export async function lockForTenancyChange(em: EntityManager, applicationId: string): Promise<Application | null> {
  // refresh: the request may have read the row before the lock; the switch must start from the committed one.
  return em.findOne(Application, { id: applicationId }, HOLD_FOR_UPDATE);
}

/**
 * Runs `write` in a transaction that holds the application's row FOR SHARE, with the scope bound to that
 * transaction: its `em`, fresh loaders on it, and `application()` answering the row as locked. Everything the write
 * decides on the tenancy configuration (and reads through the scope: policies, providers) stays true until it commits.
 * The scope's reads run on the transaction's own connection: the embedded database answers no other connection while
 * a transaction is open.
 */
export async function underTenancyConfig<T>(scope: Scope, write: (tx: Scope) => Promise<T>): Promise<T> {
  return scope.transactional(async (em) => {
    const application = await em.findOne(Application, { id: scope.applicationId }, HOLD_FOR_SHARE);
    if (application === null) throw notFound('Application', 'appId');
    return write({ ...scope, em, loaders: createLoaders(em), application: () => Promise.resolve(application) });
  });
}
