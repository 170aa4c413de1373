import { p, type Dictionary } from '@mikro-orm/core';

/** Tenancy is enforced by the data layer and fails closed: the `application` filter (and `tenant` for tenant-owned rows),
 *  on by default, takes its parameters from the request scope (context.ts), and MikroORM refuses a query whose filter has
 *  none. `tenant` `{ id: null }` is the explicit application-wide scope and sees every tenant's rows. */
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

/** `column`: the tenant column equals the scope's tenant (`inheritsApplicationRows` adds the application's own rows, a
 *  tenant's defaults); `member`: the tenant array contains it (users, who may belong to several tenants). */
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

export function tenantOwnedFilters(options: { inheritsApplicationRows: boolean }) {
  return {
    ...applicationFilter(),
    ...tenantFilter({ kind: 'column', column: 'tenantId', inheritsApplicationRows: options.inheritsApplicationRows }),
  };
}

/** Primary key (application_id, id), as in the table: the ORM's own updates and deletes name the application (one shard
 *  once distributed by application, Citus), and the identity map keys rows as the database does. */
export function tenantOwnedColumns() {
  return {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    tenantId: p.uuid().nullable(),
  };
}
