import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter, tenantFilter } from '../owned.ts';

/** A tenant-scoped credential sees only its own tenant row. */
const TenantSchema = defineEntity({
  name: 'Tenant',
  tableName: 'tenant',
  filters: { ...applicationFilter(), ...tenantFilter({ kind: 'column', column: 'id', inheritsApplicationRows: false }) },
  properties: {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    name: p.string(),
    slug: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Tenant extends TenantSchema.class {}
TenantSchema.setClass(Tenant);
