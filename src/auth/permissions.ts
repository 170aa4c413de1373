/** `resource:*` and `*` are wildcards; an application adds its own as data (src/domain/authorization/). */
export const BUILT_IN_PERMISSIONS = {
  'organizations:read': 'Read the organization',
  'organizations:write': 'Change the organization and its billing',
  'organizations:delete': 'Deactivate the organization',
  'applications:read': 'Read applications',
  'applications:write': 'Create applications and change their settings',
  'applications:delete': 'Delete applications',
  'tenants:read': 'Read tenants',
  'tenants:write': 'Create and change tenants',
  'tenants:delete': 'Delete tenants',
  'users:read': 'Read users',
  'users:write': 'Create, change and unlock users',
  'users:delete': 'Delete users',
  'sessions:read': 'Read sessions and validate tokens',
  'sessions:delete': 'Revoke sessions',
  'roles:read': 'Read roles and check whether a subject holds one',
  'roles:write': 'Create roles and change their permissions',
  'roles:delete': 'Delete roles',
  'permissions:read': 'Read permissions and check whether a subject holds one',
  'permissions:write': 'Create custom permissions',
  'permissions:delete': 'Delete custom permissions',
  'role_assignments:read': 'Read role assignments',
  'role_assignments:write': 'Assign roles',
  'role_assignments:delete': 'Revoke role assignments',
  'api_resources:read': 'Read API resources',
  'api_resources:write': 'Register and change API resources',
  'api_resources:delete': 'Delete API resources',
  'api_keys:read': 'Read API keys',
  'api_keys:write': 'Issue and rotate API keys',
  'api_keys:delete': 'Revoke API keys',
  'auth_providers:read': 'Read sign-in methods',
  'auth_providers:write': 'Add and change sign-in methods',
  'auth_providers:delete': 'Remove sign-in methods',
  'policies:read': 'Read password, MFA, session and lockout policies',
  'policies:write': 'Change policies',
  'policies:delete': 'Remove a tenant’s policies',
  'branding:read': 'Read branding',
  'branding:write': 'Change branding',
  'branding:delete': 'Remove a tenant’s branding',
  'email:read': 'Read the e-mail provider, templates and deliveries',
  'email:write': 'Change the e-mail provider and templates, send test mail',
  'email:delete': 'Remove a tenant’s e-mail provider or templates',
  'domains:read': 'Read custom domains',
  'domains:write': 'Add and verify custom domains',
  'domains:delete': 'Remove custom domains',
  'audit_logs:read': 'Read and stream audit records',
  'analytics:read': 'Read analytics: active users, sign-ins, MFA adoption',
  'oauth_clients:read': 'Read OAuth clients',
  'oauth_clients:write': 'Register and change OAuth clients, rotate their secrets',
  'oauth_clients:delete': 'Delete OAuth clients',
  'm2m_credentials:read': 'Read M2M credentials',
  'm2m_credentials:write': 'Create and rotate M2M credentials',
  'm2m_credentials:delete': 'Revoke M2M credentials',
  'tenant_overrides:write': 'Customize a tenant: its branding, e-mail provider and templates, policies and sign-in methods',
} as const;

export type Permission = keyof typeof BUILT_IN_PERMISSIONS;
export type Resource = Permission extends `${infer R}:${string}` ? R : never;

export const ALL_PERMISSIONS = Object.keys(BUILT_IN_PERMISSIONS) as Permission[];
const RESOURCES: ReadonlySet<string> = new Set(ALL_PERMISSIONS.map((permission) => permission.slice(0, permission.indexOf(':'))));

/** An application's own permissions may not use its names. */
export function isBuiltInResource(resource: string): boolean {
  return RESOURCES.has(resource);
}

export function isPermissionGrant(value: string): boolean {
  if (value === '*') return true;
  const [resource, action, ...rest] = value.split(':');
  if (rest.length > 0 || resource === undefined || action === undefined) return false;
  return action === '*' ? RESOURCES.has(resource) : Object.hasOwn(BUILT_IN_PERMISSIONS, value);
}

/** What `tenant_admin` may not touch. */
const APPLICATION_SETTINGS: readonly Permission[] = [
  'organizations:write',
  'organizations:delete',
  'applications:write',
  'applications:delete',
];

/** `member`'s list is only where an application starts; the admins' are these everywhere (built-in-roles.ts). */
export const BUILT_IN_ROLES = {
  app_admin: { name: 'Application admin', permissions: ['*'] },
  /** Within one tenant. */
  tenant_admin: {
    name: 'Tenant admin',
    permissions: ALL_PERMISSIONS.filter((permission) => !APPLICATION_SETTINGS.includes(permission)),
  },
  /** No management permission until the application gives `member` some. */
  member: { name: 'Member', permissions: [] },
} as const satisfies Record<string, { name: string; permissions: readonly string[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;

export class PermissionSet {
  private readonly grants: ReadonlySet<string>;

  constructor(grants: Iterable<string>) {
    this.grants = new Set(grants);
  }

  allows(permission: string): boolean {
    if (this.grants.has('*') || this.grants.has(permission)) return true;
    const colon = permission.indexOf(':');
    return this.grants.has(`${colon === -1 ? permission : permission.slice(0, colon)}:*`);
  }

  /** The same list for equal sets, however their grants are spelled. */
  allowed(): Permission[] {
    return ALL_PERMISSIONS.filter((p) => this.allows(p));
  }

  /** An API key narrowed by the user of a Bearer token. */
  intersect(other: PermissionSet): PermissionSet {
    return new PermissionSet(this.allowed().filter((p) => other.allows(p)));
  }

  /** A key may not mint a wider key. */
  covers(grants: Iterable<string>): boolean {
    const wanted = new PermissionSet(grants);
    return ALL_PERMISSIONS.every((p) => !wanted.allows(p) || this.allows(p));
  }

  toJSON(): string[] {
    return [...this.grants].sort();
  }
}
