import type { MikroORM } from '@mikro-orm/postgresql';
import { ownedSql, type OwnedStatement } from '../db/owned-sql.ts';
import { mayActNowSql } from '../domain/users/sign-in-user.ts';
import { InvalidatedCache, type Owners } from '../events/invalidated-cache.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { liveRow, MODEL } from '../db/oidc-model.ts';

/**
 * A client-credentials token's `sub` is its client (RFC 9068 2.2): an M2M credential. Any other token names a user and
 * the grant their sign-in made (`grant_id`).
 */
export type BearerSubject =
  | { readonly kind: 'm2m_credential'; readonly subject: string; readonly applicationId: string; readonly tenantId: string | null }
  | {
      readonly kind: 'user';
      readonly subject: string;
      readonly applicationId: string;
      readonly tenantId: string | null;
      readonly clientId: string;
      readonly grantId: string;
      /** A management API token, which acts with all the user may do: live only while its client may still obtain one. */
      readonly managementApi: boolean;
    };

export function subjectKind(sub: string, clientId: unknown): BearerSubject['kind'] {
  return sub === clientId ? 'm2m_credential' : 'user';
}

/** A live subject, until its grant's expiry (which no invalidation announces); null: until something changes. */
interface LiveSubject {
  readonly bearer: BearerSubject;
  readonly until: Date | null;
}

/** Evicted by the invalidations that evict API keys, plus `oauth_client` and `grant`; dead subjects are never remembered. */
export type LiveSubjectCache = InvalidatedCache<LiveSubject>;

/** The records a subject's liveness reads, as invalidations name them. */
export const liveSubjectOwners = (live: BearerSubject): Owners =>
  live.kind === 'user'
    ? { user: live.subject, application: live.applicationId, tenant: live.tenantId, oauth_client: live.clientId, grant: live.grantId }
    : { oauth_client: live.subject, application: live.applicationId, tenant: live.tenantId };

export function createLiveSubjectCache(bus: InvalidationBus, ttlMs: number): LiveSubjectCache {
  return new InvalidatedCache<LiveSubject>(bus, ttlMs, ({ bearer }) => liveSubjectOwners(bearer));
}

/** Either row's existence proves the application's: deleting an application cascades to both tables. */
function livenessStatement(bearer: BearerSubject): OwnedStatement {
  const { applicationId, subject, tenantId } = bearer;
  if (bearer.kind === 'm2m_credential') {
    // An application-wide credential's token may be narrowed to its surface's tenant (src/oidc/configuration.ts), which
    // must still exist: a tenant-bound credential goes with its tenant, an application-wide one does not.
    const tenant = tenantId === null ? 'c.tenant_id is null' : '(c.tenant_id = ? or (c.tenant_id is null and exists (select 1 from tenant as t where @owner(t) and t.id = ?)))';
    return ownedSql(
      applicationId,
      `select 1 from oauth_client as c where @owner(c) and c.id = ? and c.type = 'm2m' and c.revoked_at is null and ${tenant}`,
      tenantId === null ? [subject] : [subject, tenantId, tenantId],
    );
  }
  const member = tenantId === null ? '' : ' and ? = any(u.tenant_ids)';
  const clientMay = bearer.managementApi ? ' and c.management_api' : '';
  return ownedSql(
    applicationId,
    `select g.expires_at from app_user as u join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = ? and ${liveRow('g')}
      where @owner(u) and u.id = ? and ${mayActNowSql('u')}${member}
      and exists (select 1 from oauth_client as c where c.application_id = u.application_id and c.id = ? and c.revoked_at is null${clientMay})`,
    [bearer.grantId, subject, ...(tenantId === null ? [] : [tenantId]), bearer.clientId],
  );
}

/** Everything the liveness statement reads. */
const cacheKey = (bearer: BearerSubject): string =>
  bearer.kind === 'user'
    ? `user:${bearer.applicationId}:${bearer.subject}:${bearer.tenantId ?? ''}:${bearer.clientId}:${bearer.grantId}:${bearer.managementApi}`
    : `m2m_credential:${bearer.applicationId}:${bearer.subject}:${bearer.tenantId ?? ''}`;

export async function isLive(orm: MikroORM, cache: LiveSubjectCache, bearer: BearerSubject): Promise<boolean> {
  const key = cacheKey(bearer);
  const until = cache.get(key)?.until;
  if (until != null && until <= new Date()) cache.delete(key);
  const live = await cache.find(key, async () => {
    // The connection only, as for API keys: this runs on every Bearer request the cache misses.
    const { sql, params } = livenessStatement(bearer);
    const [row] = await orm.em.getConnection().execute<{ expires_at?: Date | string | null }[]>(sql, params);
    return row === undefined ? undefined : { bearer, until: row.expires_at == null ? null : new Date(row.expires_at) };
  });
  return live !== undefined;
}
