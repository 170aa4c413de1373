import type { Principal } from '../auth/principal.ts';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import type { StoredResponse } from '../http/idempotency.ts';

/** Named as the invalidation that announces its change: `users`, an application's users (rows and memberships). */
export type CachedRead = 'users';

export interface CachedJson {
  readonly status: 200;
  readonly json: string;
}

interface CachedAnswer {
  /** The caller's: no answer shows another's. */
  readonly applicationId: string;
  readonly read: CachedRead;
  readonly json: string;
}

const MAX_BYTES = 16 * 1024 * 1024;

/** Whether an answer may be kept: what changes by time alone, which no write announces, is read afresh each time. */
const KEEPABLE: Record<CachedRead, (variables: Record<string, unknown>, json: string) => boolean> = {
  // A timed lock runs out unannounced: a user shown locked, or a list filtered by status, would stay as it was.
  users: (variables, json) => variables['status'] === undefined && !json.includes('"status":"locked"'),
};

/**
 * Per-instance 200 answers of routes declaring `reads` (a fifth of a PostgreSQL answer's cost, docs/bench.md), keyed by
 * operation, principal and variables; credentials are checked before each lookup, and only successes kept. An answer
 * goes at once when what it read changes (on other instances through Redis); `ttlMs` bounds a missed invalidation.
 */
export class ReadCache {
  private readonly answers: InvalidatedCache<CachedAnswer>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.answers = new InvalidatedCache<CachedAnswer>(
      bus,
      ttlMs,
      // `roles`: what a reader holds decides what it is shown of a user (visibleTenantIds).
      (answer) => ({ [answer.read]: answer.applicationId, roles: answer.applicationId, application: answer.applicationId }),
      { maxBytes: MAX_BYTES, sizeOf: (answer) => 2 * answer.json.length },
    );
  }

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
      if (executed.status !== 200) return undefined;
      const json = JSON.stringify(executed.body);
      return KEEPABLE[read](variables, json) ? { applicationId, read, json } : undefined;
    });
    if (kept !== undefined) return { status: 200, json: kept.json };
    if (executed === undefined) throw new Error('ReadCache: neither kept nor executed');
    return executed;
  }
}
