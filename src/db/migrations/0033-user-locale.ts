import { Migration } from '@mikro-orm/migrations';

/**
 * The language a user last used on the hosted pages (src/domain/locales.ts), set at sign-up and sign-in, in which
 * their mails are written; null: English.
 */
export class Migration0033UserLocale extends Migration {
  override up(): void {
    this.addSql(`alter table app_user add column locale text;`);
  }
}
