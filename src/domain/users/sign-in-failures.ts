import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';

/**
 * The lockout's failed sign-ins per account and client address (`sign_in_failure`, written by src/domain/sign-in/lockout.ts):
 * what the hosted sign-in and the users API (an unlock) both need to know of them.
 */

/** Whether the `sign_in_failure` row `alias` locks its address out of the account now. */
export const addressLockedSql = (alias: string): string =>
  `(${alias}.locked_at is not null and (${alias}.locked_until is null or ${alias}.locked_until > now()))`;

/**
 * Forgets every address's failures on the user's account (an administrator's unlock). Returns how many addresses
 * were locked out of it. The caller holds the user's row: the user's row before the addresses', as the sign-in takes them.
 */
export async function forgetSignInFailures(em: EntityManager, applicationId: string, userId: string): Promise<{ addresses: number; locked: number }> {
  const rows = await executeOwned<{ locked: boolean }[]>(
    em,
    applicationId,
    `delete from sign_in_failure as f where @owner(f) and f.user_id = ? returning ${addressLockedSql('f')} as locked`,
    [userId],
  );
  return { addresses: rows.length, locked: rows.filter((row) => row.locked).length };
}
