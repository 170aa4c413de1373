import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { AuditAction } from '../audit/actions.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../auth/client-secrets.ts';
import type { Scope } from '../../context.ts';
import type { Application } from '../../db/entities/index.ts';
import { Setting, Tenant } from '../../db/entities/index.ts';
import type { SettingFeature } from '../../db/entities/setting.entity.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit, secretNames, secretNamesSql, withWrittenSecrets } from '../audit/audit.ts';
import { APPLICATION_ROWS } from '../loaders.ts';
import { configurationChanged } from './changed.ts';
import { underTenancyConfig } from './config-lock.ts';

/**
 * A tenant override counts only while the application's governing switch allows it, and is kept, hidden, while it
 * does not (spec, States and transitions).
 */
export type Source = 'inherited' | 'customized';

export interface Effective<T> {
  value: T;
  source: Source;
  /** Absent for the built-in default. */
  row: Setting | undefined;
}

export function tenantMayCustomize(application: Application, feature: SettingFeature): boolean {
  if (!application.multiTenant) return false;
  switch (feature) {
    case 'branding':
      return application.brandingScope === 'tenant';
    case 'email_template':
      return application.emailTemplatesScope === 'tenant';
    case 'email_provider':
      return application.emailProviderScope === 'tenant';
    case 'policy':
      return application.authIsolation === 'isolated';
  }
}

/** For error messages. */
export const GOVERNING_SWITCH: Record<SettingFeature, string> = {
  branding: 'tenancyConfig.brandingScope',
  email_template: 'tenancyConfig.emailTemplatesScope',
  email_provider: 'tenancyConfig.emailProviderScope',
  policy: 'tenancyConfig.authIsolation',
};

export function assertTenantMayCustomize(application: Application, feature: SettingFeature): void {
  if (!tenantMayCustomize(application, feature)) {
    const setting = GOVERNING_SWITCH[feature];
    const allowing = feature === 'policy' ? 'isolated' : 'tenant';
    throw new GatehouseError(
      'tenant_customization_disabled',
      `Tenant overrides of ${feature.replace('_', ' ')} need ${setting} = ${allowing}`,
      { field: setting },
    );
  }
}

function find(rows: Setting[], feature: SettingFeature, key: string): Setting | undefined {
  return rows.find((row) => row.feature === feature && row.key === key);
}

/** Through the request's loader, so a page of tenants reads the application's rows once. */
export async function applicationValue<T>(scope: Scope, feature: SettingFeature, key: string, fallback: T): Promise<Effective<T>> {
  const row = find(await scope.loaders.settings.load(APPLICATION_ROWS), feature, key);
  return { value: row === undefined ? fallback : (row.value as T), source: 'inherited', row };
}

/** Batched across tenants by the request's DataLoader. */
export async function effectiveValue<T>(
  scope: Scope,
  tenantId: string,
  feature: SettingFeature,
  key: string,
  fallback: T,
): Promise<Effective<T>> {
  const application = await scope.application();
  if (tenantMayCustomize(application, feature)) {
    const override = find(await scope.loaders.settings.load(tenantId), feature, key);
    if (override !== undefined) return { value: override.value as T, source: 'customized', row: override };
  }
  return applicationValue(scope, feature, key, fallback);
}

export interface SettingWrite {
  feature: SettingFeature;
  key: string;
  /**
   * Decided against the row this write replaces, which is locked: a concurrent write cannot change what it decided on.
   * A null secret removes one. What it throws aborts the write.
   */
  compose(stored: Setting | null): { value: Record<string, unknown>; secrets?: Record<string, string | null> };
  action: AuditAction;
}

/** Each new value sealed: a dump of the table reveals none. */
function mergeSecrets(
  stored: Record<string, string> | null | undefined,
  changes: Record<string, string | null> | undefined,
  box: SecretBox,
): Record<string, string> | null {
  if (changes === undefined) return stored ?? null;
  const merged: Record<string, string> = { ...(stored ?? {}) };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else merged[name] = box.encrypt(value);
  }
  return Object.keys(merged).length === 0 ? null : merged;
}

