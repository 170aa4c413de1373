import { Migration } from '@mikro-orm/migrations';

/**
 * The browser that asked for an e-mail sign-in (src/domain/sign-in/email-methods.ts): its User-Agent, cut as the audit
 * log cuts it, so that a link opened on another device can say which device asked (with `created_at`, when) before it
 * shows a code. Null: rows from before, and requests without the header.
 */
export class Migration0050EmailSignInAsker extends Migration {
  override up(): void {
    this.addSql(`alter table email_sign_in add column asked_user_agent text;`);
  }
}
