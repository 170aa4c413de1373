import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { AuthProvider, Domain, Setting } from '../db/entities/index.ts';

/** The key that stands for the application's own rows (`tenant_id is null`) in a tenant-keyed loader. */
export const APPLICATION_ROWS = 'application';

type TenantOwned = typeof Setting | typeof AuthProvider | typeof Domain;

/** One statement for any number of tenants. Per request and scope; writes clear what they change (clearTenant). */
function rowsByTenant<E extends TenantOwned>(em: EntityManager, entity: E) {
  type Row = InstanceType<E>;
  return new DataLoader<string, Row[]>(async (keys) => {
    const tenantIds = keys.filter((key) => key !== APPLICATION_ROWS);
    const conditions: object[] = [];
    if (tenantIds.length > 0) conditions.push({ tenantId: { $in: tenantIds } });
    if (keys.includes(APPLICATION_ROWS)) conditions.push({ tenantId: null });
    const rows = (await em.find(entity as typeof Setting, { $or: conditions }, {
      orderBy: { id: 'asc' },
    })) as unknown as Row[];
    const grouped = new Map<string, Row[]>(keys.map((key) => [key, []]));
    for (const row of rows) grouped.get((row as { tenantId: string | null }).tenantId ?? APPLICATION_ROWS)?.push(row);
    return keys.map((key) => grouped.get(key) ?? []);
  });
}

export function createLoaders(em: EntityManager) {
  return {
    settings: rowsByTenant(em, Setting),
    authProviders: rowsByTenant(em, AuthProvider),
    domains: rowsByTenant(em, Domain),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** The request must not read its own stale cache. */
export function clearTenant(loaders: Loaders, tenantId: string | null): void {
  const key = tenantId ?? APPLICATION_ROWS;
  loaders.settings.clear(key);
  loaders.authProviders.clear(key);
  loaders.domains.clear(key);
}
