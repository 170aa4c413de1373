import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/**
 * A named bundle of permission grants (built-in ones, wildcards, the application's own), application-wide or, with
 * `tenantId`, a tenant's own. The built-in roles (`builtIn`) exist in every application and cannot be deleted.
 */
const RoleSchema = defineEntity({
  name: 'Role',
  tableName: 'role',
  filters: tenantOwnedFilters({ inheritsApplicationRows: true }),
  properties: {
    ...tenantOwnedColumns(),
    key: p.string(),
    name: p.string(),
    description: p.string(),
    permissions: p.array().columnType('text[]'),
    builtIn: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class Role extends RoleSchema.class {}
RoleSchema.setClass(Role);
