import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** A custom domain: the application's (`tenantId` null) or, when auth is isolated, one tenant's. */
const DomainSchema = defineEntity({
  name: 'Domain',
  tableName: 'domain',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    hostname: p.string(),
    verificationToken: p.string(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Domain extends DomainSchema.class {}
DomainSchema.setClass(Domain);
