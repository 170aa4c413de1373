import type { TestApp } from './app.ts';

/** The tests' browser, as the service sees it. */
export const BROWSER_ADDRESS = '127.0.0.1';

/**
 * The `sign_in_failure` row the lockout policy leaves after failed passwords from `address`: `locked` as at `maxAttempts`,
 * `waiting` as from the 3rd failure on (here 8: a 32 s wait, src/domain/sign-in/lockout.ts).
 */
export async function leaveAddress(app: TestApp, userId: string, standing: 'locked' | 'waiting', address = BROWSER_ADDRESS, applicationId = app.root.applicationId): Promise<void> {
  await app.sql(
    standing === 'locked'
      ? `insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at, locked_at, locked_until)
         values (?, ?, ?, 10, now(), now(), now() + interval '5 minutes')`
      : `insert into sign_in_failure (application_id, user_id, address, failures, last_failed_at) values (?, ?, ?, 8, now())`,
    [applicationId, userId, address],
  );
}

/** What is left of the address's failures on the account. */
export const failuresAt = (app: TestApp, userId: string, address = BROWSER_ADDRESS) =>
  app.sql<{ failures: number; locked: boolean }>(`select failures, locked_at is not null as locked from sign_in_failure where user_id = ? and address = ?`, [userId, address]);
