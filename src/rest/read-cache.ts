import type { Principal } from '../auth/principal.ts';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import type { StoredResponse } from '../idempotency.ts';

/**
 * What a cacheable GET route reads besides the caller's credentials, named as the invalidation that announces its
 * change: `users`, an application's users (their rows and memberships).
 */
export type CachedRead = 'users';

/** A 200 answer's JSON text, sent as it is to the next caller who asks the same. */
export interface CachedJson {
  readonly status: 200;
  readonly json: string;
}

interface CachedAnswer {
  /** The application whose data the answer shows (the caller's: no answer shows another's). */
  readonly applicationId: string;
  readonly read: CachedRead;
  readonly json: string;
}

/** What the answers held weigh together at most, counted as the UTF-16 text they are. */
const MAX_BYTES = 16 * 1024 * 1024;

/**
 * The 200 answers of the REST routes that declare what they read (`reads` in the route table), kept per instance so
 * that the same question asked again costs no database round trip, no execution and no serialization: a users page
 * answered from here costs about a fifth of one answered from PostgreSQL (docs/bench.md).
 *
 * An answer belongs to exactly one caller and one question: its key holds the operation, who the principal is
 * (credential, application, tenant, actor) and the operation's variables (the path's ids, the query). The credentials
 * are authenticated and their permissions checked before it is consulted, on every request, so a revoked, expired or
 * narrowed credential is refused; only successes are kept, so a refusal is always decided afresh.
 *
 * An answer goes at once when what it read changes (the `users` invalidation of its application, published after
 * every committed write of a user: src/domain/users/changed.ts) or when its application's configuration changes or
 * the application is deleted (`application`), on this instance before the writer's answer is sent and on every other
 * through Redis; a read that began before such a change does not keep what it read (InvalidatedCache). An answer
 * lives `ttlMs` at most, which bounds what an instance that missed an invalidation (Redis away) may still serve; 0
 * turns the cache off.
 */
export class ReadCache {
  private readonly answers: InvalidatedCache<CachedAnswer>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.answers = new InvalidatedCache<CachedAnswer>(
      bus,
      ttlMs,
      (answer) => ({ [answer.read]: answer.applicationId, application: answer.applicationId }),
      { maxBytes: MAX_BYTES, sizeOf: (answer) => 2 * answer.json.length },
    );
  }

  /**
   * The answer to `operation` with `variables` for `principal`: the one kept, else what `execute` answers (kept if it
   * is a 200, as JSON text).
   */
  async answer(
    read: CachedRead,
    operation: string,
    principal: Principal,
    variables: Record<string, unknown>,
    execute: () => Promise<StoredResponse>,
  ): Promise<CachedJson | StoredResponse> {
    const { credentialId, applicationId, tenantId, actor, apiKeyId } = principal;
    const key = JSON.stringify([operation, credentialId, apiKeyId, applicationId, tenantId, actor.type, actor.id, variables]);
    let executed: StoredResponse | undefined;
    const kept = await this.answers.find(key, async () => {
      executed = await execute();
      return executed.status === 200 ? { applicationId, read, json: JSON.stringify(executed.body) } : undefined;
    });
    if (kept !== undefined) return { status: 200, json: kept.json };
    if (executed === undefined) throw new Error('ReadCache: neither kept nor executed');
    return executed;
  }
}
