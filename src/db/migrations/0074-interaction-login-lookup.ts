import { Migration } from '@mikro-orm/migrations';

/**
 * The OP's interactions by the account their answered login names (src/domain/sessions/end-sessions.ts): a suspension,
 * a deletion or a new password ends the sign-ins proven and not yet resumed, without reading every live interaction.
 */
export class Migration0074InteractionLoginLookup extends Migration {
  override up(): void {
    this.addSql(`create index if not exists oidc_model_interaction_login_idx on oidc_model ((payload->'result'->'login'->>'accountId')) where model = 'Interaction';`);
  }
}
