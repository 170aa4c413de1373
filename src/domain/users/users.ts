import { hashPassword } from '../../auth/password-hash.ts';
import type { Scope } from '../../context.ts';
import { ApiKey, Tenant, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit.ts';
import { uniquely } from '../db-errors.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { checkPassword } from '../policies/password.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { targetTenant } from '../tenants/target-tenant.ts';
import { displayName, email as emailAddress } from '../validate.ts';

export interface CreateUserInput {
  email: string;
  name?: string | null;
  password?: string | null;
  tenantId?: string | null;
}

export interface UpdateUserInput {
  email?: string | null;
  name?: string | null;
  password?: string | null;
  tenantIds?: string[] | null;
}

/** What the audit log keeps of a user: never the password hash, only whether there is one. */
const snapshot = (user: User) => ({
  email: user.email,
  name: user.name ?? null,
  status: user.status,
  tenantIds: [...user.tenantIds],
  poolId: user.poolId,
  hasPassword: user.passwordHash != null,
});

/** Uniqueness is case-insensitive; the address is kept as given for display. */
export const normalizeEmail = (address: string): string => address.trim().toLowerCase();

/**
 * The password policy of the user's pool decides: the application's in `shared`, the tenant's (or what it inherits)
 * in `isolated` (spec: password policy is per tenant only when isolated). Violations are listed in `details`.
 * Reads settings through the scope's EntityManager: call it before opening the write transaction.
 */
async function acceptablePassword(scope: Scope, poolTenant: string | null, password: string): Promise<string> {
  const violations = checkPassword(await effectivePasswordPolicy(scope, poolTenant), password);
  if (violations.length > 0) {
    throw new GatehouseError('validation_error', `password ${violations.map((violation) => violation.message).join('; ')}`, {
      field: 'password',
      details: violations.map(({ code, message }) => ({ code, message })),
    });
  }
  return password;
}

const poolTenantOf = (poolId: string): string | null => (poolId === SHARED_POOL ? null : poolId);

const nonNull = <T>(value: T | null | undefined, field: string): T | undefined => {
  if (value === null) throw invalid(field, `${field} may not be null`);
  return value;
};

/** A user as lists and the GraphQL `User` type read it (codegen mapper). */
export type UserRow = Row<User>;

export async function listUsers(scope: Scope, args: PageArgs): Promise<Page<UserRow>> {
  scope.require('users:read');
  // In a tenant scope the `tenant` filter keeps only that tenant's members.
  const list = scopedList(scope, 'users');
  return paginate(scope.em, User, {}, args, scope.services.cursors, list);
}

export async function getUser(scope: Scope, userId: string): Promise<User> {
  scope.require('users:read');
  const user = await scope.em.findOne(User, { id: userId });
  if (user === null) throw notFound('User', 'userId');
  return user;
}

/**
 * Creates a user in the pool of the application's auth isolation: the shared pool (member of the scope's or
 * the body's tenant, if any), or, when `isolated`, the pool of exactly one tenant, which is then required.
 */
export async function createUser(scope: Scope, input: CreateUserInput): Promise<User> {
  scope.require('users:write');
  const application = await scope.application();
  const email = emailAddress('email', input.email);
  const name = input.name == null ? null : displayName('name', input.name);
  const tenantId = await targetTenant(scope, input.tenantId);
  const isolated = application.authIsolation === 'isolated';
  if (isolated && tenantId === null) {
    throw invalid('tenantId', 'The application’s auth is isolated: a user must be created in a tenant');
  }
  const poolId = isolated && tenantId !== null ? tenantId : SHARED_POOL;
  const passwordHash = input.password == null ? null : await hashPassword(await acceptablePassword(scope, poolTenantOf(poolId), input.password));
  return uniquely('email', 'A user with this e-mail', () =>
    scope.em.transactional(async (em) => {
      const user = em.create(User, {
        applicationId: scope.applicationId,
        id: newId(),
        poolId,
        email,
        emailNormalized: normalizeEmail(email),
        name,
        status: 'active',
        tenantIds: tenantId === null ? [] : [tenantId],
        passwordHash,
      });
      recordAudit(em, scope, { action: 'user.create', targetType: 'user', targetId: user.id, tenantId, after: snapshot(user) });
      return user;
    }),
  );
}

/** The tenants a membership list names, deduplicated, each checked to exist (read before the transaction). */
async function existingTenants(scope: Scope, tenantIds: string[]): Promise<string[]> {
  const unique = [...new Set(tenantIds)];
  if (unique.length === 0) return unique;
  const found = await scope.em.find(Tenant, { id: { $in: unique } }, { fields: ['id'] });
  if (found.length !== unique.length) throw notFound('Tenant', 'tenantIds');
  return unique;
}

export async function updateUser(scope: Scope, userId: string, input: UpdateUserInput): Promise<User> {
  scope.require('users:write');
  const application = await scope.application();
  const email = nonNull(input.email, 'email');
  const name = input.name === undefined ? undefined : input.name === null ? null : displayName('name', input.name);
  const password = nonNull(input.password, 'password');
  const requestedTenants = nonNull(input.tenantIds, 'tenantIds');
  const newEmail = email === undefined ? undefined : emailAddress('email', email);
  let tenantIds: string[] | undefined;
  if (requestedTenants !== undefined) {
    // Memberships of other tenants are not a tenant's business.
    if (scope.tenantId !== null) {
      throw new GatehouseError('forbidden', 'Tenant memberships are changed with application-wide credentials');
    }
    tenantIds = application.authIsolation === 'isolated' ? [...new Set(requestedTenants)] : await existingTenants(scope, requestedTenants);
  }
  let passwordHash: string | undefined;
  if (password !== undefined) {
    // The policy is the pool's, so the user is read first (and again, for writing, in the transaction).
    const user = await scope.em.findOne(User, { id: userId });
    if (user === null) throw notFound('User', 'userId');
    passwordHash = await hashPassword(await acceptablePassword(scope, poolTenantOf(user.poolId), password));
  }
  return uniquely('email', 'A user with this e-mail', () =>
    scope.em.transactional(async (em) => {
      const user = await em.findOne(User, { id: userId });
      if (user === null) throw notFound('User', 'userId');
      const before = snapshot(user);
      if (tenantIds !== undefined && application.authIsolation === 'isolated') {
        const same = tenantIds.length === user.tenantIds.length && tenantIds.every((id) => user.tenantIds.includes(id));
        if (!same) throw invalid('tenantIds', 'The application’s auth is isolated: a user belongs to one tenant for good');
      } else if (tenantIds !== undefined) {
        user.tenantIds = tenantIds;
      }
      if (newEmail !== undefined) {
        user.email = newEmail;
        user.emailNormalized = normalizeEmail(newEmail);
      }
      if (name !== undefined) user.name = name;
      if (passwordHash !== undefined) user.passwordHash = passwordHash;
      recordAudit(em, scope, { action: 'user.update', targetType: 'user', targetId: user.id, before, after: snapshot(user) });
      return user;
    }),
  );
}

/**
 * Deletes a user. A tenant-scoped call on a shared-pool user removes only that tenant's membership (and revokes
 * the user's keys for that tenant): the identity is the application's, and its other tenants keep it. Otherwise
 * (application-wide, or a user of an isolated tenant pool) the user is deleted; their API keys go with them.
 */
export async function deleteUser(scope: Scope, userId: string): Promise<boolean> {
  scope.require('users:delete');
  const deleted = await scope.em.transactional(async (em) => {
    const user = await em.findOne(User, { id: userId });
    if (user === null) throw notFound('User', 'userId');
    const before = snapshot(user);
    const tenantId = scope.tenantId;
    if (tenantId !== null && user.poolId === SHARED_POOL) {
      user.tenantIds = user.tenantIds.filter((id) => id !== tenantId);
      await em.nativeUpdate(ApiKey, { userId: user.id, tenantId, revokedAt: null }, { revokedAt: new Date() });
      recordAudit(em, scope, { action: 'user.membership.remove', targetType: 'user', targetId: user.id, before, after: snapshot(user) });
      return true;
    }
    recordAudit(em, scope, { action: 'user.delete', targetType: 'user', targetId: user.id, before });
    em.remove(user);
    return true;
  });
  // The user's keys went with it (cascade), or with its membership of the scope's tenant (revoked above).
  await scope.services.invalidations.publish({ kind: 'user', id: userId });
  return deleted;
}
