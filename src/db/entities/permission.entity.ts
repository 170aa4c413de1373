import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/**
 * A permission an application defines for its own API (`invoices:approve`), application-wide or a tenant's own. The
 * management API's permissions are not rows: they are the built-in list of src/auth/permissions.ts.
 */
const CustomPermissionSchema = defineEntity({
  name: 'CustomPermission',
  tableName: 'permission',
  filters: tenantOwnedFilters({ inheritsApplicationRows: true }),
  properties: {
    ...tenantOwnedColumns(),
    key: p.string(),
    description: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class CustomPermission extends CustomPermissionSchema.class {}
CustomPermissionSchema.setClass(CustomPermission);
