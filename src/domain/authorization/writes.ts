import type { EntityManager } from '@mikro-orm/postgresql';
import { isBuiltInResource } from '../../auth/permissions.ts';
import type { Scope } from '../../context.ts';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import { GatehouseError, invalid } from '../../errors.ts';
import { isPlainText } from '../validate.ts';

/**
 * Held until `em`'s transaction ends: one writer of an application's roles and custom permissions at a time. A key
 * unique across levels (a tenant's and the application's), and a role that names a custom permission being deleted,
 * are checked before the write; the lock keeps those checks true until it commits. Such writes are rare.
 */
export async function lockAuthorization(em: EntityManager, applicationId: string): Promise<void> {
  await lockForTransaction(em, `authorization:${applicationId}`);
}

/** After the commit: every instance forgets what it derived from the application's roles and assignments. */
export async function authorizationChanged(scope: Pick<Scope, 'services' | 'applicationId'>): Promise<void> {
  await scope.services.invalidations.publish({ kind: 'roles', id: scope.applicationId });
}

/** One part of a key: lower-case letters, digits, `_` and `-`, 1 to 64 of them. */
const KEY_PART = /^[a-z0-9_-]{1,64}$/;

/** A role's key (`billing_admin`): one part. */
export function roleKey(value: string): string {
  if (!KEY_PART.test(value)) throw invalid('key', 'key must be 1 to 64 lower-case letters, digits, `_` or `-`');
  return value;
}

/** Whether a value has the shape of a custom permission's key: `resource:action`, each part as a role's key. */
export function isPermissionKeyShaped(value: string): boolean {
  const [resource, action, ...rest] = value.split(':');
  return rest.length === 0 && resource !== undefined && action !== undefined && KEY_PART.test(resource) && KEY_PART.test(action);
}

/** A custom permission's key, `resource:action`, each part as a role's key, the resource not one of the management API's. */
export function permissionKey(value: string): string {
  if (!isPermissionKeyShaped(value)) throw invalid('key', 'key must be resource:action, each part 1 to 64 lower-case letters, digits, `_` or `-`');
  const resource = value.slice(0, value.indexOf(':'));
  if (isBuiltInResource(resource)) throw invalid('key', `${resource} is a resource of the management API: its permissions are built in`);
  return value;
}

const DESCRIPTION_MAX = 500;

/** A description: at most 500 characters, no control character but line breaks and tabs; absent or null is empty. */
export function description(value: string | null | undefined): string {
  const text = (value ?? '').trim();
  // A code point is one or two UTF-16 units: longer than twice the limit is too long without counting.
  if (text.length > 2 * DESCRIPTION_MAX || [...text].length > DESCRIPTION_MAX) throw invalid('description', `description must be at most ${DESCRIPTION_MAX} characters`);
  if (!isPlainText(text)) throw invalid('description', 'description must not contain control characters');
  return text;
}

/** 409 `already_exists` for a key another record of the same kind already has where this one would be seen. */
export function keyTaken(what: string, key: string): GatehouseError {
  return new GatehouseError('already_exists', `${what} ${JSON.stringify(key)} already exists in this application or tenant`, { field: 'key' });
}

/**
 * Where a record of `tenantId` (null: application-wide) may not share its key: its own level, the application's,
 * and for an application-wide one every tenant's, so that a key names one record wherever it is seen.
 */
export function keyClashes(tenantId: string | null): object {
  return tenantId === null ? {} : { $or: [{ tenantId: null }, { tenantId }] };
}

/** The records a role or assignment of `tenantId` (null: application-wide) sees: the application's, and its tenant's. */
export function visibleIn(tenantId: string | null): object {
  return tenantId === null ? { tenantId: null } : { $or: [{ tenantId: null }, { tenantId }] };
}
