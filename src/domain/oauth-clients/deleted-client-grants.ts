import type { MikroORM } from '@mikro-orm/postgresql';
import { forgetGrants, type InvalidationBus } from '../../events/invalidations.ts';
import { newId, uuidOrNullSql } from '../../ids.ts';
import type { AuditActor } from '../audit/audit.ts';
import type { DomainServices } from '../../services.ts';
import { endClientGrants } from '../sessions/end-sessions.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import { MODEL, PAYLOAD } from '../../db/oidc-model.ts';

const DELETED_CLIENT_GRANTS: AuditActor['principal'] = { actor: { type: 'system', id: 'deleted-client-grants' } };

/** Clients a page; each ends in a transaction of its own. */
const PAGE = 100;
/** Enough for any deletion burst between runs; what is left waits for the next run. */
const MAX_CLIENTS_PER_RUN = 1_000;

/** Its own, or for one saved once its client's row was gone, its tenant row's (written under the client's application at
 *  sign-in) or its user's. */
const GRANT_APPLICATION = `coalesce(g.application_id,
  (select gt.application_id from oidc_model as gt where gt.model = '${MODEL.GrantTenant}' and gt.id = g.id),
  (select u.application_id from app_user as u where u.id = ${uuidOrNullSql(`g.payload->>'${PAYLOAD.accountId}'`)}))`;

export interface GoneClientFailure {
  readonly applicationId: string;
  readonly clientId: string;
  readonly error: unknown;
}

/** Ended as a deletion ends them, recorded by the system. A client whose grants fail to end is passed over till the next
 *  run, so that one fault cannot keep every later client's grants alive. */
export async function endGrantsOfDeletedClients(services: DomainServices): Promise<{ ended: number; failed: GoneClientFailure[] }> {
  const connection = services.orm.em.getConnection();
  let after: { application_id: string; client_id: string } | undefined;
  let ended = 0;
  const failed: GoneClientFailure[] = [];
  while (ended + failed.length < MAX_CLIENTS_PER_RUN) {
    const gone = await connection.execute<{ application_id: string; client_id: string }[]>(
      `select distinct g.application_id, g.client_id from (
          select ${GRANT_APPLICATION} as application_id, g.payload->>'${PAYLOAD.clientId}' as client_id from oidc_model as g
           where g.model = '${MODEL.Grant}' and g.payload->>'${PAYLOAD.clientId}' is not null) as g
        where g.application_id is not null and (g.application_id, g.client_id) > (?::uuid, ?::text)
          and not exists (select 1 from oauth_client as c where c.application_id = g.application_id and c.id = ${uuidOrNullSql('g.client_id')})
        order by g.application_id, g.client_id limit ?`,
      [after?.application_id ?? '00000000-0000-0000-0000-000000000000', after?.client_id ?? '', Math.min(PAGE, MAX_CLIENTS_PER_RUN - ended - failed.length)],
    );
    for (const { application_id: applicationId, client_id: clientId } of gone) {
      try {
        await endGrantsOfClient(services, applicationId, clientId);
        ended += 1;
      } catch (error) {
        failed.push({ applicationId, clientId, error });
      }
    }
    after = gone.at(-1);
    if (gone.length < PAGE) break;
  }
  return { ended, failed };
}

async function endGrantsOfClient(services: DomainServices, applicationId: string, clientId: string): Promise<void> {
  const actor: AuditActor = { applicationId, tenantId: null, requestId: newId(), principal: DELETED_CLIENT_GRANTS };
  // As the client's deletion reads it, before its transaction: the sign-ins end recorded as the lists judge them.
  const cutoffs = await grantHoldersCutoffs({ services, ...actor }, services.orm.em.fork(), new Date());
  const grants = await services.orm.em.fork().transactional(async (em) => {
    await em.execute(
      `update oidc_model as g set application_id = ? where g.model = '${MODEL.Grant}' and g.application_id is null and g.payload->>'${PAYLOAD.clientId}' = ? and ${GRANT_APPLICATION} = ?`,
      [applicationId, clientId, applicationId],
    );
    return endClientGrants(em, actor, clientId, cutoffs);
  });
  await forgetGrants(services.invalidations, grants);
}

/** A grant saved as its client's row went, whose user is gone since, names no application: nothing can record its end, and
 *  no one signs in with it. Deleted with its tokens, so that nothing of the user is kept. */
export async function deleteUnclaimedGrants(orm: MikroORM, invalidations: InvalidationBus, limit = 1000): Promise<number> {
  const deleted = await orm.em.getConnection().execute<{ id: string }[]>(
    `with unclaimed as (
       select g.id from oidc_model as g
        where g.model = '${MODEL.Grant}' and g.application_id is null and ${GRANT_APPLICATION} is null
          and not exists (select 1 from oauth_client as c where c.id = ${uuidOrNullSql(`g.payload->>'${PAYLOAD.clientId}'`)})
        limit ? for update skip locked),
     tokens as (delete from oidc_model where grant_id in (select id from unclaimed))
     delete from oidc_model as g using unclaimed where g.model = '${MODEL.Grant}' and g.id = unclaimed.id returning g.id`,
    [limit],
  );
  await forgetGrants(invalidations, deleted.map(({ id }) => id));
  return deleted.length;
}
