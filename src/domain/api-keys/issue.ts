import type { EntityManager } from '@mikro-orm/postgresql';
import { generateApiKeySecret, hashApiKeySecret } from '../../auth/api-key-secret.ts';
import { ApiKey } from '../../db/entities/index.ts';
import { changed } from '../../events/changes.ts';
import { newId } from '../../ids.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';

export interface ApiKeyWithSecret {
  key: ApiKey;
  secret: string;
}

export interface IssueApiKey {
  applicationId: string;
  tenantId: string | null;
  userId: string | null;
  name: string;
  permissions: string[];
  expiresAt: Date | null;
  /** The bootstrap key's; generated otherwise. */
  secret?: string;
}

/** Flushed by the caller's transaction; the secret is returned this once. */
export function issueApiKey(em: EntityManager, input: IssueApiKey): ApiKeyWithSecret {
  const secret = input.secret ?? generateApiKeySecret();
  const key = em.create(ApiKey, {
    applicationId: input.applicationId,
    id: newId(),
    tenantId: input.tenantId,
    userId: input.userId,
    name: input.name,
    permissions: input.permissions,
    secretHash: hashApiKeySecret(secret),
    expiresAt: input.expiresAt,
    revokedAt: null,
    lastRotatedAt: null,
  });
  return { key, secret };
}

const field = auditedFieldsOf<ApiKey>();
/** Never its secret or hash. */
const KEY_SNAPSHOT = auditedSnapshot([
  field.value('name'),
  field.list('permissions'),
  field.value('tenantId'),
  field.value('userId'),
  field.instant('expiresAt'),
  field.instant('revokedAt'),
  field.instant('lastRotatedAt'),
]);
export const keySnapshot = (key: ApiKey) => KEY_SNAPSHOT.of(key);
export const keySnapshotSql = KEY_SNAPSHOT.sql;

/** In the key's own application and tenant. */
export function recordKeyIssued(em: EntityManager, actor: AuditActor, key: ApiKey): void {
  recordAudit(em, { ...actor, applicationId: key.applicationId }, {
    action: 'api_key.created',
    targetType: 'api_key',
    targetId: key.id,
    tenantId: key.tenantId ?? null,
    after: keySnapshot(key),
  });
}

/** Audited in the key's own application and tenant. The caller publishes the invalidation after the commit. */
export function revokeKey(em: EntityManager, actor: AuditActor, key: ApiKey, reason?: string): void {
  const before = keySnapshot(key);
  key.revokedAt = new Date();
  recordAudit(em, { ...actor, applicationId: key.applicationId }, {
    action: 'api_key.revoked',
    targetType: 'api_key',
    targetId: key.id,
    tenantId: key.tenantId ?? null,
    before,
    after: { ...keySnapshot(key), ...(reason === undefined ? {} : { reason }) },
  });
  keyChanged(em, key.id);
}

/** Every instance forgets what it cached of the key (src/auth/api-key-cache.ts). */
export function keyChanged(em: EntityManager, keyId: string): void {
  changed(em, { kind: 'api_key', id: keyId });
}

const DAY_MS = 24 * 3600 * 1000;

/** The latest a secret issued now may work under the api_keys provider's `maxLifetimeDays`; null without a limit. */
export function latestKeyExpiry(maxLifetimeDays: unknown): Date | null {
  return typeof maxLifetimeDays === 'number' ? new Date(Date.now() + maxLifetimeDays * DAY_MS) : null;
}
