import { Migration } from '@mikro-orm/migrations';

/**
 * The tokens of the links e-mails carry (src/domain/users/link-tokens.ts): stored as a SHA-256 hash only, single use
 * (`used_at`), with an expiry; they go with their user. `email_verified` on users: a self sign-up starts unverified;
 * every user created before verification existed, or by an administrator, counts as verified. `known_browser`: the
 * browsers (the SHA-256 of a hosted pages' cookie) each user signed in from, for the session policy's `notifyNewBrowser`.
 */
export class Migration0021EmailLinkTokens extends Migration {
  override up(): void {
    this.addSql(`
      create table email_link_token (
        application_id uuid not null,
        id uuid not null,
        user_id uuid not null,
        -- The OAuth client of the sign-in the link was asked from: its pages take that sign-in's look.
        client_id uuid not null,
        purpose text not null check (purpose in ('verify_email', 'password_reset')),
        token_hash text not null,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now(),
        primary key (application_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create unique index email_link_token_hash_idx on email_link_token (application_id, token_hash);
      create index email_link_token_user_idx on email_link_token (application_id, user_id);
      alter table app_user add column email_verified boolean not null default true;
      create table known_browser (
        application_id uuid not null,
        user_id uuid not null,
        browser_hash text not null,
        first_seen_at timestamptz not null default now(),
        primary key (application_id, user_id, browser_hash),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
    `);
  }
}
