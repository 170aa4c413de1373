import { ApiError } from './api.ts';
import { callInScope, type SettingsScope } from './operations.ts';
import { getSession } from './session.ts';

/** Whether the signed-in operator holds a built-in permission (`users:write`) where a screen acts: what it offers. */
export type MayDo = (permission: string) => boolean;

/** An operator holding a role application-wide: every action is offered, and the server judges each. */
export const MAY_DO_ALL: MayDo = () => true;

/**
 * Which of `permissions` the signed-in operator holds in the scope, asked of the API as a check of the operator
 * themself (`bulkCheckPermissions`, as any client checks a subject). The check takes `permissions:read`: refused it,
 * nothing is known, and every action is offered for the server to judge.
 */
export async function readOwnPermissions(scope: SettingsScope, permissions: readonly string[]): Promise<MayDo> {
  const operator = getSession()?.subject;
  if (operator === undefined) throw new Error('Your session has ended: sign in again.');
  const mutation = `mutation OwnPermissions($appId: UUID!, $tenantId: UUID, $input: BulkCheckPermissionsInput!) {
    bulkCheckPermissions(appId: $appId, tenantId: $tenantId, input: $input) { results { allowed } }
  }`;
  const checks = permissions.map((permission) => ({ subject: { type: 'operator', id: operator }, permission }));
  try {
    const data = await callInScope<{ bulkCheckPermissions: { results: { allowed: boolean }[] } }>(mutation, scope, { input: { checks } });
    const held = new Set(permissions.filter((_, index) => data.bulkCheckPermissions.results[index]?.allowed === true));
    return (permission) => held.has(permission);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') return MAY_DO_ALL;
    throw error;
  }
}

/** Whether a tenant's override may be written with `permission` there: it also takes `tenant_overrides:write` (spec: Authentication, rule 6). */
export const mayOverride = (may: MayDo, permission: string): boolean => may(permission) && may('tenant_overrides:write');
