import { Migration } from '@mikro-orm/migrations';

/**
 * WebAuthn (src/domain/webauthn/): `webauthn_credential`, a user's passkeys and security keys, each bound to the
 * relying-party ID (the host of the surface) it was registered on, with what the authenticator said of it (public
 * key, signature counter, transports, single- or multi-device). `webauthn_challenge`: each challenge handed out,
 * until its answer uses it (once) or it expires; a user's ceremony names the user. Both go with their user.
 */
export class Migration0031Webauthn extends Migration {
  override up(): void {
    this.addSql(`
      create table webauthn_credential (
        application_id uuid not null,
        id uuid not null,
        user_id uuid not null,
        rp_id text not null,
        -- base64url, as the browser sends it back
        credential_id text not null,
        public_key bytea not null,
        counter bigint not null default 0,
        transports text[] not null default '{}',
        device_type text not null check (device_type in ('singleDevice', 'multiDevice')),
        backed_up boolean not null,
        name text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        primary key (application_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create unique index webauthn_credential_id_idx on webauthn_credential (application_id, rp_id, credential_id);
      create index webauthn_credential_user_idx on webauthn_credential (application_id, user_id);
      create table webauthn_challenge (
        application_id uuid not null,
        challenge text not null,
        purpose text not null check (purpose in ('sign_in', 'second_factor', 'register')),
        rp_id text not null,
        user_id uuid,
        expires_at timestamptz not null,
        primary key (application_id, challenge),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create index webauthn_challenge_expiry_idx on webauthn_challenge (application_id, expires_at);
    `);
  }
}
