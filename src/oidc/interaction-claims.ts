import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { awaitTurn } from '../db/advisory-lock.ts';
import { CLAIM_KEY, liveRow, MODEL, PAYLOAD } from '../db/oidc-model.ts';

/**
 * The forms of one interaction (and the consent page that finishes it without one) are answered one at a time, so a
 * form posted while another is being answered (a double submit) is judged once that one is done, as if posted after
 * it: the interaction's result, when it has one, stands.
 * Within this process the waiting is a turn, holding no connection; across instances it is a claim written into the
 * interaction's row by a conditional update, asked for again every CLAIM_RETRY_MS while another instance holds it.
 * oidc-provider neither reads nor saves the key, so the save of the interaction's result ends the claim too.
 */

/** Far longer than a form's answer takes: only a claim whose holder died is taken over after it. */
export const CLAIM_SECONDS = 60;
const CLAIM_RETRY_MS = 50;

export interface InteractionClaim {
  /** The interaction once claimed: with its result (`answered`), still awaiting one, or over (resumed, expired). */
  readonly state: 'open' | 'answered' | 'gone';
  /** Lets the interaction's next form go; once. */
  release(): Promise<void>;
}

const INTERACTION = `model = '${MODEL.Interaction}' and id = ?`;

/**
 * An update waits for one under way on the row and then reads it as that one left it, so a result saved before the
 * previous holder let go is seen. Null while another instance holds it.
 */
async function takeClaim(orm: MikroORM, uid: string, holder: string): Promise<InteractionClaim['state'] | null> {
  const [row] = await orm.em.getConnection().execute<{ answered: boolean | null; present: boolean }[]>(
    `with claimed as (
       update oidc_model set payload = payload || jsonb_build_object('${CLAIM_KEY}', jsonb_build_object('holder', ?::text, 'until', extract(epoch from now()) + ?))
        where ${INTERACTION} and ${liveRow()} and coalesce((payload->'${CLAIM_KEY}'->>'until')::numeric <= extract(epoch from now()), true)
       returning payload->'${PAYLOAD.result}' is not null as answered)
     select (select answered from claimed) as answered, exists (select 1 from oidc_model where ${INTERACTION} and ${liveRow()}) as present`,
    [holder, CLAIM_SECONDS, uid, uid],
  );
  if (row?.answered != null) return row.answered ? 'answered' : 'open';
  return row?.present === true ? null : 'gone';
}

/** Waits for the forms of the interaction `uid` being answered before (any instance's); `retry` waits before asking again
 *  while another instance holds the claim. */
export async function claimInteraction(orm: MikroORM, uid: string, retry: () => Promise<unknown> = () => sleep(CLAIM_RETRY_MS)): Promise<InteractionClaim> {
  const leave = await awaitTurn(`interaction-claim:${uid}`);
  const holder = randomUUID();
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    try {
      await orm.em
        .getConnection()
        .execute(`update oidc_model set payload = payload - '${CLAIM_KEY}' where ${INTERACTION} and payload->'${CLAIM_KEY}'->>'holder' = ?`, [uid, holder]);
    } finally {
      leave();
    }
  };
  try {
    let state = await takeClaim(orm, uid, holder);
    while (state === null) {
      await retry();
      state = await takeClaim(orm, uid, holder);
    }
    return { state, release };
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
}
