import type { MikroORM } from '@mikro-orm/postgresql';
import { InvalidatedCache } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';

/**
 * Whom a management API access token speaks for. A client-credentials token has no resource owner, so its `sub` is
 * its client (RFC 9068 2.2; the OP sets `sub` to the `client_id`): an M2M credential. Any other token names a user.
 */
export interface BearerSubject {
  readonly kind: 'm2m_credential' | 'user';
  readonly subject: string;
  readonly applicationId: string;
  readonly tenantId: string | null;
}

export function subjectKind(sub: string, clientId: unknown): BearerSubject['kind'] {
  return sub === clientId ? 'm2m_credential' : 'user';
}

/**
 * The subjects of Bearer tokens found live recently on this instance, by subject and token tenant. An entry goes at
 * once when its credential, user, tenant or application changes on any instance (the invalidations that evict API
 * keys: an M2M credential's revocation publishes `oauth_client`). Dead subjects are never remembered.
 */
export type LiveSubjectCache = InvalidatedCache<BearerSubject>;

export function createLiveSubjectCache(bus: InvalidationBus, ttlMs: number): LiveSubjectCache {
  return new InvalidatedCache<BearerSubject>(bus, ttlMs, ({ kind, subject, applicationId, tenantId }) =>
    kind === 'user'
      ? { user: subject, application: applicationId, tenant: tenantId }
      : { oauth_client: subject, application: applicationId, tenant: tenantId },
  );
}

/**
 * One statement on the primary key (application_id, id): an M2M credential of the token's application and tenant,
 * not revoked; a user of the token's application, active and, for a tenant's token, still a member of that tenant.
 * Either row's existence proves the application's: deleting an application cascades to both tables.
 */
function livenessStatement({ kind, subject, applicationId, tenantId }: BearerSubject): [string, unknown[]] {
  if (kind === 'm2m_credential') {
    return [
      `select 1 from oauth_client where application_id = ? and id = ? and type = 'm2m' and revoked_at is null
        and tenant_id is not distinct from ?`,
      [applicationId, subject, tenantId],
    ];
  }
  const member = tenantId === null ? '' : ' and ? = any(tenant_ids)';
  return [
    `select 1 from app_user where application_id = ? and id = ? and status = 'active'${member}`,
    tenantId === null ? [applicationId, subject] : [applicationId, subject, tenantId],
  ];
}

/** Whether the credential or user behind a token still stands behind it: through the cache, else the database. */
export async function isLive(orm: MikroORM, cache: LiveSubjectCache, bearer: BearerSubject): Promise<boolean> {
  // Only the subject's own fields are kept: the caller's object may carry more (a token's permissions).
  const { kind, subject, applicationId, tenantId } = bearer;
  const live = await cache.find(`${kind}:${applicationId}:${subject}:${tenantId ?? ''}`, async () => {
    // The connection only (no entity is loaded), as for API keys: this runs on every Bearer request the cache misses.
    const [statement, params] = livenessStatement(bearer);
    const rows = await orm.em.getConnection().execute<unknown[]>(statement, params);
    return rows.length > 0 ? { kind, subject, applicationId, tenantId } : undefined;
  });
  return live !== undefined;
}
