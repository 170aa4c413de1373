import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The hosted flows' single-use rows, which nothing deletes on use; once expired each is refused like an unknown one,
 * so the OP's periodic sweep (src/oidc/provider.ts) deletes them in bounded batches. SAML sweeps its own (saml.ts).
 */
const EXPIRING_TABLES = ['email_sign_in', 'email_link_token', 'mfa_email_code'] as const;

export async function sweepExpiredFlowRows(em: EntityManager, limit = 1000): Promise<number> {
  const connection = em.getConnection();
  let deleted = 0;
  for (const table of EXPIRING_TABLES) {
    const rows = await connection.execute<{ n: number }[]>(
      `with gone as (delete from ${table} where ctid in (select ctid from ${table} where expires_at < now() limit ?) returning 1) select count(*)::int as n from gone`,
      [limit],
    );
    deleted += rows[0]?.n ?? 0;
  }
  return deleted;
}
