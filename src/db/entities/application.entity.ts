import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter } from '../owned.ts';

export type CustomizationScope = 'application' | 'tenant';
export type AuthIsolation = 'shared' | 'isolated';

const ApplicationSchema = defineEntity({
  name: 'Application',
  tableName: 'application',
  filters: applicationFilter('id'),
  properties: {
    id: p.uuid().primary(),
    organizationId: p.uuid(),
    name: p.string(),
    multiTenant: p.boolean(),
    brandingScope: p.string().$type<CustomizationScope>(),
    emailTemplatesScope: p.string().$type<CustomizationScope>(),
    emailProviderScope: p.string().$type<CustomizationScope>(),
    authIsolation: p.string().$type<AuthIsolation>(),
    /** How many days its audit records are kept (src/domain/audit/retention.ts). */
    auditRetentionDays: p.integer().default(90),
    /** The organization's console: its users are the dashboard's operators (src/domain/console/). */
    console: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Application extends ApplicationSchema.class {}
ApplicationSchema.setClass(Application);
