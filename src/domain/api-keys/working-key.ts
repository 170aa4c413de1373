import type { MikroORM } from '@mikro-orm/postgresql';
import { keyUserMayActNowSql } from '../users/sign-in-user.ts';

/** A key as authentication holds it (and its cache keeps it): the row's columns. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly application_id: string;
  readonly tenant_id: string | null;
  readonly user_id: string | null;
  readonly permissions: string[];
  readonly secret_hash: string;
  readonly expires_at: Date | null;
}

/**
 * Across applications: before any scope exists the hash is all that finds a key. Raw SQL (the ORM's mapping costs ~4×).
 * Authentication and introspection both ask this, so a key works exactly when it introspects active. The caller
 * compares in constant time.
 */
export async function readWorkingKey(orm: MikroORM, secretHash: string): Promise<ApiKeyRecord | undefined> {
  const [row] = await orm.em.getConnection().execute<(Omit<ApiKeyRecord, 'expires_at'> & { expires_at: Date | string | null })[]>(
    `select k.id, k.application_id, k.tenant_id, k.user_id, k.permissions, k.secret_hash, k.expires_at from api_key as k
      where k.secret_hash = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
        and ${keyUserMayActNowSql('k')}`,
    [secretHash],
  );
  // MikroORM keeps the driver's dates as strings: the cache compares the expiry with a Date.
  return row === undefined ? undefined : { ...row, expires_at: row.expires_at === null ? null : new Date(row.expires_at) };
}
