import type { MikroORM } from '@mikro-orm/postgresql';
import { PeriodicJob } from '../background-work.ts';
import { deleteUnclaimedGrants, endGrantsOfDeletedClients, type GoneClientFailure } from '../domain/oauth-clients/deleted-client-grants.ts';
import { sweepExpiredSessions } from '../domain/sessions/browser-sessions.ts';
import { sweepRevokedSignIns } from '../domain/sessions/revoked-sign-ins.ts';
import { sweepExpiredFlowRows } from '../domain/sign-in/expired-rows.ts';
import type { DomainServices } from '../services.ts';
import { inJobSpan } from '../observability/spans.ts';

export const SWEEP_EVERY_MS = 10 * 60_000;

/** Expired models already read as absent: this only reclaims space. */
export async function sweepExpiredModels(orm: MikroORM, limit = 1000): Promise<number> {
  const deleted = await orm.em.getConnection().execute<{ id: string }[]>(
    `delete from oidc_model where (model, id) in (select model, id from oidc_model where expires_at < now() limit ? for update skip locked)
     returning id`,
    [limit],
  );
  return deleted.length;
}

/** A bounded batch a run; safe on several instances: deletes are by key, rows another transaction holds are left for the
 *  next run (skip locked) rather than waited for, and only the deleting statement records an end. */
export async function sweepStorage(services: DomainServices): Promise<{ clientsGone: number; clientsFailed: GoneClientFailure[] }> {
  const { orm, invalidations } = services;
  await sweepExpiredModels(orm);
  await sweepExpiredSessions(orm.em);
  await sweepRevokedSignIns(orm.em.getConnection());
  await sweepExpiredFlowRows(orm.em);
  const { ended, failed } = await endGrantsOfDeletedClients(services);
  await deleteUnclaimedGrants(orm, invalidations);
  return { clientsGone: ended, clientsFailed: failed };
}

/** `everyMs` 0: never on this instance. Also as it starts: an instance that never stayed up `everyMs` would never sweep,
 *  and a run may come at any moment anyway (instances sweep at once safely). */
export class StorageSweepJob extends PeriodicJob {
  constructor(services: DomainServices, everyMs = SWEEP_EVERY_MS) {
    super(
      'storage-sweep',
      everyMs,
      async (log) => {
        const { clientsGone, clientsFailed } = await inJobSpan('storage-sweep run', () => sweepStorage(services));
        if (clientsGone > 0) log.info({ clientsGone }, 'storage sweep: grants of deleted clients ended');
        for (const { applicationId, clientId, error } of clientsFailed) {
          log.error({ applicationId, clientId, err: error }, 'storage sweep: the grants of a deleted client could not end; the next run tries again');
        }
      },
      { runsAtStart: true },
    );
  }
}
