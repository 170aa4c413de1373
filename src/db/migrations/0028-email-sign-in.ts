import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-ins by e-mail (src/domain/sign-in/email-methods.ts): a magic link or a one-time code asked for on a hosted
 * page, bound to its interaction. The link's token and the code are stored as SHA-256 hashes only; each row is used
 * once, expires, and its code is void after a few wrong attempts. `user_id` null: an address without an account,
 * which the row's use creates (the magic-link provider's `allowSignup`). The rows go with their user; those of a
 * sign-up expire within the hour and are then refused like any used one.
 */
export class Migration0028EmailSignIn extends Migration {
  override up(): void {
    this.addSql(`
      create table email_sign_in (
        application_id uuid not null,
        id uuid not null,
        -- The OP interaction (its uid) that asked, and the client and tenant of its surface: where it completes.
        interaction_id text not null,
        client_id uuid not null,
        tenant_id uuid,
        pool_id uuid not null,
        user_id uuid,
        email text not null,
        method text not null check (method in ('magic_link', 'email_code')),
        token_hash text,
        code_hash text,
        attempts integer not null default 0,
        expires_at timestamptz not null,
        used_at timestamptz,
        created_at timestamptz not null default now(),
        primary key (application_id, id),
        foreign key (application_id, user_id) references app_user (application_id, id) on delete cascade
      );
      create unique index email_sign_in_token_idx on email_sign_in (application_id, token_hash);
      create index email_sign_in_interaction_idx on email_sign_in (application_id, interaction_id);
      create index email_sign_in_user_idx on email_sign_in (application_id, user_id);
    `);
  }
}
