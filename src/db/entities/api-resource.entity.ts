import { defineEntity, p } from '@mikro-orm/core';
import { applicationFilter } from '../owned.ts';

/** A grant naming `identifier` as `resource` (RFC 8707) gets a JWT for that audience with the `permissions` the subject
 *  holds. Application-level: it serves every tenant. */
const ApiResourceSchema = defineEntity({
  name: 'ApiResource',
  tableName: 'api_resource',
  filters: applicationFilter(),
  properties: {
    applicationId: p.uuid().primary(),
    id: p.uuid().primary(),
    identifier: p.string(),
    identifierHeldElsewhere: p.boolean().default(false),
    name: p.string(),
    permissions: p.array().columnType('text[]'),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class ApiResource extends ApiResourceSchema.class {}
ApiResourceSchema.setClass(ApiResource);
