import type { MikroORM } from '@mikro-orm/postgresql';
import { PeriodicJob } from '../background-work.ts';
import { endGrantsOfDeletedClients } from '../domain/oauth-clients/deleted-client-grants.ts';
import { sweepExpiredSessions } from '../domain/sessions/browser-sessions.ts';
import { sweepRevokedSignIns } from '../domain/sessions/revoked-sign-ins.ts';
import { sweepExpiredFlowRows } from '../domain/sign-in/expired-rows.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { inJobSpan } from '../spans.ts';
import { sweepExpiredModels } from './adapter.ts';

export const SWEEP_EVERY_MS = 10 * 60_000;

/** A bounded batch a run; safe on several instances: deletes are by key, and only the deleting statement records an end. */
export async function sweepStorage(orm: MikroORM, invalidations: InvalidationBus): Promise<{ clientsGone: number }> {
  await sweepExpiredModels(orm);
  await sweepExpiredSessions(orm.em);
  await sweepRevokedSignIns(orm.em.getConnection());
  await sweepExpiredFlowRows(orm.em);
  return { clientsGone: await endGrantsOfDeletedClients(orm, invalidations) };
}

/** `everyMs` 0: never on this instance. */
export class StorageSweepJob extends PeriodicJob {
  constructor(orm: MikroORM, invalidations: InvalidationBus, everyMs = SWEEP_EVERY_MS) {
    super('storage-sweep', everyMs, async (log) => {
      const { clientsGone } = await inJobSpan('storage-sweep run', () => sweepStorage(orm, invalidations));
      if (clientsGone > 0) log.info({ clientsGone }, 'storage sweep: grants of deleted clients ended');
    });
  }
}
