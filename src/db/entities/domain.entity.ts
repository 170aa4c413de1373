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
    /** The last lookup that answered (the verification's, then each re-check's: src/domain/domains/recheck.ts). */
    checkedAt: p.datetime().nullable(),
    /** The first of the consecutive re-checks that found no record; null while it is found. */
    failingSince: p.datetime().nullable(),
    /** An instance's lease on its re-check (migration 0069). */
    recheckClaimedUntil: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Domain extends DomainSchema.class {}
DomainSchema.setClass(Domain);
