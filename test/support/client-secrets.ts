import type { TestApp } from './app.ts';

/**
 * The secrets the OP would accept for an OAuth client or M2M credential, decrypted from its row: the current one and,
 * during a grace period, the previous one with its end.
 */
export async function storedClientSecrets(
  app: TestApp,
  clientId: string,
): Promise<{ current: string | null; previous: string | null; previousExpiresAt: Date | null }> {
  const [row] = await app.gatehouse.services.orm.em
    .getConnection()
    .execute<{ secret_encrypted: string | null; previous_secret_encrypted: string | null; previous_secret_expires_at: Date | null }[]>(
      'select secret_encrypted, previous_secret_encrypted, previous_secret_expires_at from oauth_client where id = ?',
      [clientId],
    );
  const box = app.gatehouse.services.clientSecrets;
  return {
    current: row?.secret_encrypted == null ? null : box.decrypt(row.secret_encrypted),
    previous: row?.previous_secret_encrypted == null ? null : box.decrypt(row.previous_secret_encrypted),
    previousExpiresAt: row?.previous_secret_expires_at == null ? null : new Date(row.previous_secret_expires_at),
  };
}
