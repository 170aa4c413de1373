import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** Permission grants (built-in, wildcards, the application's own), application-wide or a tenant's own. Built-in roles
 *  (`builtIn`) exist in every application and cannot be deleted. */
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
