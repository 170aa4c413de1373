import type { RoleSubjectType } from '../../src/db/entities/role-assignment.entity.ts';
import { newId } from '../../src/ids.ts';
import type { TestApp } from './app.ts';

/**
 * Authorization data written straight into the tables, for the suites of what reads it (tokens, claims): the
 * management API of permissions, roles and role assignments is tested on its own.
 */
export function authorizationData(app: TestApp, applicationId = app.root.applicationId) {
  const { sql } = app;
  return {
    /** An application-wide custom permission (`invoices:approve`). */
    async permission(key: string): Promise<void> {
      await sql('insert into permission (application_id, id, tenant_id, key, description, created_at) values (?, ?, null, ?, ?, now())', [applicationId, newId(), key, key]);
    },
    /** A role (application-wide, or a tenant's own); returns its id. */
    async role(key: string, permissions: string[], tenantId: string | null = null): Promise<string> {
      const id = newId();
      await sql(
        `insert into role (application_id, id, tenant_id, key, name, description, permissions, built_in, created_at, updated_at)
          values (?, ?, ?, ?, ?, '', ?::text[], false, now(), now())`,
        [applicationId, id, tenantId, key, key, `{${permissions.join(',')}}`],
      );
      return id;
    },
    /** The id of a built-in role. */
    async builtInRole(key: string): Promise<string> {
      const [row] = await sql<{ id: string }>('select id from role where application_id = ? and key = ? and built_in', [applicationId, key]);
      return row!.id;
    },
    /** Assigns a role in one tenant, or (null) application-wide. */
    async assign(subject: { type: RoleSubjectType; id: string }, roleId: string, tenantId: string | null): Promise<void> {
      await sql(
        'insert into role_assignment (application_id, id, tenant_id, role_id, subject_type, subject_id, created_at) values (?, ?, ?, ?, ?, ?, now())',
        [applicationId, newId(), tenantId, roleId, subject.type, subject.id],
      );
    },
  };
}
