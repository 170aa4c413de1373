import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter, tenantFilter } from '../owned.ts';

/** One audit record per mutation, written in the mutation's own transaction (domain/audit.ts). */
const AuditLogSchema = defineEntity({
  name: 'AuditLog',
  tableName: 'audit_log',
  filters: {
    ...applicationFilter(),
    ...tenantFilter({ kind: 'column', column: 'tenantId', inheritsApplicationRows: false }),
  },
  properties: {
    applicationId: p.uuid(),
    id: p.uuid().primary(),
    tenantId: p.uuid().nullable(),
    actorType: p.string(),
    actorId: p.string(),
    action: p.string(),
    targetType: p.string(),
    targetId: p.string().nullable(),
    requestId: p.string(),
    before: p.json<unknown>().nullable(),
    after: p.json<unknown>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class AuditLog extends AuditLogSchema.class {}
AuditLogSchema.setClass(AuditLog);
