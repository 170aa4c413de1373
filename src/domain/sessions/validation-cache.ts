import { createHash } from 'node:crypto';
import { InvalidatedCache } from '../../events/invalidated-cache.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';
import type { SessionView } from './sessions.ts';

export interface KnownValidToken {
  readonly applicationId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly grantId: string;
  /** The session's tenant, else the grant's; the scope's tenant is compared on every use. */
  readonly tenantId: string | null;
  /** The surface that issued the token, which must still serve its tenant: asked on every use (a surface ends unannounced). */
  readonly issuer: string;
  readonly session: SessionView;
  readonly browserSession: boolean;
  /** A refresh token's answer is never kept: a rotation spends the token without any invalidation. */
  readonly refreshToken: boolean;
  readonly validUntil: Date;
}

/** A hit answers without the statement. Entries live `ttlMs` at most and go at once when their grant, user, client, tenant
 *  or application changes on any instance; refresh tokens and invalid answers are never kept. */
export class SessionValidationCache {
  private readonly cache: InvalidatedCache<KnownValidToken>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.cache = new InvalidatedCache<KnownValidToken>(bus, ttlMs, (known) => ({
      grant: known.grantId,
      user: known.userId,
      oauth_client: known.clientId,
      tenant: known.tenantId,
      application: known.applicationId,
    }));
  }

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
