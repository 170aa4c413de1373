import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';
import type { RoleSubjectType } from './role-assignment.entity.ts';

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
    /** The subjects that made it or last changed its config or secrets: an account it signs in may hold no more than
     *  they do (src/domain/auth-providers/configurer.ts). Null: made before that rule, by no one known. */
    configuredBy: p.json<{ type: RoleSubjectType; id: string }[]>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export class AuthProvider extends AuthProviderSchema.class {}
AuthProviderSchema.setClass(AuthProvider);
