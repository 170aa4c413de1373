import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../context.ts';

/** Who acted, and in which scope: a request's Scope, or the system itself (bootstrap). */
export type AuditActor = Pick<Scope, 'applicationId' | 'tenantId' | 'requestId'> & {
  principal: { actor: { type: string; id: string } };
};
import { AuditLog } from '../db/entities/index.ts';
import { newId } from '../ids.ts';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | null;
  /** The tenant the change concerns; defaults to the scope's. */
  tenantId?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records a mutation in the audit log through the mutation's own EntityManager, so the record commits or rolls
 * back with the change it describes. Search and streaming come with the audit-log issue.
 */
export function recordAudit(em: EntityManager, scope: AuditActor, entry: AuditEntry): void {
  em.create(AuditLog, {
    applicationId: scope.applicationId,
    id: newId(),
    tenantId: entry.tenantId === undefined ? scope.tenantId : entry.tenantId,
    actorType: scope.principal.actor.type,
    actorId: scope.principal.actor.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    requestId: scope.requestId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
