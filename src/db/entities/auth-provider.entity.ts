import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

export const AUTH_PROVIDER_TYPES = ['password', 'magic_link', 'oauth', 'passkey', 'saml', 'm2m', 'api_keys'] as const;
export type AuthProviderType = (typeof AUTH_PROVIDER_TYPES)[number];

/** An auth provider configuration record: the application's (`tenantId` null) or an isolated tenant's own. */
const AuthProviderSchema = defineEntity({
  name: 'AuthProvider',
  tableName: 'auth_provider',
  filters: tenantOwnedFilters({ inheritsApplicationRows: true }),
  properties: {
    ...tenantOwnedColumns(),
    type: p.string().$type<AuthProviderType>(),
    name: p.string(),
    enabled: p.boolean(),
    config: p.json<Record<string, unknown>>(),
    secrets: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class AuthProvider extends AuthProviderSchema.class {}
AuthProviderSchema.setClass(AuthProvider);
