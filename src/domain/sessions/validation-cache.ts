import { createHash } from 'node:crypto';
import { InvalidatedCache } from '../../events/invalidated-cache.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';
import type { SessionView } from './sessions.ts';

/** A `valid: true` answer of `POST /sessions/validate` for an access token, as its statement found it. */
export interface KnownValidToken {
  readonly applicationId: string;
  readonly userId: string;
  readonly grantId: string;
  /** The session's tenant, else the grant's (null: none); the scope's tenant is compared on every use. */
  readonly tenantId: string | null;
  /** Null for a grant made outside a browser session (a device's). */
  readonly session: SessionView | null;
  /** A refresh token's answer is never kept: a rotation spends the token without any invalidation. */
  readonly refreshToken: boolean;
  /** The earliest end of the token, its grant and its session: no answer is given from memory past it. */
  readonly validUntil: Date;
}

/**
 * Access tokens found valid recently on this instance, by application and the token's hash: a hit answers without the
 * statement. An entry lives `ttlMs` at most (API_KEY_CACHE_MS, as the Bearer subjects' cache) and goes at once when its
 * grant (a session revoked, a sign-out, a token revoked at the endpoint), user (suspended, deleted, locked, signed out
 * of other sessions), tenant or application changes on any instance. Refresh tokens are never kept: a rotation spends
 * one without any invalidation. Invalid answers are never kept either.
 */
export class SessionValidationCache {
  private readonly cache: InvalidatedCache<KnownValidToken>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.cache = new InvalidatedCache<KnownValidToken>(bus, ttlMs, (known) => ({
      grant: known.grantId,
      user: known.userId,
      tenant: known.tenantId,
      application: known.applicationId,
    }));
  }

  /** The token's kept answer in the application, unless past its end; else what `load` finds (an access token's kept). */
  async find(applicationId: string, token: string, now: Date, load: () => Promise<KnownValidToken | undefined>): Promise<KnownValidToken | undefined> {
    // A hash: the tokens themselves are not kept in memory longer than a request.
    const key = `${applicationId}:${createHash('sha256').update(token).digest('base64url')}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      if (cached.validUntil > now) return cached;
      this.cache.delete(key);
    }
    return this.cache.find(key, load, (known) => !known.refreshToken);
  }
}
