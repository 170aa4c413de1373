import { Migration } from '@mikro-orm/migrations';

/**
 * A WebAuthn challenge names the ceremony it was shown in (`bound_to`: the OIDC interaction's uid, or the account
 * page's OP session uid), so that an answer completes that ceremony only (src/domain/webauthn/ceremonies.ts). The
 * challenges handed out before have no ceremony: they go (they live ten minutes; a page shown then is shown again).
 */
export class Migration0048WebauthnChallengeCeremony extends Migration {
  override up(): void {
    this.addSql(`
      delete from webauthn_challenge;
      alter table webauthn_challenge add column bound_to text not null;
    `);
  }
}
