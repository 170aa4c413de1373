import { Migration } from '@mikro-orm/migrations';

/** The MFA step's mailed code counts its wrong guesses (src/domain/mfa/factors.ts), as the sign-in's code does. */
export class Migration0039MfaEmailCodeAttempts extends Migration {
  override up(): void {
    this.addSql('alter table mfa_email_code add column attempts integer not null default 0;');
  }
}
