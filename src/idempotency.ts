import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
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

/**
 * The one rule for "the same request" under an Idempotency-Key, on both transports: a hash of `parts` as JSON whose
 * objects list their keys in sorted order, so how a body was written (key order, whitespace) does not count, only its
 * values. Each transport names its operation canonically in `parts`: REST its method, route and operation variables
 * (src/rest/adapter.ts), /graphql its printed document, operation name, variables and extensions (src/server.ts).
 */
export function requestFingerprint(...parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts, sortedKeys)).digest('hex');
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Whom a stored response answers to: the credential, whom it acts as, its tenant and the permissions it holds in
 * effect (an API key narrowed by a Bearer token holds less than the key alone). A replay runs no operation, so no
 * permission check: it is served to the same effective principal only, and the same key from any other is a new
 * request, checked as any other (the same API key with a narrower token gets its 403, not the stored secret).
 */
function effectivePrincipal({ credentialId, actor, tenantId, permissions }: Principal): string {
  return requestFingerprint(credentialId, actor.type, actor.id, tenantId, permissions.allowed());
}

/**
 * A stored response may hold a secret shown once (a rotated API key's): the store keeps neither the key nor the
 * response readable. The row is found by a hash of the key and its effective principal, and the body is sealed
 * (AES-256-GCM) with a key derived from the Idempotency-Key, which only the client holds: reading the table
 * reveals no secret.
 */
function storedKey(key: string, principal: string): string {
  const hex = createHash('sha256').update(`idempotency-key\0${principal}\0${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function sealingKey(key: string, principal: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, principal, 'gatehouse idempotency response', 32));
}

function seal(body: unknown, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(body), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

function unseal(stored: string, key: Buffer): unknown {
  const [version, iv, sealed] = stored.split('.');
  if (version !== 'v1' || iv === undefined || sealed === undefined) throw new Error('unreadable idempotency record');
  const data = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  return JSON.parse(Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8'));
}

/**
 * How long a claimed key may stay unanswered before it counts as abandoned. Far longer than any management write takes
 * (deleting a tenant of 20,000 users: under 2 s), so a request still running is never run twice.
 */
const ABANDONED_CLAIM_MINUTES = 10;

/**
 * Runs `execute` at most once per (effective principal, key) within 24 h, in PostgreSQL so every instance agrees. The
 * key is claimed before running; a repeat gets the first response back, the same key on a different request gets 409
 * `idempotency_conflict`, as does a repeat while the first is still running. A 5xx releases the key for a retry, and
 * so does a claim left unanswered for ABANDONED_CLAIM_MINUTES (its instance died): the same request then runs.
 */
export async function withIdempotency(
  em: EntityManager,
  principal: Principal,
  key: string,
  fingerprint: string,
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const connection = em.getConnection();
  const caller = effectivePrincipal(principal);
  const owner = [principal.applicationId, principal.credentialId, storedKey(key, caller)];
  const sealing = sealingKey(key, caller);
  await purgeNowAndThen(em);
  // Forget this credential's expired keys (this one included): one index range of the primary key.
  await connection.execute(
    `delete from idempotency_record where application_id = ? and credential_id = ?
       and created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    owner.slice(0, 2),
  );
  // A claim still unanswered after ABANDONED_CLAIM_MINUTES was its instance's last act (it died mid-request): the same
  // request takes it over rather than meet "still in progress" for 24 h.
  const claimed = await connection.execute<{ key: string }[]>(
    `insert into idempotency_record (application_id, credential_id, key, request_hash) values (?, ?, ?, ?)
       on conflict (application_id, credential_id, key) do update set created_at = now()
         where idempotency_record.status_code is null and idempotency_record.request_hash = excluded.request_hash
           and idempotency_record.created_at < now() - interval '${ABANDONED_CLAIM_MINUTES} minutes'
       returning key`,
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
    const body: unknown = existing.response_body === null ? undefined : unseal(existing.response_body, sealing);
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
      [response.status, response.body === undefined ? null : seal(response.body, sealing), ...owner],
    );
  }
  return { ...response, replayed: false };
}

const PURGE_EVERY_MS = 10 * 60_000;
let lastPurge = 0;

/** Every instance purges everyone's expired keys at most every 10 minutes, on the path of a keyed request. */
async function purgeNowAndThen(em: EntityManager): Promise<void> {
  if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = Date.now();
  await purgeExpiredIdempotencyRecords(em);
}

/** Forgets every expired key of every credential (idempotent; see purgeNowAndThen). */
export async function purgeExpiredIdempotencyRecords(em: EntityManager): Promise<number> {
  const result = await em.getConnection().execute(
    `delete from idempotency_record where created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [],
    'run',
  );
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}
