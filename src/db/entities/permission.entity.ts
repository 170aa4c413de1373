import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** An application's own (`invoices:approve`), application-wide or a tenant's; the management API's are src/auth/permissions.ts. */
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
