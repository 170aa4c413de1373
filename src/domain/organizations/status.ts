import type { MikroORM } from '@mikro-orm/postgresql';
import { InvalidatedCache } from '../../events/invalidated-cache.ts';
import type { InvalidationBus } from '../../events/invalidations.ts';

/** servesClients of an `application` row and its `organization`'s, in SQL. */
export const servesClientsSql = (application: string, organization: string): string => `(${organization}.status <> 'deactivated' or ${application}.console)`;

interface ApplicationOrganization {
  readonly applicationId: string;
  readonly organizationId: string;
  readonly deactivated: boolean;
  readonly console: boolean;
}

/** Asked by every management request and OAuth client lookup: cached per application, forgotten on every instance when
 *  the organization (de)activates or the application goes. */
export class OrganizationStatusCache {
  private readonly cache: InvalidatedCache<ApplicationOrganization>;

  constructor(bus: InvalidationBus, ttlMs: number) {
    this.cache = new InvalidatedCache(bus, ttlMs, (entry) => ({ application: entry.applicationId, organization: entry.organizationId }));
  }

  private find(orm: MikroORM, applicationId: string): Promise<ApplicationOrganization | undefined> {
    return this.cache.find(applicationId, async () => {
      const [row] = await orm.em.getConnection().execute<{ organization_id: string; status: string; console: boolean }[]>(
        'select a.organization_id, a.console, o.status from application as a join organization as o on o.id = a.organization_id where a.id = ?',
        [applicationId],
      );
      return row === undefined
        ? undefined
        : { applicationId, organizationId: row.organization_id, deactivated: row.status === 'deactivated', console: row.console };
    });
  }

  /** False for an application that does not exist: what refuses it is elsewhere. */
  async deactivated(orm: MikroORM, applicationId: string): Promise<boolean> {
    return (await this.find(orm, applicationId))?.deactivated ?? false;
  }

  /** Not while its organization is deactivated, except the console's, whose operators must still sign in to reactivate it. */
  async servesClients(orm: MikroORM, applicationId: string): Promise<boolean> {
    const entry = await this.find(orm, applicationId);
    return entry === undefined || !entry.deactivated || entry.console;
  }
}
