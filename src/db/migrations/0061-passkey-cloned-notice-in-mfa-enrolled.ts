import { Migration } from '@mikro-orm/migrations';

/**
 * The copied-passkey notice became `mfa_enrolled`'s other text (`clonedPasskey`), so that the templates are the spec's
 * twelve: a stored `passkey_cloned` template would be a setting nothing reads. A one-off statement across applications.
 */
export class Migration0061PasskeyClonedNoticeInMfaEnrolled extends Migration {
  override up(): void {
    this.addSql(`delete from setting where feature = 'email_template' and key = 'passkey_cloned'`);
  }
}
