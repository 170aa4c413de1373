import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, type Hash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';
import { createRequestContext, type RequestContext } from '../context.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { RequestTransaction } from '../db/request-transaction.ts';
import { GatehouseError, invalid } from '../errors.ts';
import { checkedTenants } from '../graphql/authorize-operation.ts';

export const IDEMPOTENCY_TTL_HOURS = 24;
export const REPLAYED_HEADER = 'idempotent-replayed';

export interface StoredResponse {
  status: number;
  body: unknown;
  /** A 429's alone, which is not stored (retryLater). */
  retryAfterSeconds?: number | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !UUID.test(header)) throw invalid('Idempotency-Key', 'Idempotency-Key must be a UUID');
  return header.toLowerCase();
}

/** The server reads an id in either letter case as one: so does a fingerprint. */
export const canonicalUuid = (value: string): string => (UUID.test(value) ? value.toLowerCase() : value);

/**
 * The one rule for "the same request" on both transports: a hash of `parts` as JSON with sorted object keys, so how a
 * body was written does not count, only its values (nor a UUID's letter case). Each transport names its operation
 * canonically in `parts`.
 */
export function requestFingerprint(...parts: unknown[]): string {
  const text = new HashedText(createHash('sha256'));
  writeCanonicalJson(parts, text);
  return text.digest();
}

/** Hashed as written, so a body of up to 1 MiB is never copied whole into one string; short pieces are gathered per hash call. */
class HashedText {
  private pending = '';
  private readonly hash: Hash;

  constructor(hash: Hash) {
    this.hash = hash;
  }

  write(piece: string): void {
    if (piece.length >= HASHED_PIECE) {
      this.flush();
      this.hash.update(piece);
      return;
    }
    this.pending += piece;
    if (this.pending.length >= HASHED_PIECE) this.flush();
  }

  digest(): string {
    this.flush();
    return this.hash.digest('hex');
  }

  private flush(): void {
    if (this.pending === '') return;
    this.hash.update(this.pending);
    this.pending = '';
  }
}

const HASHED_PIECE = 16 * 1024;

// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const ESCAPED_IN_JSON = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Keys in sorted (UTF-16) order. */
function writeCanonicalJson(value: unknown, text: HashedText): void {
  if (typeof value === 'string' && value.length >= HASHED_PIECE && !ESCAPED_IN_JSON.test(value)) {
    // Hashed as it is, without a copy of a megabyte.
    text.write('"');
    text.write(value);
    text.write('"');
  } else if (typeof value === 'string') {
    text.write(JSON.stringify(canonicalUuid(value)));
  } else if (typeof value !== 'object' || value === null) {
    text.write(JSON.stringify(value) ?? 'null');
  } else if (Array.isArray(value)) {
    text.write('[');
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text.write(',');
      writeCanonicalJson(value[index], text);
    }
    text.write(']');
  } else {
    text.write('{');
    let separator = '';
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) continue;
      text.write(`${separator}${JSON.stringify(key)}:`);
      writeCanonicalJson(member, text);
      separator = ',';
    }
    text.write('}');
  }
}

/** What the caller holds now in each tenant the request acts in (after a Bearer token's narrowing), by tenant. */
type HeldPermissions = Record<string, readonly string[]>;

async function heldPermissions(principal: Principal): Promise<HeldPermissions> {
  const tenants = await checkedTenants(principal);
  const lists = await Promise.all(tenants.map(async (tenant) => (await principal.permissionsIn(tenant)).allowed()));
  return Object.fromEntries(tenants.map((tenant, index) => [tenant ?? '', lists[index] ?? []]));
}

/** A replay may reveal no more than the first answer's caller could see: only to one who holds at least what it held. */
function holdsAtLeast(now: HeldPermissions, then: HeldPermissions): boolean {
  return Object.entries(then).every(([tenant, permissions]) => {
    const held = new Set(now[tenant]);
    return permissions.every((permission) => held.has(permission));
  });
}

/**
 * A stored response may hold a secret shown once (a rotated API key's): the row is found by a hash, and the body sealed
 * (AES-256-GCM) with a key derived from the Idempotency-Key, which only the client holds.
 */
