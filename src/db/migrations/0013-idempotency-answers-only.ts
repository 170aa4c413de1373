import { Migration } from '@mikro-orm/migrations';

/**
 * An idempotency record is an answer, committed with the request's writes (src/http/idempotency.ts): there are no claims
 * any more. The claims an earlier release left (a request it was running, or one its process died in) are forgotten,
 * so the same request runs again rather than wait for them.
 */
export class Migration0013IdempotencyAnswersOnly extends Migration {
  override up(): void {
    this.addSql('delete from idempotency_record where status_code is null;');
    this.addSql('alter table idempotency_record alter column status_code set not null;');
  }
}
