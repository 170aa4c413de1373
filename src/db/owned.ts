import { p, type Dictionary } from '@mikro-orm/core';

/**
 * Tenancy is enforced by the data layer and fails closed. Every application-owned entity carries the
 * `application` filter, every tenant-owned one also the `tenant` filter; both are on by default and take their
 * parameters from the request scope (context.ts). MikroORM refuses a query whose filter has no parameters.
 *
 * Filter parameters: `application` → `{ id }`; `tenant` → `{ id }`, where `id: null` is the explicit
 * application-wide scope (an app-level credential on an app-level path) and sees every tenant's rows.
 */
export interface ApplicationFilterParams {
  id: string;
}
export interface TenantFilterParams {
  id: string | null;
}

export const APPLICATION_FILTER = 'application';
export const TENANT_FILTER = 'tenant';

export function applicationFilter(column = 'applicationId') {
  return {
    [APPLICATION_FILTER]: {
      name: APPLICATION_FILTER,
      cond: (args: Dictionary) => ({ [column]: (args as ApplicationFilterParams).id }),
      default: true,
    },
  };
}

/**
 * How a tenant scope narrows an entity:
 * - `column`: rows whose tenant column equals the scope's tenant (`inheritsApplicationRows` adds the application's
 *   own rows, `tenantId = null`, which a tenant sees as its defaults);
 * - `member`: rows whose tenant array contains the scope's tenant (users, who may belong to several tenants).
 */
export type TenantFilterMode =
  | { kind: 'column'; column: string; inheritsApplicationRows: boolean }
  | { kind: 'member'; column: string };

export function tenantFilter(mode: TenantFilterMode) {
  return {
    [TENANT_FILTER]: {
      name: TENANT_FILTER,
      cond: (args: Dictionary) => {
        const { id } = args as TenantFilterParams;
        if (id === null) return {};
        if (mode.kind === 'member') return { [mode.column]: { $contains: [id] } };
        return mode.inheritsApplicationRows
          ? { $or: [{ [mode.column]: null }, { [mode.column]: id }] }
          : { [mode.column]: id };
      },
      default: true,
    },
  };
}

/** The owner columns of a new row, from the scope: filters don't scope inserts, this does. */
export interface Owner {
  applicationId: string;
  tenantId: string | null;
}

/** The filters of an entity owned by a tenant or, with `tenantId` null, by the application itself. */
export function tenantOwnedFilters(options: { inheritsApplicationRows: boolean }) {
  return {
    ...applicationFilter(),
    ...tenantFilter({ kind: 'column', column: 'tenantId', inheritsApplicationRows: options.inheritsApplicationRows }),
  };
}

/**
 * The owner columns every tenant-owned table starts with. The primary key is (application_id, id), as in the table:
 * the ORM's own updates and deletes then name the application, which routes them to one shard once tables are
 * distributed by application (Citus), and the identity map keys rows as the database does.
 */
export function tenantOwnedColumns() {
  return {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    tenantId: p.uuid().nullable(),
  };
}
