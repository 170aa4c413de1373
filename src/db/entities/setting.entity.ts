import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** The application's (`tenantId` null) or a tenant's override, by `feature` and `key` ('' for a single value). Secrets
 *  live apart from `value` and leave only through presenters. */
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
