import { Migration } from '@mikro-orm/migrations';
import { normalizeEmail } from '../../domain/users/email-key.ts';

interface KeyedUser {
  readonly application_id: string;
  readonly id: string;
  readonly pool_id: string;
  readonly email_normalized: string;
}

/**
 * E-mail keys are now in Unicode NFC with their domain in ASCII (normalizeEmail). Rows written before, only trimmed and
 * lower-cased, are rekeyed; only those holding a character outside printable ASCII can differ. A row whose new key
 * another user of its pool already holds (the same address, written in two forms, before this) keeps its old key: both
 * accounts remain, and the address as typed from now on finds the one already keyed so.
 */
export class Migration0007EmailUnicodeKeys extends Migration {
  override async up(): Promise<void> {
    const rows = (await this.execute(`select application_id, id, pool_id, email_normalized from app_user where email_normalized !~ '^[ -~]*$'`)) as unknown as KeyedUser[];
    for (const row of rows) {
      const key = normalizeEmail(row.email_normalized);
      if (key === row.email_normalized) continue;
      await this.execute(
        `update app_user set email_normalized = ?
          where application_id = ? and id = ?
            and not exists (select 1 from app_user as other where other.application_id = ? and other.pool_id = ? and other.email_normalized = ?)`,
        [key, row.application_id, row.id, row.application_id, row.pool_id, key],
      );
    }
  }
}
