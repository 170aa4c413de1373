import type { RoleSubjectType } from '../../src/db/entities/role-assignment.entity.ts';
import { newId } from '../../src/ids.ts';
import type { TestApp } from './app.ts';

/**
 * Roles and role assignments written as their CRUD writes them: rows, then the `roles` invalidation of the application
 * (every instance forgets what its subjects hold). For the tests of checks and enforcement.
 */
export class TestRoles {
  private readonly app: TestApp;
  readonly applicationId: string;

  constructor(app: TestApp, applicationId: string = app.root.applicationId) {
    this.app = app;
    this.applicationId = applicationId;
  }

  private changed(): Promise<void> {
    return this.app.gatehouse.services.invalidations.publish({ kind: 'roles', id: this.applicationId });
  }

  /** The id of the role `key` (application-wide, or the tenant's own). */
  async id(key: string, tenantId: string | null = null): Promise<string> {
    const [row] = await this.app.sql<{ id: string }>(
      'select id from role where application_id = ? and key = ? and tenant_id is not distinct from ?::uuid',
      [this.applicationId, key, tenantId],
    );
    if (row === undefined) throw new Error(`no role ${key}`);
    return row.id;
  }

  /** A new custom role holding `permissions`; its id. */
  async create(key: string, permissions: string[], tenantId: string | null = null): Promise<string> {
    const id = newId();
    await this.app.sql(
      `insert into role (application_id, id, tenant_id, key, name, description, permissions, built_in, created_at, updated_at)
        values (?, ?, ?, ?, ?, '', string_to_array(?, ','), false, now(), now())`,
      [this.applicationId, id, tenantId, key, key, permissions.join(',')],
    );
    await this.changed();
    return id;
  }

  /** Assigns the role (by key or id) to the subject, in `tenantId` or (null) application-wide; the assignment's id. */
  async assign(subject: { type: RoleSubjectType; id: string }, role: string, tenantId: string | null = null): Promise<string> {
    const roleId = /^[0-9a-f-]{36}$/.test(role) ? role : await this.id(role);
    const id = newId();
    await this.app.sql('insert into role_assignment values (?, ?, ?, ?, ?, ?, now())', [this.applicationId, id, tenantId, roleId, subject.type, subject.id]);
    await this.changed();
    return id;
  }

  async revoke(assignmentId: string): Promise<void> {
    await this.app.sql('delete from role_assignment where application_id = ? and id = ?', [this.applicationId, assignmentId]);
    await this.changed();
  }

  /** Replaces a role's permissions, as an application admin editing it would. */
  async setPermissions(roleId: string, permissions: string[]): Promise<void> {
    await this.app.sql("update role set permissions = string_to_array(?, ','), updated_at = now() where application_id = ? and id = ?", [permissions.join(','), this.applicationId, roleId]);
    await this.changed();
  }
}

/**
 * Makes `userId` an `app_admin` (or, with `tenantId`, a `tenant_admin` there): a user-bound key acts with no more than
 * its user holds, so the tests of what such keys may do give their user the rights first.
 */
export async function makeAdmin(app: TestApp, userId: string, tenantId: string | null = null, applicationId?: string): Promise<void> {
  const roles = new TestRoles(app, applicationId);
  await roles.assign({ type: 'user', id: userId }, await roles.id(tenantId === null ? 'app_admin' : 'tenant_admin'), tenantId);
}
