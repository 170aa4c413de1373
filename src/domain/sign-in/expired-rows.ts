import type { EntityManager } from '@mikro-orm/postgresql';

/** Expired rows read as absent (every lookup names `expires_at`), so the storage sweep deletes them in bounded batches. */
const EXPIRING_TABLES = ['email_sign_in', 'email_link_token', 'mfa_email_code', 'saml_request', 'saml_assertion', 'saml_subject', 'saml_logout', 'replaced_password'] as const;

export async function sweepExpiredFlowRows(em: EntityManager, limit = 1000): Promise<number> {
  const connection = em.getConnection();
  let deleted = 0;
  for (const table of EXPIRING_TABLES) {
    const rows = await connection.execute<{ n: number }[]>(
      `with gone as (delete from ${table} where ctid in (select ctid from ${table} where expires_at < now() limit ? for update skip locked) returning 1) select count(*)::int as n from gone`,
      [limit],
    );
    deleted += rows[0]?.n ?? 0;
  }
  return deleted;
}
