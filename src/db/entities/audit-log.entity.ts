import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

export type AuditOutcome = 'success' | 'failure';

/** One audit record per mutation, written in the mutation's own transaction (domain/audit/audit.ts). */
const AuditLogSchema = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_log',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    actorType: p.string(),
    actorId: p.string(),
    /** The API key the request authenticated with, if any: beside a Bearer token, the actor is the token's subject. */
    apiKeyId: p.uuid().nullable(),
    action: p.string(),
    targetType: p.string(),
    targetId: p.string().nullable(),
    requestId: p.string(),
    /** The request's client address and user agent; null outside a request (the bootstrap). */
    ip: p.string().nullable(),
    userAgent: p.string().nullable(),
    outcome: p.string().$type<AuditOutcome>().default('success'),
    /** With no tenant, a shared-pool user's tenants before and after the change: theirs to read too (search.ts). */
    memberTenantIds: p.array().columnType('uuid[]').nullable(),
    before: p.json<unknown>().nullable(),
    after: p.json<unknown>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class AuditLog extends AuditLogSchema.class {}
AuditLogSchema.setClass(AuditLog);