/** Secrets only by name, so that setting or removing one shows in before/after. */
function audited(value: Record<string, unknown>, secrets: Record<string, string> | null | undefined, hasSecrets: boolean): Record<string, unknown> {
  return hasSecrets ? { ...value, secretsSet: secretNames(secrets) } : value;
}

/** removeTenantOverride's `before` in SQL, for set-based changes (a test holds the two equal). */
export const removedOverrideSql = (row: string) =>
  `case when ${row}.secrets is null then ${row}.value else ${row}.value || jsonb_build_object('secretsSet', ${secretNamesSql(`${row}.secrets`)}) end`;

async function upsert(em: EntityManager, scope: Scope, tenantId: string | null, write: SettingWrite): Promise<Setting> {
  const existing = await em.findOne(
    Setting,
    { tenantId, feature: write.feature, key: write.key },
    { filters: { tenant: { id: null } }, ...HOLD_FOR_UPDATE },
  );
  const { value, secrets } = write.compose(existing);
  const hasSecrets = secrets !== undefined;
  const before = existing === null ? null : audited(existing.value, existing.secrets, hasSecrets);
  let row: Setting;
  if (existing === null) {
    row = em.create(Setting, {
      applicationId: scope.applicationId,
      id: newId(),
      tenantId,
      feature: write.feature,
      key: write.key,
      value,
      secrets: mergeSecrets(null, secrets, scope.services.storedSecrets),
    });
  } else {
    existing.value = value;
    existing.secrets = mergeSecrets(existing.secrets, secrets, scope.services.storedSecrets);
    row = existing;
  }
  recordAudit(em, scope, {
    action: write.action,
    targetType: write.feature,
    targetId: write.key === '' ? null : write.key,
    tenantId,
    before,
    after: withWrittenSecrets(audited(value, row.secrets, hasSecrets), secrets),
  });
  configurationChanged(em, scope.applicationId, tenantId);
  return row;
}

/**
 * Once more if a concurrent request inserted the same key first: concurrent first writes all succeed, the last wins.
 * A tenant's override is written only while the switch allows it, read under the lock (config-lock.ts).
 */
async function upsertRetrying(scope: Scope, tenantId: string | null, write: SettingWrite): Promise<Setting> {
  const attempt = () =>
    underTenancyConfig(scope, async (tx) => {
      if (tenantId !== null) assertTenantMayCustomize(await tx.application(), write.feature);
      return upsert(tx.em, scope, tenantId, write);
    });
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    return attempt();
  }
}

/** Application-wide credentials only. */
export async function putApplicationSetting(scope: Scope, write: SettingWrite): Promise<Setting> {
  scope.requireApplicationWide();
  return upsertRetrying(scope, null, write);
}

export async function putTenantOverride(scope: Scope, tenantId: string, write: SettingWrite): Promise<Setting> {
  await assertTenantExists(scope, tenantId);
  return upsertRetrying(scope, tenantId, write);
}

/**
 * A write like a put: refused while the switch hides the override, which is kept to reappear when the switch allows
 * it again (spec, Tenancy rule 5). Deleting the tenant removes its overrides without this (owned-rows.ts).
 */
/** `withIt`: what else the removal writes, in its transaction. */
export async function removeTenantOverride(
  scope: Scope,
  tenantId: string,
  feature: SettingFeature,
  key: string,
  action: AuditAction,
  withIt?: (em: EntityManager) => Promise<void>,
): Promise<boolean> {
  await underTenancyConfig(scope, async (tx) => {
    assertTenantMayCustomize(await tx.application(), feature);
    const { em } = tx;
    // Held FOR UPDATE, as committed: a second removal at once waits for this one, then finds nothing (404).
    const row = await em.findOne(Setting, { tenantId, feature, key }, HOLD_FOR_UPDATE);
    if (row === null) throw notFound('Tenant override');
    const before = audited(row.value, row.secrets, row.secrets != null);
    recordAudit(em, scope, { action, targetType: feature, targetId: key === '' ? null : key, tenantId, before, after: null });
    em.remove(row);
    await withIt?.(em);
    configurationChanged(em, scope.applicationId, tenantId);
  });
  return true;
}

async function assertTenantExists(scope: Scope, tenantId: string): Promise<void> {
  if ((await scope.em.count(Tenant, { id: tenantId })) === 0) throw notFound('Tenant', 'tenantId');
}
