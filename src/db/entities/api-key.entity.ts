import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** A management API key. Only a hash of its secret is stored; the secret is shown once (auth/api-key-secret.ts). */
const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  filters: tenantOwnedFilters({ inheritsApplicationRows: false }),
  properties: {
    ...tenantOwnedColumns(),
    userId: p.uuid().nullable(),
    name: p.string(),
    permissions: p.array().columnType('text[]'),
    secretHash: p.string().hidden(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    lastRotatedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