function storedKey(key: string, principal: string): string {
  const hex = createHash('sha256').update(`idempotency-key\0${principal}\0${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function derivedKey(key: string, principal: string, purpose: 'request' | 'response'): Buffer {
  return Buffer.from(hkdfSync('sha256', key, principal, `gatehouse idempotency ${purpose}`, 32));
}

/** Keyed as the body is sealed: a plain hash of a request holding a password would check guesses at it. */
function requestHash(fingerprint: string, key: string, principal: string): string {
  return createHmac('sha256', derivedKey(key, principal, 'request')).update(fingerprint).digest('hex');
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

interface StoredRecord {
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string | null;
}

/** Where one caller's answer to one Idempotency-Key is kept, and how it is read. */
interface Keying {
  readonly storedKey: string;
  readonly sealing: Buffer;
  readonly fingerprint: string;
}

interface KeyRecord {
  readonly applicationId: string;
  readonly credentialId: string;
  /** The credential, whom it acts as and its tenant; the body sealed with the permissions held when it was answered. */
  readonly current: Keying;
  readonly held: HeldPermissions;
  /** As releases before 2026-12-04 keep it: keyed by the permissions held too (before 2026-12-03, the plain hash). */
  readonly earlier: Keying & { readonly plainFingerprint: string };
}

interface SealedAnswer {
  held: HeldPermissions;
  body?: unknown;
}

function keying(key: string, caller: string, fingerprint: string): Keying {
  return {
    storedKey: storedKey(key, caller),
    sealing: derivedKey(key, caller, 'response'),
    fingerprint: requestHash(fingerprint, key, caller),
  };
}

/** A write holds its key for its own duration only. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

/**
 * At most once per (caller, key) within 24 h, in PostgreSQL so every instance agrees; the same key on a different
 * request is 409, and so is a repeat from a caller that holds less than it did (a replay skips the operation's own
 * checks of what it holds). Only after the permission check: a stored answer is served to no one it refuses.
 * Exactly once across crashes: the writes and the stored answer commit in one request transaction, which holds the key
 * (advisory lock; a concurrent repeat is 409 with Retry-After). A 5xx or 429 is rolled back unstored, so a retry runs again.
 */
export async function withIdempotency(
  context: RequestContext,
  key: string,
  fingerprint: string,
  execute: (context: RequestContext) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const { services, principal, requestId } = context;
  const { applicationId, credentialId, actor, tenantId } = principal;
  const held = await heldPermissions(principal);
  const caller = requestFingerprint(credentialId, actor.type, actor.id, tenantId);
  const earlierCaller = requestFingerprint(credentialId, actor.type, actor.id, tenantId, ...Object.values(held));
  const record: KeyRecord = {
    applicationId,
    credentialId,
    current: keying(key, caller, fingerprint),
    held,
    earlier: { ...keying(key, earlierCaller, fingerprint), plainFingerprint: fingerprint },
  };
  const em = services.orm.em.fork();
  await purgeNowAndThen(em);
  // One index range of the primary key.
  await executeOwned(
    em,
    applicationId,
    `delete from idempotency_record where @owner and credential_id = ?
       and created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [credentialId],
  );
  const stored = await findAnswer(em, record);
  if (stored !== undefined) return replay(stored, record);

  let refusal: GatehouseError | undefined;
  let answered: StoredRecord | undefined;
  const transaction = new RequestTransaction(services.orm, async (tx) => {
    if (!(await holdKey(tx, record))) {
      refusal = new GatehouseError('idempotency_conflict', 'A request with this Idempotency-Key is still in progress', {
        retryAfterSeconds: IN_PROGRESS_RETRY_AFTER_SECONDS,
      });
      throw refusal;
    }
    answered = await findAnswer(tx, record);
    if (answered !== undefined) throw new GatehouseError('idempotency_conflict', 'A request with this Idempotency-Key has been answered');
  });
  let response: StoredResponse;
  try {
    response = await execute(createRequestContext(services, requestId, principal, transaction));
    if (!retryLater(response)) await transaction.begin();
  } catch (error) {
    await transaction.rollback();
    if (answered !== undefined) return replay(answered, record);
    throw refusal ?? error;
  }
  if (retryLater(response)) {
    await transaction.rollback();
    return { ...response, replayed: false };
  }
  try {
    await store(transaction.em, record, response);
    await transaction.commit();
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
  return { ...response, replayed: false };
}

const retryLater = (response: StoredResponse): boolean => response.status >= 500 || response.status === 429;

/**
 * Also as releases before 2026-12-04 keep it, which may serve beside this one (a rolling upgrade, a rollback): a retry
 * reaching one of them replays instead of running again (to a caller holding exactly the same, as they did).
 */
async function store(em: EntityManager, record: KeyRecord, response: StoredResponse): Promise<void> {
  const { applicationId, credentialId, current, earlier } = record;
  await em.execute(
    `insert into idempotency_record (application_id, credential_id, key, request_hash, status_code, response_body) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)
       on conflict (application_id, credential_id, key) do update
         set request_hash = excluded.request_hash, status_code = excluded.status_code, response_body = excluded.response_body, created_at = now()`,
    [
      ...[applicationId, credentialId, current.storedKey, current.fingerprint, response.status],
      seal({ held: record.held, body: response.body } satisfies SealedAnswer, current.sealing),
      ...[applicationId, credentialId, earlier.storedKey, earlier.fingerprint, response.status],
      response.body === undefined ? null : seal(response.body, earlier.sealing),
    ],
  );
}

/** An expired one, not yet deleted, is overwritten by the next answer. */
async function findAnswer(em: EntityManager, record: KeyRecord): Promise<StoredRecord | undefined> {
  const [row] = await executeOwned<StoredRecord[]>(
    em,
    record.applicationId,
    `select key, request_hash, status_code, response_body from idempotency_record
      where @owner and credential_id = ? and key in (?, ?) and created_at >= now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
      order by key = ? desc limit 1`,
    [record.credentialId, record.current.storedKey, record.earlier.storedKey, record.current.storedKey],
  );
  return row;
}

/**
 * Else answers false at once. The embedded database takes the lock whoever holds it, but there a second transaction
 * does not begin before the first ends, and then finds its answer.
 */
async function holdKey(em: EntityManager, record: KeyRecord): Promise<boolean> {
  const owner = `idempotency:${record.applicationId}:${record.credentialId}`;
  // The earlier releases' lock too (store).
  const [row] = await em.execute<{ held: boolean }[]>(
    'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) and pg_try_advisory_xact_lock(hashtextextended(?, 0)) as held',
    [`${owner}:${record.current.storedKey}`, `${owner}:${record.earlier.storedKey}`],
  );
  return row?.held === true;
}

function replay(stored: StoredRecord, record: KeyRecord): StoredResponse & { replayed: true } {
  const earlier = stored.key === record.earlier.storedKey;
  const { fingerprint, sealing } = earlier ? record.earlier : record.current;
  if (stored.request_hash !== fingerprint && !(earlier && stored.request_hash === record.earlier.plainFingerprint)) {
    throw new GatehouseError('idempotency_conflict', 'This Idempotency-Key was used for a different request');
  }
  if (earlier) {
    const body: unknown = stored.response_body === null ? undefined : unseal(stored.response_body, sealing);
    return { status: stored.status_code, body, replayed: true };
  }
  const answer = unseal(stored.response_body ?? '', sealing) as SealedAnswer;
  if (!holdsAtLeast(record.held, answer.held)) {
    throw new GatehouseError(
      'idempotency_conflict',
      'This Idempotency-Key was answered to this caller when it held permissions it no longer holds; send the request with a new key',
    );
  }
  return { status: stored.status_code, body: answer.body, replayed: true };
}

const PURGE_EVERY_MS = 10 * 60_000;
let lastPurge = 0;

/** At most every 10 minutes, on the path of a keyed request. */
async function purgeNowAndThen(em: EntityManager): Promise<void> {
  if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = Date.now();
  await purgeExpiredIdempotencyRecords(em);
}

export async function purgeExpiredIdempotencyRecords(em: EntityManager): Promise<number> {
  const result = await em.getConnection().execute(
    `delete from idempotency_record where created_at < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'`,
    [],
    'run',
  );
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}
