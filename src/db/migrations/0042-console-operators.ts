import { Migration } from '@mikro-orm/migrations';

/**
 * An organization's console application: its users are the dashboard's operators (API.md, Bootstrap), and the
 * applications they manage name them in role assignments as `operator` subjects (src/domain/console/).
 */
export class Migration0042ConsoleOperators extends Migration {
  override up(): void {
    this.addSql(`
      alter table application add column console boolean not null default false;
      alter table role_assignment drop constraint role_assignment_subject_type_check;
      alter table role_assignment add constraint role_assignment_subject_type_check
        check (subject_type in ('user', 'm2m_credential', 'api_key', 'operator'));
    `);
  }
}
