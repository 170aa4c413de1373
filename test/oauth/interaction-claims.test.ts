import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLAIM_SECONDS, claimInteraction } from '../../src/oidc/interaction-claims.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { lockTurnsWaitingAtLeast } from '../support/database.ts';

/**
 * The claim each form of an interaction takes before it proves or records anything (src/oidc/interaction-claims.ts):
 * in this process a turn, across instances a claim in the interaction's row. The hosted forms' double submits, and the
 * consent page opened twice at once, are in hosted-tenants.test.ts and hosted-mfa.test.ts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const claim = (uid: string, retry?: () => Promise<unknown>) => claimInteraction(app.gatehouse.services.orm, uid, retry);

/** The OP's interaction row, as its first save leaves it (a payload with no result). */
async function interaction(): Promise<string> {
  const uid = randomUUID();
  await app.sql(`insert into oidc_model (model, id, payload, expires_at) values ('Interaction', ?, '{"uid": "x"}'::jsonb, now() + interval '1 hour')`, [uid]);
  return uid;
}

/** As the OP saves an interaction's result: the whole payload, which holds no claim. */
const answer = (uid: string) =>
  app.sql(`update oidc_model set payload = (payload - 'gatehouseClaim') || '{"result": {"login": {"accountId": "x"}}}'::jsonb where model = 'Interaction' and id = ?`, [uid]);
const claimOf = async (uid: string) =>
  (await app.sql<{ claim: { holder: string; until: number } | null }>(`select payload->'gatehouseClaim' as claim from oidc_model where model = 'Interaction' and id = ?`, [uid]))[0]?.claim;
/** Another instance's claim, ending `seconds` from now. */
const claimedElsewhere = (uid: string, seconds: number) =>
  app.sql(
    `update oidc_model set payload = payload || jsonb_build_object('gatehouseClaim', jsonb_build_object('holder', 'another instance', 'until', extract(epoch from now()) + ?)) where model = 'Interaction' and id = ?`,
    [seconds, uid],
  );

it('a second claim in this process waits for the first to let go, then finds the interaction as the first left it', async () => {
  const uid = await interaction();
  const first = await claim(uid);
  expect(first.state).toBe('open');
  let secondTaken = false;
  const second = claim(uid).then((taken) => ((secondTaken = true), taken));
  await lockTurnsWaitingAtLeast(1);
  expect(secondTaken).toBe(false);
  await answer(uid);
  await first.release();
  const next = await second;
  expect(next.state).toBe('answered');
  await next.release();
  expect(await claimOf(uid)).toBeNull();
});

it('a claim another instance holds is asked for again until that instance lets go', async () => {
  const uid = await interaction();
  await claimedElsewhere(uid, 60);
  let retries = 0;
  // The other instance saves the interaction's result while this one waits, which ends its claim.
  const taken = await claim(uid, async () => {
    retries += 1;
    await answer(uid);
  });
  expect(retries).toBe(1);
  expect(taken.state).toBe('answered');
  await taken.release();
});

it('a claim whose holder died is taken over once it lapses; an interaction over (resumed, expired) is gone', async () => {
  const uid = await interaction();
  await claimedElsewhere(uid, -1);
  const taken = await claim(uid, () => Promise.reject(new Error('a lapsed claim is not waited for')));
  expect(taken.state).toBe('open');
  const [row] = await app.sql<{ seconds: number }>(
    `select ((payload->'gatehouseClaim'->>'until')::numeric - extract(epoch from now()))::int as seconds from oidc_model where model = 'Interaction' and id = ?`,
    [uid],
  );
  expect(row!.seconds).toBeGreaterThan(CLAIM_SECONDS - 10);
  await taken.release();
  expect(await claimOf(uid)).toBeNull();

  await app.sql(`delete from oidc_model where model = 'Interaction' and id = ?`, [uid]);
  const gone = await claim(uid);
  expect(gone.state).toBe('gone');
  await gone.release();
});
