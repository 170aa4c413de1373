import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';

/** Failed sign-ins per account and address (`sign_in_failure`, written by src/domain/sign-in/lockout.ts). */

export const addressLockedSql = (alias: string): string =>
  `(${alias}.locked_at is not null and (${alias}.locked_until is null or ${alias}.locked_until > now()))`;

/** Returns how many addresses were locked out. The caller holds the user's row first, as the sign-in takes them. */
export async function forgetSignInFailures(em: EntityManager, applicationId: string, userId: string): Promise<{ addresses: number; locked: number }> {
  const rows = await executeOwned<{ locked: boolean }[]>(
    em,
    applicationId,
    `delete from sign_in_failure as f where @owner(f) and f.user_id = ? returning ${addressLockedSql('f')} as locked`,
    [userId],
  );
  return { addresses: rows.length, locked: rows.filter((row) => row.locked).length };
}
