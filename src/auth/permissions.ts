/**
 * The one permission table. A permission is `resource:action`; `resource:*` and `*` are wildcards.
 * Built-in roles are named bundles of these permissions.
 */
export const RESOURCES = [
  'organizations',
  'applications',
  'tenants',
  'users',
  'api_keys',
  'auth_providers',
  'policies',
  'branding',
  'email',
  'domains',
  'audit_logs',
  'oauth_clients',
  'm2m_credentials',
] as const;
export const ACTIONS = ['read', 'write', 'delete'] as const;

export type Resource = (typeof RESOURCES)[number];
export type Action = (typeof ACTIONS)[number];
export type Permission = `${Resource}:${Action}`;

const PERMISSION_PATTERN = new RegExp(`^(\\*|(${RESOURCES.join('|')}):(\\*|${ACTIONS.join('|')}))$`);

export function isPermissionGrant(value: string): boolean {
  return PERMISSION_PATTERN.test(value);
}

/** Application settings: what `tenant_admin` may not touch. */
const APPLICATION_SETTINGS: readonly Permission[] = [
  'organizations:write',
  'organizations:delete',
  'applications:write',
  'applications:delete',
];

export const ALL_PERMISSIONS: readonly Permission[] = RESOURCES.flatMap((resource) =>
  ACTIONS.map((action): Permission => `${resource}:${action}`),
);

export const BUILT_IN_ROLES = {
  /** Everything, application-wide. */
  app_admin: ['*'],
  /** Everything but application settings, within one tenant. */
  tenant_admin: ALL_PERMISSIONS.filter((permission) => !APPLICATION_SETTINGS.includes(permission)),
} as const satisfies Record<string, readonly string[]>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;

/** A set of grants (`*`, `users:*`, `users:read`) answering whether it allows a permission. */
export class PermissionSet {
  private readonly grants: ReadonlySet<string>;

  constructor(grants: Iterable<string>) {
    this.grants = new Set(grants);
  }

  allows(permission: Permission): boolean {
    const [resource] = permission.split(':');
    return this.grants.has('*') || this.grants.has(`${resource}:*`) || this.grants.has(permission);
  }

  /** Every permission of the table this set allows: the same list for equal sets, however their grants are spelled. */
  allowed(): Permission[] {
    return ALL_PERMISSIONS.filter((p) => this.allows(p));
  }

  /** The permissions both sets allow: an API key narrowed by the user of a Bearer token. */
  intersect(other: PermissionSet): PermissionSet {
    return new PermissionSet(this.allowed().filter((p) => other.allows(p)));
  }

  /** True when every grant of `other` is allowed here (a key may not mint a wider key). */
  covers(grants: Iterable<string>): boolean {
    const wanted = new PermissionSet(grants);
    return ALL_PERMISSIONS.every((p) => !wanted.allows(p) || this.allows(p));
  }

  toJSON(): string[] {
    return [...this.grants].sort();
  }
}
