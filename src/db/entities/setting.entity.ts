import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/**
 * One row per configured value of the tenancy engine: the application's value (`tenantId` null) or one
 * tenant's override. `feature` names the switch-governed feature, `key` the item within it (a template key,
 * a policy kind; '' where the feature holds one value). Secrets live apart from `value` and leave only
 * through presenters that say whether they are set.
 */
export type SettingFeature = 'branding' | 'email_template' | 'email_provider' | 'policy';

const SettingSchema = defineEntity({
  name: 'Setting',
  tableName: 'setting',
  filters: tenantOwnedFilters({ inheritsApplicationRows: true }),
  properties: {
    ...tenantOwnedColumns(),
    feature: p.string().$type<SettingFeature>(),
    key: p.string(),
    value: p.json<Record<string, unknown>>(),
    secrets: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Setting extends SettingSchema.class {}
SettingSchema.setClass(Setting);
