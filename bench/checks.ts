import { startTestApp } from '../test/support/app.ts';
import { TestRoles } from '../test/support/roles.ts';
import type { BenchRequest } from './client-credentials.ts';

/** POST /permissions/check with the service's API key, of the first user of the seeded application. */
export async function permissionCheckRequest(service: { baseUrl: string; apiKey: string }): Promise<BenchRequest> {
  const headers = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const users = (await (await fetch(`${service.baseUrl}/api/v1/users?pageSize=1`, { headers })).json()) as { data: { id: string }[] };
  const userId = users.data[0]?.id;
  if (userId === undefined) throw new Error('the permission check needs a seeded user');
  return { path: '/api/v1/permissions/check', method: 'POST', headers, body: JSON.stringify({ subject: { type: 'user', id: userId }, permission: 'invoices:approve' }) };
}

export interface CheckStatementCounts {
  /** A bulk check of 100 checks of 100 subjects, on a cold cache (the credentials' own grants too). */
  readonly bulkCold: number;
  /** The same bulk check again. */
  readonly bulkWarm: number;
  /** One check, right after an assignment changed (the `roles` invalidation). */
  readonly afterAssignment: number;
  /** The same check again. */
  readonly checkWarm: number;
}

/** Counts the SQL statements of checks, in process through the service's `onQuery` hook (authentication included). */
export async function countCheckStatements(): Promise<CheckStatementCounts> {
  const app = await startTestApp();
  try {
    const roles = new TestRoles(app);
    const subjects: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const created = await app.http.post('/users', { email: `check-${i}@example.com` });
      if (created.status !== 201) throw new Error(`creating a user: ${created.status} ${JSON.stringify(created.body)}`);
      subjects.push(created.body.id as string);
    }
    const approver = await roles.create('approver', ['invoices:approve']);
    const checks = subjects.map((id) => ({ subject: { type: 'user', id }, permission: 'invoices:approve' }));
    const counted = async (path: string, body: unknown) => {
      const before = app.queries.length;
      const response = await app.http.post(path, body);
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(response.body)}`);
      return app.queries.length - before;
    };
    // The API key is remembered by authentication; what every subject holds is forgotten.
    await app.http.get('/users?pageSize=1');
    await app.gatehouse.services.invalidations.publish({ kind: 'roles', id: app.root.applicationId });
    const bulkCold = await counted('/permissions/bulk-check', { checks });
    const bulkWarm = await counted('/permissions/bulk-check', { checks });
    const one = { subject: { type: 'user', id: subjects[0] }, permission: 'invoices:approve' };
    await counted('/permissions/check', one);
    await roles.assign({ type: 'user', id: subjects[0]! }, approver);
    const afterAssignment = await counted('/permissions/check', one);
    const checkWarm = await counted('/permissions/check', one);
    return { bulkCold, bulkWarm, afterAssignment, checkWarm };
  } finally {
    await app.close();
  }
}
