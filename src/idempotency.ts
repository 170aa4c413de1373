import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from './auth/principal.ts';
import { GatehouseError, invalid } from './errors.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;
export const REPLAYED_HEADER = 'idempotent-replayed';

export interface StoredResponse {
  status: number;
  body: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !UUID.test(header)) throw invalid('Idempotency-Key', 'Idempotency-Key must be a UUID');
  return header.toLowerCase();
}

export function requestFingerprint(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Runs `execute` at most once per (credential, key) within 24 h, in PostgreSQL so every instance agrees. The key
 * is claimed before running; a repeat gets the first response back, the same key on a different request gets 409
 * `idempotency_conflict`, as does a repeat while the first is still running. A 5xx releases the key for a retry.
 */
export async function withIdempotency(
  em: EntityManager,
  principal: Principal,
  key: string,
  fingerprint: string,
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const connection = em.getConnection();
  const owner = [principal.applicationId, principal.credentialId, key];
  await connection.execute(
    `delete from idempotency_record where application_id = ? and credential_id = ? and key = ?
       and created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    owner,
  );
  const claimed = await connection.execute<{ key: string }[]>(
    `insert into idempotency_record (application_id, credential_id, key, request_hash) values (?, ?, ?, ?)
       on conflict do nothing returning key`,
    [...owner, fingerprint],
  );
  if (claimed.length === 0) {
    const [existing] = await connection.execute<{ request_hash: string; status_code: number | null; response_body: string | null }[]>(
      'select request_hash, status_code, response_body from idempotency_record where application_id = ? and credential_id = ? and key = ?',
      owner,
    );
    if (existing === undefined || existing.request_hash !== fingerprint) {
      throw new GatehouseError('idempotency_conflict', 'This Idempotency-Key was used for a different request');
    }
    if (existing.status_code === null) {
      throw new GatehouseError('idempotency_conflict', 'A request with this Idempotency-Key is still in progress');
    }
    const body: unknown = existing.response_body === null ? undefined : JSON.parse(existing.response_body);
    return { status: existing.status_code, body, replayed: true };
  }
  let response: StoredResponse;
  try {
    response = await execute();
  } catch (error) {
    await connection.execute('delete from idempotency_record where application_id = ? and credential_id = ? and key = ?', owner);
    throw error;
  }
  if (response.status >= 500) {
    await connection.execute('delete from idempotency_record where application_id = ? and credential_id = ? and key = ?', owner);
  } else {
    await connection.execute(
      'update idempotency_record set status_code = ?, response_body = ? where application_id = ? and credential_id = ? and key = ?',
      [response.status, response.body === undefined ? null : JSON.stringify(response.body), ...owner],
    );
  }
  return { ...response, replayed: false };
}
