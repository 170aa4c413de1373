import { AuditLog } from '../../src/db/entities/index.ts';
import type { TestApp } from './app.ts';

/**
 * The audit records a request wrote, in whichever application, oldest first: read past the tenancy filters, since the
 * audit search API reads one application at a time and a request may write in several.
 */
export function auditRecordsOf(app: TestApp, requestId: string): Promise<AuditLog[]> {
  return app.gatehouse.services.orm.em.fork().find(AuditLog, { requestId }, { filters: false, orderBy: { id: 'asc' } });
}
