import type { MikroORM } from '@mikro-orm/postgresql';
import type { AdapterPayload } from 'oidc-provider';
import { liveRow, MODEL, type SavedWith } from '../db/oidc-model.ts';
import type { Surface } from '../domain/domains/surfaces.ts';
import { SPENT_INTERACTION_SECONDS } from '../domain/sign-in/session.ts';
import { holdsNul } from '../domain/validate.ts';
import { isUuid } from '../ids.ts';

/** What an interaction's address still tells once it is over: its client and surface, nothing of the request or browser. */
export interface SpentInteraction {
  readonly clientId: string;
  readonly issuer: string;
}

/** Written with the interaction's first save, outliving it by SPENT_INTERACTION_SECONDS. */
export function spentInteractionMark(uid: string, payload: AdapterPayload, expiresAt: Date | null, surface: Surface): SavedWith | undefined {
  const clientId = payload.params?.['client_id'];
  if (typeof clientId !== 'string' || !isUuid(clientId)) return undefined;
  const mark: SpentInteraction = { clientId, issuer: surface.issuer };
  const expires = new Date((expiresAt?.getTime() ?? Date.now()) + SPENT_INTERACTION_SECONDS * 1000);
  return {
    cte: `spent as (insert into oidc_model (model, id, application_id, payload, expires_at)
       values ('${MODEL.SpentInteraction}', ?, (select application_id from oauth_client where id = ?), ?::jsonb, ?) on conflict (model, id) do nothing)`,
    params: [uid, clientId, JSON.stringify(mark), expires],
  };
}

/** Undefined for a uid never issued. */
export async function findSpentInteraction(orm: MikroORM, uid: string): Promise<SpentInteraction | undefined> {
  if (holdsNul(uid)) return undefined;
  const [row] = await orm.em
    .getConnection()
    .execute<{ payload: SpentInteraction }[]>(`select payload from oidc_model where model = '${MODEL.SpentInteraction}' and id = ? and ${liveRow()}`, [uid]);
  return row?.payload;
}
