import { isBuiltInResource } from '../../auth/permissions.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { changed } from '../../events/changes.ts';
import { GatehouseError, invalid } from '../../errors.ts';
import { isPlainText } from '../validate.ts';

/** One writer of an application's roles and custom permissions at a time: key uniqueness across levels and roles naming a
 *  permission being deleted are checked before the write, and this lock keeps them true until it commits. */
export const authorizationLock = (applicationId: string): string => `authorization:${applicationId}`;

/** Every instance forgets what it holds of the application's roles, permissions and who holds them. */
export function authorizationChanged(em: EntityManager, applicationId: string): void {
  changed(em, { kind: 'roles', id: applicationId });
}

const KEY_PART = /^[a-z0-9_-]{1,64}$/;

export function roleKey(value: string): string {
  if (!KEY_PART.test(value)) throw invalid('key', 'key must be 1 to 64 lower-case letters, digits, `_` or `-`');
  return value;
}

export function isPermissionKeyShaped(value: string): boolean {
  const [resource, action, ...rest] = value.split(':');
  return rest.length === 0 && resource !== undefined && action !== undefined && KEY_PART.test(resource) && KEY_PART.test(action);
}

/** The resource may not be one of the management API's. */
export function permissionKey(value: string, field = 'key'): string {
  if (!isPermissionKeyShaped(value)) throw invalid(field, 'key must be resource:action, each part 1 to 64 lower-case letters, digits, `_` or `-`');
  const resource = value.slice(0, value.indexOf(':'));
  if (isBuiltInResource(resource)) throw invalid(field, `${resource} is a resource of the management API: its permissions are built in`);
  return value;
}

const DESCRIPTION_MAX = 500;

export function description(value: string | null | undefined, field = 'description'): string {
  const text = (value ?? '').trim();
  // A code point is one or two UTF-16 units: longer than twice the limit is too long without counting.
  if (text.length > 2 * DESCRIPTION_MAX || [...text].length > DESCRIPTION_MAX) throw invalid(field, `description must be at most ${DESCRIPTION_MAX} characters`);
  if (!isPlainText(text)) throw invalid(field, 'description must not contain control characters');
  return text;
}

export function keyTaken(what: string, key: string, field = 'key'): GatehouseError {
  return new GatehouseError('already_exists', `${what} ${JSON.stringify(key)} already exists in this application or tenant`, { field });
}

/** Its own level, the application's, and for an application-wide one every tenant's: one key, one record anywhere. */
export function keyClashes(tenantId: string | null): object {
  return tenantId === null ? {} : { $or: [{ tenantId: null }, { tenantId }] };
}

export function visibleIn(tenantId: string | null): object {
  return tenantId === null ? { tenantId: null } : { $or: [{ tenantId: null }, { tenantId }] };
}
