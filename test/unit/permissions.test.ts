import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, isPermissionGrant, PermissionSet } from '../../src/auth/permissions.ts';

describe('PermissionSet', () => {
  it('answers exact grants, resource wildcards and *', () => {
    const set = new PermissionSet(['users:read', 'tenants:*']);
    expect(set.allows('users:read')).toBe(true);
    expect(set.allows('users:delete')).toBe(false);
    expect(set.allows('tenants:delete')).toBe(true);
    expect(new PermissionSet(['*']).allows('applications:delete')).toBe(true);
    expect(new PermissionSet([]).allows('users:read')).toBe(false);
  });

  it('intersects: a Bearer token narrows an API key to what both allow', () => {
    const narrowed = new PermissionSet(['*']).intersect(new PermissionSet(['users:read', 'branding:*']));
    expect(narrowed.allows('users:read')).toBe(true);
    expect(narrowed.allows('branding:write')).toBe(true);
    expect(narrowed.allows('users:write')).toBe(false);
  });

  it('covers: a credential cannot grant more than it holds', () => {
    const holder = new PermissionSet(['users:*']);
    expect(holder.covers(['users:read', 'users:delete'])).toBe(true);
    expect(holder.covers(['users:read', 'tenants:read'])).toBe(false);
    expect(holder.covers(['*'])).toBe(false);
  });

  it('tenant_admin holds everything but application settings', () => {
    const tenantAdmin = new PermissionSet(BUILT_IN_ROLES.tenant_admin.permissions);
    expect(tenantAdmin.allows('users:delete')).toBe(true);
    expect(tenantAdmin.allows('branding:write')).toBe(true);
    expect(tenantAdmin.allows('applications:write')).toBe(false);
    expect(tenantAdmin.allows('applications:read')).toBe(true);
  });

  it('validates grant syntax against the one table', () => {
    expect(['*', 'users:read', 'api_keys:*'].every(isPermissionGrant)).toBe(true);
    expect(['users', 'users:fly', 'wizards:read', 'users:read ', ''].some(isPermissionGrant)).toBe(false);
  });
});
