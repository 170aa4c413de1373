import { inTurn } from '../../src/db/advisory-lock.ts';
import type { TestApp } from './app.ts';
import { lockTurnsWaitingAtLeast } from './database.ts';

/** Where a request writes between its check of the user and what it stores: a table, which of its rows (SQL on `new`, on
 *  `old` for a delete) and by which writes (`insert or update` unless told). */
export interface WriteOf {
  readonly table: string;
  readonly when: string;
  readonly events?: string;
}

/**
 * While `run` runs, a write of `on` also runs `change` in the same statement (a trigger, as an administrator's change
 * committing in those milliseconds would): the window between a request's check of the user and what it then stores,
 * hit on either database, whatever the machine's speed. `change` is the test's own SQL, never input.
 */
export async function changedAtWrite<T>(app: TestApp, change: string, on: WriteOf, run: () => Promise<T>): Promise<T> {
  await app.sql(`create function test_change_at_write() returns trigger language plpgsql as $$ begin ${change}; return new; end $$`);
  await app.sql(`create trigger test_change_at_write after ${on.events ?? 'insert or update'} on ${on.table} for each row when (${on.when}) execute function test_change_at_write()`);
  try {
    return await run();
  } finally {
    await app.sql(`drop trigger test_change_at_write on ${on.table}`);
    await app.sql('drop function test_change_at_write');
  }
}

/** changedAtWrite suspending the user (`userId`: the test's own UUID). */
export const suspendedAtWrite = <T>(app: TestApp, userId: string, on: WriteOf, run: () => Promise<T>): Promise<T> =>
  changedAtWrite(app, `update app_user set status = 'suspended' where id = '${userId}'`, on, run);

/** Runs `change` (the test's own SQL) while `run`'s request waits for its turn at the advisory lock `lock`
 *  (src/db/advisory-lock.ts), held here: after the request has read the user, before its transaction begins. Either
 *  database: the turn is taken in this process. */
export async function changedInTurn<T>(app: TestApp, change: string, lock: string, run: () => Promise<T>): Promise<T> {
  const { answer } = await inTurn(lock, async () => {
    const answer = run();
    await lockTurnsWaitingAtLeast(1);
    await app.sql(change);
    return { answer };
  });
  return answer;
}

/** changedInTurn suspending the user (`userId`: the test's own UUID). */
export const suspendedInTurn = <T>(app: TestApp, userId: string, lock: string, run: () => Promise<T>): Promise<T> =>
  changedInTurn(app, `update app_user set status = 'suspended' where id = '${userId}'`, lock, run);
