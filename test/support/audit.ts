import { randomUUID } from 'node:crypto';
import { AuditLog } from '../../src/db/entities/index.ts';
import type { TestApp } from './app.ts';

/** A request id of its own and the header that sends it, so that auditRecordsOf finds that one request's records. */
export function traced(): { requestId: string; headers: { 'x-request-id': string } } {
  const requestId = randomUUID();
  return { requestId, headers: { 'x-request-id': requestId } };
}

/**
 * The audit records a request wrote, in whichever application, oldest first: read past the tenancy filters, since the
 * audit search API reads one application at a time and a request may write in several.
 */
export function auditRecordsOf(app: TestApp, requestId: string): Promise<AuditLog[]> {
  return app.gatehouse.services.orm.em.fork().find(AuditLog, { requestId }, { filters: false, orderBy: { id: 'asc' } });
}
