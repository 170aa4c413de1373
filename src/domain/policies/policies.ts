import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { invalid } from '../../errors.ts';
import { applicationValue, effectiveValue, putApplicationSetting, putTenantOverride, removeTenantOverride, type Source } from '../tenancy/settings.ts';
import { isPolicyKind, parsePolicy, POLICY_KINDS, storedPolicy, type PasswordPolicy, type PolicyKind, type PolicyValues } from './definitions.ts';

/**
 * Setting rows (feature `policy`, key = kind): a tenant scope reads the tenant's effective policy and writes its
 * override; an application-wide scope the application's.
 */
export interface PolicyMeta {
  /** Null at application scope. */
  source: Source | null;
  /** Null while the built-in default applies. */
  updatedAt: Date | null;
}

export type PolicyView = { [K in PolicyKind]: { kind: K } & PolicyValues[K] & PolicyMeta }[PolicyKind];
export type PasswordPolicyView = Extract<PolicyView, { kind: 'password' }>;
export type MfaPolicyView = Extract<PolicyView, { kind: 'mfa' }>;
export type SessionPolicyView = Extract<PolicyView, { kind: 'session' }>;
export type LockoutPolicyView = Extract<PolicyView, { kind: 'lockout' }>;
export type PoliciesView = { [K in PolicyKind]: Extract<PolicyView, { kind: K }> };

function view<K extends PolicyKind>(kind: K, value: PolicyValues[K], meta: PolicyMeta): Extract<PolicyView, { kind: K }> {
  return { kind, ...value, ...meta } as unknown as Extract<PolicyView, { kind: K }>;
}

function kindOf(kind: string): PolicyKind {
  if (!isPolicyKind(kind)) throw invalid('kind', `kind must be one of ${POLICY_KINDS.join(', ')}`);
  return kind;
}

/** Null tenant: the application's. */
export async function effectivePolicy<K extends PolicyKind>(scope: Scope, kind: K, tenantId: string | null): Promise<PolicyValues[K]> {
  return (await effectivePolicyRow(scope, kind, tenantId)).value;
}

/** With when the policy in force last changed (epoch ms; null while the built-in default always applied): its row's
 *  last write, or, for a tenant whose MFA override was removed since, that removal (the application's row then judges
 *  the sessions its override judged). */
export async function effectivePolicyRow<K extends PolicyKind>(scope: Scope, kind: K, tenantId: string | null): Promise<{ value: PolicyValues[K]; changedAt: number | null }> {
  const effective =
    tenantId === null
      ? await applicationValue<Record<string, unknown>>(scope, 'policy', kind, {})
      : await effectiveValue<Record<string, unknown>>(scope, tenantId, 'policy', kind, {});
  const written = effective.row?.updatedAt.getTime() ?? null;
  const reverted = kind === 'mfa' && tenantId !== null && effective.source !== 'customized' ? await mfaOverrideRemovedAt(scope, tenantId) : null;
  return { value: storedPolicy(kind, effective.value), changedAt: reverted === null || (written !== null && written > reverted) ? written : reverted };
}

async function mfaOverrideRemovedAt(scope: Scope, tenantId: string): Promise<number | null> {
  const [tenant] = await executeOwned<{ removed_at: Date | null }[]>(scope.em, scope.applicationId, 'select mfa_override_removed_at as removed_at from tenant where @owner and id = ?', [tenantId]);
  return tenant?.removed_at == null ? null : new Date(tenant.removed_at).getTime();
}

/** See checkPassword. */
export async function effectivePasswordPolicy(scope: Scope, tenantId: string | null): Promise<PasswordPolicy> {
  return effectivePolicy(scope, 'password', tenantId);
}

async function scopedView<K extends PolicyKind>(scope: Scope, kind: K): Promise<Extract<PolicyView, { kind: K }>> {
  if (scope.tenantId === null) {
    const effective = await applicationValue<Record<string, unknown>>(scope, 'policy', kind, {});
    return view(kind, storedPolicy(kind, effective.value), { source: null, updatedAt: effective.row?.updatedAt ?? null });
  }
  const effective = await effectiveValue<Record<string, unknown>>(scope, scope.tenantId, 'policy', kind, {});
  return view(kind, storedPolicy(kind, effective.value), { source: effective.source, updatedAt: effective.row?.updatedAt ?? null });
}

export async function getPolicies(scope: Scope): Promise<PoliciesView> {
  const [password, mfa, session, lockout] = await Promise.all([
    scopedView(scope, 'password'),
    scopedView(scope, 'mfa'),
    scopedView(scope, 'session'),
    scopedView(scope, 'lockout'),
  ]);
  return { password, mfa, session, lockout };
}

export async function getPolicy(scope: Scope, kind: string): Promise<PolicyView> {
  return scopedView(scope, kindOf(kind));
}

/** Fields left out take the built-in default. A tenant override needs `authIsolation` = `isolated` (else 409). */
export async function putPolicy(scope: Scope, kindName: string, input: Readonly<Record<string, unknown>>): Promise<PolicyView> {
  const kind = kindOf(kindName);
  const value = parsePolicy(kind, input);
  const write = { feature: 'policy' as const, key: kind, compose: () => ({ value: value as unknown as Record<string, unknown> }) };
  if (scope.tenantId === null) {
    const row = await putApplicationSetting(scope, { ...write, action: 'policy.updated' });
    return view(kind, value, { source: null, updatedAt: row.updatedAt });
  }
  const row = await putTenantOverride(scope, scope.tenantId, { ...write, action: 'policy.overridden' });
  return view(kind, value, { source: 'customized', updatedAt: row.updatedAt });
}

/** Only a tenant scope has an override to remove (422 on `tenantId` otherwise); 404 when the tenant has none. */
export async function removePolicy(scope: Scope, kindName: string): Promise<boolean> {
  const kind = kindOf(kindName);
  if (scope.tenantId === null) {
    throw invalid('tenantId', 'Only a tenant override can be removed: use /applications/{appId}/tenants/{tenantId}/policies/{kind}');
  }
  const tenantId = scope.tenantId;
  // The application's MFA policy judges the tenant's sessions from now: one its override judged may owe the step.
  const marked = (em: EntityManager) => executeOwned(em, scope.applicationId, 'update tenant set mfa_override_removed_at = now() where @owner and id = ?', [tenantId]).then(() => undefined);
  return removeTenantOverride(scope, tenantId, 'policy', kind, 'policy.override.removed', kind === 'mfa' ? marked : undefined);
}
