import { Migration } from '@mikro-orm/migrations';

/**
 * A passkey is looked up in the pool of the sign-in, as an upstream link is (`user_identity.pool_id`), and a credential
 * id is unique per pool: the authIsolation switch's copy of a user holds the original's keys in its tenant's pool.
 */
export class Migration0077PasskeysInTheirUsersPools extends Migration {
  override up(): void {
    this.addSql(`
      alter table webauthn_credential add column if not exists pool_id uuid;
      update webauthn_credential as c set pool_id = u.pool_id
        from app_user as u
       where u.application_id = c.application_id and u.id = c.user_id and c.pool_id is distinct from u.pool_id;
      alter table webauthn_credential alter column pool_id set not null;
      drop index if exists webauthn_credential_id_idx;
      create unique index if not exists webauthn_credential_pool_id_idx on webauthn_credential (application_id, pool_id, rp_id, credential_id);
    `);
  }
}
