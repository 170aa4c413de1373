import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '../../auth/password-hash.ts';
import type { Scope } from '../../context.ts';
import { ApiKey, User, type Application } from '../../db/entities/index.ts';
import { SHARED_POOL, type UserStatus } from '../../db/entities/user.entity.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { likePrefix } from '../../db/like-prefix.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { keySnapshotSql, revokeKey } from '../api-keys/issue.ts';
import { removeActivityOfUsers } from '../analytics.ts';
import { recordAudit, recordAuditPerRow, type AuditActor, type AuditEntry } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { accountDeletedMail, emailChangedMail, noticeOrDrop, passwordChangedMail } from '../email/flow-mail.ts';
import { domainLog } from '../../observability/log.ts';
import { deferAccountDeletedMails } from '../email/deferred-mail.ts';
import { withdrawQueuedMail } from '../email/outbox.ts';
import { assertNotLastOperatorAdminOfAny } from '../authorization/last-operator-admin.ts';
import { removeAssignments } from '../authorization/role-assignments.ts';
import { authorizationChanged } from '../authorization/writes.ts';
import { uniquely } from '../db-errors.ts';
import { paginate, type Page, type PageArgs, type Row, scopedList } from '../pagination.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { lockTenants, targetTenant } from '../tenants/target-tenant.ts';
import { forgetUserKeys, usersChanged } from './changed.ts';
import { keepReplacedPassword, passwordViolations } from './password-history.ts';
import { endLinksOfOtherOutboxes, refuseHeldAddress } from './link-tokens.ts';
import { refusedWhateverThePolicy, type PasswordViolation } from '../policies/password.ts';
import { emailPrefixKeys, normalizeEmail } from './email-key.ts';
import { forgetSignInFailures } from './sign-in-failures.ts';
import { shownStatus, shownStatusSql } from './sign-in-user.ts';
import { endTenantSessions, endUserSignIns } from '../sessions/end-sessions.ts';
import type { PolicyCutoffs } from '../sessions/grant-sign-ins.ts';
import { userCutoffs } from '../sessions/policy-cutoffs.ts';
import { removeOperatorAssignments } from '../console/operators.ts';
import { requireCovered, withCallerHoldings, type CallerHoldings } from '../grants.ts';
import { requireCoveredAccount, requireOutranking } from './takeover.ts';
import { displayName, email as emailAddress, holdsNul, isControlFree } from '../validate.ts';

export interface CreateUserInput {
  email: string;
  name?: string | null;
  metadata?: Record<string, unknown> | null;
  password?: string | null;
  tenantId?: string | null;
}

export interface UpdateUserInput {
  email?: string | null;
  name?: string | null;
  metadata?: Record<string, unknown> | null;
  password?: string | null;
  tenantIds?: string[] | null;
}

const field = auditedFieldsOf<User>();
/** Never the password hash, only whether there is one. */
const USER_SNAPSHOT = auditedSnapshot([
  field.value('email'),
  field.value('name'),
  // As the users API shows it: a lock that has run out is over, whatever the row reads until the next sign-in lifts it.
  field.derived('status', (entity, now) => shownStatus(entity, now), (sqlOf) => shownStatusSql(sqlOf('status'), sqlOf('locked_until'))),
  field.list('tenantIds'),
  field.value('poolId'),
  field.derived('hasPassword', (entity) => entity.passwordHash != null, (sqlOf) => `${sqlOf('password_hash')} is not null`),
  field.value('emailVerified'),
  field.value('metadata'),
]);
export const userSnapshot = (entity: User) => USER_SNAPSHOT.of(entity);
export const userSnapshotSql = USER_SNAPSHOT.sql;

/** Policy per tenant only when `isolated` (spec). `scope` is the write transaction's (underTenancyConfig), so the pool
 *  cannot change before the user is written. */
async function acceptablePassword(scope: Scope, poolTenant: string | null, password: string, userId?: string): Promise<void> {
  const policy = await effectivePasswordPolicy(scope, poolTenant);
  refuse(await passwordViolations(scope.em, policy, password, userId === undefined ? undefined : { applicationId: scope.applicationId, userId }));
  if (userId !== undefined) await keepReplacedPassword(scope.em, scope.applicationId, userId, policy.historyCount);
}

function refuse(violations: readonly PasswordViolation[]): void {
  if (violations.length === 0) return;
  throw new GatehouseError('validation_error', `password ${violations.map((violation) => violation.message).join('; ')}`, {
    field: 'password',
    details: violations.map(({ code, message }) => ({ code, message })),
  });
}

/** Hashed before the write transaction opens: Argon2id's tens of milliseconds would hold its row locks. The policy is
 *  checked inside it (acceptedHash), where the pool cannot change. */
interface HashedPassword {
  readonly password: string;
  readonly hash: string;
}

async function hashedPassword(password: string): Promise<HashedPassword> {
  refuse(refusedWhateverThePolicy(password));
  return { password, hash: await hashPassword(password) };
}

async function acceptedHash(scope: Scope, poolId: string, { password, hash }: HashedPassword, userId?: string): Promise<string> {
  await acceptablePassword(scope, poolTenantOf(poolId), password, userId);
  return hash;
}

const poolTenantOf = (poolId: string): string | null => (poolId === SHARED_POOL ? null : poolId);

/** In the shared pool only the application's credentials vouch for an address (a tenant's is unconfirmed). Read before
 *  the write's transaction: the embedded database answers only its connection meanwhile. */
async function vouchesForSharedPool(scope: Scope): Promise<boolean> {
  const { principal } = scope;
  return principal.tenantId === null && (await principal.permissionsIn(null)).allows('users:write');
}

/** The isolated pool's tenant, else the scope's: the audit log's tenant filter finds every change of its users. */
export const auditTenantOf = (user: Pick<User, 'poolId'>, actor: AuditActor): string | null => poolTenantOf(user.poolId) ?? actor.tenantId;

/** auditTenantOf; a shared-pool user's change filed under no tenant is also read by their tenants, before or after it (docs/audit.md). */
export function auditFilingOf(user: Pick<User, 'poolId' | 'tenantIds'>, actor: AuditActor, tenantsBefore: readonly string[] = user.tenantIds): Pick<AuditEntry, 'tenantId' | 'memberTenantIds'> {
  const tenantId = auditTenantOf(user, actor);
  if (tenantId !== null) return { tenantId };
  const members = [...new Set([...tenantsBefore, ...user.tenantIds])];
  return { tenantId, memberTenantIds: members.length === 0 ? null : members };
}

/** auditFilingOf the user's row as it reads in the caller's transaction, which holds it (their own changes of factors
 *  and keys): a membership changed meanwhile is filed as it stands when the change commits. */
export async function auditFilingOfRow(em: EntityManager, actor: AuditActor, userId: string): Promise<Pick<AuditEntry, 'tenantId' | 'memberTenantIds'>> {
  const [row] = await executeOwned<{ pool_id: string; tenant_ids: string[] }[]>(em, actor.applicationId, 'select pool_id, tenant_ids from app_user where @owner and id = ?', [userId]);
  return auditFilingOf({ poolId: row?.pool_id ?? SHARED_POOL, tenantIds: row?.tenant_ids ?? [] }, actor);
}

/** It is read with the user on every request that shows them. */
const METADATA_MAX_BYTES = 16 * 1024;

function userMetadata(value: Record<string, unknown>): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > METADATA_MAX_BYTES) {
    throw invalid('metadata', `metadata must be at most ${METADATA_MAX_BYTES} bytes of JSON`);
  }
  if (holdsNul(value)) throw invalid('metadata', 'metadata must not contain NUL characters');
  return value;
}

const nonNull = <T>(value: T | null | undefined, field: string): T | undefined => {
  if (value === null) throw invalid(field, `${field} may not be null`);
  return value;
};

/** The GraphQL `User` type's codegen mapper. */
export type UserRow = Row<User>;

/** A shared-pool user's other tenants are other customers' data: all of them only to credentials that read users
 *  application-wide, else the tenants they read users in. */
export async function visibleTenantIds(principal: Pick<Scope['principal'], 'tenantId' | 'permissionsIn'>, tenantIds: readonly string[]): Promise<string[]> {
  const own = principal.tenantId;
  if (own !== null) return tenantIds.filter((tenantId) => tenantId === own);
  if ((await principal.permissionsIn(null)).allows('users:read')) return [...tenantIds];
  const reads = await Promise.all(tenantIds.map(async (tenantId) => (await principal.permissionsIn(tenantId)).allows('users:read')));
  return tenantIds.filter((_, index) => reads[index] === true);
}

export interface UserFilter {
  status?: UserStatus | null;
  email?: string | null;
  emailPrefix?: string | null;
}

/** RFC 5321's path limit. */
const EMAIL_PREFIX_MAX = 320;

/** No address holds a control character, and PostgreSQL cannot compare a NUL. */
function addressFilter(field: string, value: string): string {
  if (!isControlFree(value)) throw invalid(field, `${field} must not contain control characters`);
  return value;
}

/** The users shownStatus shows as `status`: a lock that has run out (the row still `locked`) is active. */
function shownStatusIs(status: UserStatus): object {
  const lockRunOut = { status: 'locked', lockedUntil: { $lte: new Date() } };
  if (status === 'active') return { $or: [{ status: 'active' }, lockRunOut] };
  if (status === 'locked') return { status: 'locked', $or: [{ lockedUntil: null }, { lockedUntil: { $gt: new Date() } }] };
  return { status };
}

/** The key's prefix; past the `@`, also the domain as given (emailPrefixKeys), the mailbox narrowing by the key's index. */
function emailPrefixCondition(prefix: string): object {
  const { key, domainStart } = emailPrefixKeys(prefix);
  if (domainStart === undefined) return { emailNormalized: { $like: likePrefix(key) } };
  const givenDomain = raw((alias: string) => `normalize(substring(${alias}.email from '[^@]*$'), NFC) ilike ?`, [likePrefix(domainStart.domain)]);
  return { emailNormalized: { $like: likePrefix(domainStart.mailbox) }, $or: [{ emailNormalized: { $like: likePrefix(key) } }, { [givenDomain]: [] }] };
}

/** Addresses compared by their normalized key, as sign-in finds them. A cursor names the filter it was issued for. */
export async function listUsers(scope: Scope, { status, email, emailPrefix, ...page }: PageArgs & UserFilter): Promise<Page<UserRow>> {
  const where: Record<string, unknown> = {};
  if (status != null) Object.assign(where, shownStatusIs(status));
  if (email != null) where['emailNormalized'] = normalizeEmail(addressFilter('email', email));
  if (emailPrefix != null) {
    // Trimmed as an address is: spaces alone would be the empty prefix, every user.
    if (emailPrefix.trim().length === 0 || emailPrefix.length > EMAIL_PREFIX_MAX) {
      throw invalid('emailPrefix', `emailPrefix must be 1 to ${EMAIL_PREFIX_MAX} characters, not only spaces`);
    }
    where['$and'] = [emailPrefixCondition(addressFilter('emailPrefix', emailPrefix))];
  }
  const list = `${scopedList(scope, 'users')}:${JSON.stringify([status ?? null, email ?? null, emailPrefix ?? null])}`;
  return paginate(scope.em, User, where, page, scope.services.cursors, list);
}

export async function getUser(scope: Scope, userId: string): Promise<User> {
  const user = await scope.em.findOne(User, { id: userId });
  if (user === null) throw notFound('User', 'userId');
  return user;
}

/** When `isolated`, the pool of exactly one tenant, which is then required. */
export async function createUser(scope: Scope, input: CreateUserInput): Promise<User> {
  const email = emailAddress('email', input.email);
  const name = input.name == null ? null : displayName('name', input.name);
  const metadata = input.metadata == null ? {} : userMetadata(input.metadata);
  const tenantId = await targetTenant(scope, input.tenantId);
  const password = input.password == null ? null : await hashedPassword(input.password);
  const vouchesShared = await vouchesForSharedPool(scope);
  return uniquely('email', 'A user with this e-mail', () =>
    underTenancyConfig(scope, async (tx) => {
      const poolId = poolFor(await tx.application(), tenantId);
      // Checked again, and held, in the transaction: the tenant may have been deleted since targetTenant read it.
      if (tenantId !== null && (await lockTenants(tx, [tenantId])).length === 0) throw notFound('Tenant', 'tenantId');
      await refuseHeldAddress(tx.em, scope.applicationId, poolId, email);
      const user = tx.em.create(User, {
        applicationId: scope.applicationId,
        id: newId(),
        poolId,
        email,
        emailNormalized: normalizeEmail(email),
        name,
        metadata,
        status: 'active',
        tenantIds: tenantId === null ? [] : [tenantId],
        passwordHash: password === null ? null : await acceptedHash(tx, poolId, password),
        emailVerified: poolId !== SHARED_POOL || vouchesShared,
        // Kept in an isolated pool too, where the tenant's word stands until the pools merge (tenancy/isolation.ts).
        vouchedByTenantId: vouchesShared ? null : tenantId,
      });
      recordAudit(tx.em, tx, { action: 'user.created', targetType: 'user', targetId: user.id, tenantId, after: userSnapshot(user) });
      usersChanged(tx.em, scope.applicationId);
      return user;
    }),
  );
}

function poolFor(application: Application, tenantId: string | null): string {
  if (application.authIsolation !== 'isolated') return SHARED_POOL;
  if (tenantId === null) throw invalid('tenantId', 'The application’s auth is isolated: a user must be created in a tenant');
  return tenantId;
}

/** FOR UPDATE and refreshed: a change is decided on the row any concurrent one left. Lock order: tenants, then their
 *  users, as deleteTenant takes them (lockTenants before this, never after). */
export async function lockUser(tx: Scope, userId: string): Promise<User> {
  const user = await tx.em.findOne(User, { id: userId }, HOLD_FOR_UPDATE);
  if (user === null) throw notFound('User', 'userId');
  return user;
}

interface RequestedTenants {
  unique: string[];
  allExist: boolean;
}

/** Before the user is locked (see lockUser); nothing when `isolated`, where the list cannot change. */
async function holdRequestedTenants(tx: Scope, tenantIds: string[]): Promise<RequestedTenants | null> {
  if ((await tx.application()).authIsolation === 'isolated') return null;
  const unique = [...new Set(tenantIds)];
  return { unique, allExist: (await lockTenants(tx, unique)).length === unique.length };
}

/** When `isolated`, the one tenant of their pool for good (422, though an unchanged list is accepted). */
function membershipsAfter(user: User, requested: string[], held: RequestedTenants | null): string[] {
  if (held !== null) {
    if (!held.allExist) throw notFound('Tenant', 'tenantIds');
    return held.unique;
  }
  const unique = new Set(requested);
  if (unique.size !== user.tenantIds.length || !user.tenantIds.every((id) => unique.has(id))) {
    throw invalid('tenantIds', 'The application’s auth is isolated: a user belongs to one tenant for good');
  }
  return user.tenantIds;
}

export async function updateUser(scope: Scope, userId: string, input: UpdateUserInput): Promise<User> {
  const email = nonNull(input.email, 'email');
  const name = input.name === undefined ? undefined : input.name === null ? null : displayName('name', input.name);
  const newPassword = nonNull(input.password, 'password');
  const requestedTenants = nonNull(input.tenantIds, 'tenantIds');
  const newMetadata = input.metadata === undefined ? undefined : userMetadata(nonNull(input.metadata, 'metadata') ?? {});
  const newEmail = email === undefined ? undefined : emailAddress('email', email);
  if (requestedTenants !== undefined && scope.tenantId !== null) {
    throw new GatehouseError('forbidden', 'Tenant memberships are changed with application-wide credentials');
  }
  const password = newPassword === undefined ? undefined : await hashedPassword(newPassword);
  // Read before the transaction: the sign-ins a new password or a membership's end ends are recorded as listed.
  const cutoffs = password === undefined && requestedTenants === undefined ? {} : await userCutoffs(scope, userId);
  const vouchesShared = newEmail === undefined ? true : await vouchesForSharedPool(scope);
  // Whoever sets the password or the address can sign in as the user: only a caller who holds all they do.
  const takesOver = newEmail !== undefined || password !== undefined;
  const change = (callers: CallerHoldings | null) => uniquely('email', 'A user with this e-mail', () =>
    underTenancyConfig(scope, async (tx) => {
      const held = requestedTenants === undefined ? null : await holdRequestedTenants(tx, requestedTenants);
      const user = await lockUser(tx, userId);
      if (callers !== null) await requireCoveredAccount(tx, tx.em, user.id, callers);
      // Metadata is the account's, one for all its tenants, as its identity is.
      if (newEmail !== undefined || name !== undefined || password !== undefined || newMetadata !== undefined) assertIdentityOfScope(tx, user);
      const before = userSnapshot(user);
      const tenantsBefore = user.tenantIds;
      if (requestedTenants !== undefined) {
        const kept = membershipsAfter(user, requestedTenants, held);
        await endAccessToTenantsLeft(tx, user.id, user.tenantIds.filter((id) => !kept.includes(id)), cutoffs);
        user.tenantIds = kept;
        await endLinksOfOtherOutboxes(tx.em, tx.applicationId, user.id, kept);
      }
      // In its pool's tenant if isolated; no link: an administrator's act is not the user's to take back.
      const at = { em: tx.em, sender: tx, tenantId: user.poolId === SHARED_POOL ? null : user.poolId };
      if (newEmail !== undefined) {
        // As after the user's own change (changeEmail).
        if (normalizeEmail(newEmail) !== user.emailNormalized) {
          await refuseHeldAddress(tx.em, tx.applicationId, user.poolId, newEmail, user.id);
          await leaveOldAddress(tx.em, tx, user.id, user.email);
          await emailChangedMail(at, { id: user.id, email: user.email, tenantIds: user.tenantIds, name: user.name, locale: user.locale }, { newEmail, restore: null });
          const unvouched = user.poolId === SHARED_POOL && !vouchesShared;
          if (unvouched) user.emailVerified = false;
          user.vouchedByTenantId = vouchesShared ? null : tx.tenantId;
        }
        user.email = newEmail;
        user.emailNormalized = normalizeEmail(newEmail);
      }
      if (name !== undefined) user.name = name;
      if (newMetadata !== undefined) user.metadata = newMetadata;
      if (password !== undefined) {
        user.passwordHash = await acceptedHash(tx, user.poolId, password, user.id);
        user.passwordChangedAt = new Date();
        // Ends what the old password reached, as a reset does; the user is told at their address as it now is.
        await endWhatPasswordOpened(tx.em, tx, user.id, 'password_changed', cutoffs);
        const owner = { id: user.id, email: user.email, name: user.name, locale: user.locale, tenantIds: user.tenantIds };
        await passwordChangedMail(at, owner, { link: null, changedAt: user.passwordChangedAt });
      }
      recordAudit(tx.em, tx, { action: 'user.updated', targetType: 'user', targetId: user.id, ...auditFilingOf(user, tx, tenantsBefore), before, after: userSnapshot(user) });
      usersChanged(tx.em, scope.applicationId);
      // Access tokens of tenants left, or of grants a new password ended, stop at once (src/auth/bearer-subject.ts).
      if (requestedTenants !== undefined || password !== undefined) forgetUserKeys(tx.em, [user.id]);
      if (requestedTenants !== undefined) authorizationChanged(tx.em, scope.applicationId);
      return user;
    }),
  );
  const updated = await (takesOver ? withCallerHoldings(scope, { type: 'user', id: userId }, change) : change(null));
  if (newEmail !== undefined || password !== undefined) scope.services.outbox.wake();
  return updated;
}

/** Lifts a lockout on the account and on the addresses it locked out; a suspended user stays suspended. A tenant scope
 *  lifts it only as it may change their identity (assertIdentityOfScope). */
export async function unlockUser(scope: Scope, userId: string): Promise<User> {
  // Under the switches' lock: a split into isolated pools copies the lockout state, so it copies the unlocked user or
  // comes first and the unlock lifts the original's lock alone.
  return underTenancyConfig(scope, async (tx) => {
    const { em } = tx;
    // Held until the commit: a failed sign-in counted meanwhile is not lost under the reset.
    const user = await lockUser(tx, userId);
    // Every address's failures too: an address locked out of the account is let in again.
    const addresses = await forgetSignInFailures(em, tx.applicationId, user.id);
    if (user.status !== 'locked' && !user.lockedWhenSuspended && user.failedSignIns === 0 && addresses.addresses === 0) return user;
    assertIdentityOfScope(tx, user);
    const before = { ...userSnapshot(user), failedSignIns: user.failedSignIns, lockedUntil: user.lockedUntil, lockedAddresses: addresses.locked };
    if (user.status === 'locked') user.status = 'active';
    user.lockedWhenSuspended = false;
    user.lockedUntil = null;
    user.failedSignIns = 0;
    const after = { ...userSnapshot(user), failedSignIns: 0, lockedUntil: null, lockedAddresses: 0 };
    recordAudit(em, tx, { action: 'user.unlocked', targetType: 'user', targetId: user.id, ...auditFilingOf(user, tx), before, after });
    usersChanged(em, scope.applicationId);
    // The user's API keys and tokens work again at once (a locked user's do not: src/auth/authenticate.ts).
    forgetUserKeys(em, [user.id]);
    return user;
  });
}

/** Ends grants, tokens, browser sessions and mailed links and codes, so `activate` gives back the account, not what was
 *  in flight. Refused as identity changes are (assertIdentityOfScope) and for the last operator admin. */
export async function suspendUser(scope: Scope, userId: string): Promise<User> {
  const cutoffs = await userCutoffs(scope, userId);
  return changeStatus(scope, userId, 'user.suspended', async (tx, user) => {
    if (user.status === 'suspended') return undefined;
    await assertNotLastOperatorAdminOfAny(tx, user.id, 'suspend');
    const { grantsRevoked, sessionsEnded } = await endUserSignIns(tx.em, tx, user.id, 'user_suspended', cutoffs);
    await endMailedCredentials(tx.em, tx.applicationId, user.id);
    // What is still queued carries those links: it is not sent.
    await withdrawQueuedMail(tx.em, tx, { userId: user.id, reason: 'user_suspended' });
    user.lockedWhenSuspended = user.status === 'locked' && (user.lockedUntil == null || user.lockedUntil > new Date());
    user.status = 'suspended';
    return { grantsRevoked, sessionsEnded };
  });
}

/** Stays `locked` while a lock has not run out (one without an end only unlock lifts); what was revoked stays revoked. */
export async function activateUser(scope: Scope, userId: string): Promise<User> {
  return changeStatus(scope, userId, 'user.activated', (_tx, user) => {
    if (user.status !== 'suspended') return Promise.resolve(undefined);
    const locked = user.lockedUntil == null ? user.lockedWhenSuspended : user.lockedUntil > new Date();
    user.status = locked ? 'locked' : 'active';
    user.lockedWhenSuspended = false;
    return Promise.resolve({});
  });
}

/** Under the switches' lock (a split of the pools copies the status); `change` answers undefined to write nothing. */
async function changeStatus(
  scope: Scope,
  userId: string,
  action: 'user.suspended' | 'user.activated',
  change: (tx: Scope, user: User) => Promise<Record<string, number> | undefined>,
): Promise<User> {
  return withCallerHoldings(scope, { type: 'user', id: userId }, (callers) => underTenancyConfig(scope, async (tx) => {
    const user = await lockUser(tx, userId);
    assertIdentityOfScope(tx, user);
    await requireOutranking(tx, tx.em, user.id, callers);
    const before = userSnapshot(user);
    const effects = await change(tx, user);
    if (effects === undefined) return user;
    recordAudit(tx.em, tx, { action, targetType: 'user', targetId: user.id, ...auditFilingOf(user, tx), before, after: { ...userSnapshot(user), ...effects } });
    usersChanged(tx.em, scope.applicationId);
    forgetUserKeys(tx.em, [user.id]);
    return user;
  }));
}

/** Links a change leaves working: those proven by an earlier password (a factor's and restore links: the owner's remedy
 *  against whoever knew it), or restore links alone, those issued before `issuedBefore` where it is given. */
export type KeptLinks = { readonly proven: true } | { readonly restoring: true; readonly issuedBefore?: Date };

/** The links and codes mailed to the user and not used yet: credentials in flight, which a suspension and a new address
 *  end too, but `kept`. */
export async function endMailedCredentials(em: EntityManager, applicationId: string, userId: string, kept?: KeptLinks): Promise<void> {
  const [ends, params] =
    kept === undefined ? ['', []] : 'proven' in kept ? [' and proof_password_hash is null', []]
    : kept.issuedBefore === undefined ? [' and restores_email is null', []] : [' and (restores_email is null or created_at >= ?)', [kept.issuedBefore]];
  await executeOwned(em, applicationId, `update email_link_token set used_at = now() where @owner and user_id = ? and used_at is null${ends}`, [userId, ...params]);
  await executeOwned(em, applicationId, 'update email_sign_in set used_at = now() where @owner and user_id = ? and used_at is null', [userId]);
  await executeOwned(em, applicationId, 'delete from mfa_email_code where @owner and user_id = ?', [userId]);
}

/** A new address, in its transaction: whoever reads the old mailbox keeps no way in through it, and what is still queued
 *  to it is not sent (it carries those links, or tells the account's news to a mailbox no longer its own). */
export async function leaveOldAddress(em: EntityManager, actor: AuditActor, userId: string, oldEmail: string, kept?: KeptLinks): Promise<void> {
  await endMailedCredentials(em, actor.applicationId, userId, kept);
  await withdrawQueuedMail(em, actor, { userId, reason: 'email_changed', to: oldEmail });
  // A confirmation of another address, still queued to it, carries a link that just ended.
  await withdrawQueuedMail(em, actor, { userId, reason: 'email_change_ended' });
}

/** A new password ends what the old one reached: every sign-in but `keptUid`'s, and the links and codes mailed before
 *  it (an address change asked with the old one among them), but the reset links that remove a factor or give back an
 *  address: whoever enrolled it or moved the account knew the old password, and would otherwise end the owner's remedy
 *  by changing it. */
export async function endWhatPasswordOpened(
  em: EntityManager,
  actor: AuditActor,
  userId: string,
  reason: 'password_changed' | 'password_reset',
  cutoffs: PolicyCutoffs,
  keptUid: string | null = null,
) {
  await endMailedCredentials(em, actor.applicationId, userId, { proven: true });
  return endUserSignIns(em, actor, userId, reason, cutoffs, keptUid);
}

/** A tenant scope changes a shared-pool user's identity only while they belong to no other tenant, else one tenant's
 *  administrator would take over the account in the others (spec: 403). */
export function assertIdentityOfScope(scope: Scope, user: User): void {
  if (scope.tenantId === null || user.poolId !== SHARED_POOL) return;
  if (user.tenantIds.some((tenantId) => tenantId !== scope.tenantId)) {
    throw new GatehouseError('forbidden', 'The user belongs to other tenants too: their identity is changed with application-wide credentials');
  }
}

/** A tenant scope removes only its membership of a shared-pool user (and their keys there); otherwise the user goes, with
 *  keys and roles (operator ones unless that leaves no operator admin: assertNotLastOperatorAdminOfAny). */
export async function deleteUser(scope: Scope, userId: string): Promise<boolean> {
  const cutoffs = await userCutoffs(scope, userId);
  // Which of the two it is depends on the user's pool, which only the switches change.
  await withCallerHoldings(scope, { type: 'user', id: userId }, (callers) => underTenancyConfig(scope, async (tx) => {
    const user = await lockUser(tx, userId);
    const tenantId = scope.tenantId;
    authorizationChanged(tx.em, scope.applicationId);
    if (tenantId !== null && user.poolId === SHARED_POOL) {
      removeMembership(tx.em, tx, user, tenantId);
      await endAccessToTenantsLeft(tx, user.id, [tenantId], cutoffs);
      // The tenant's outbox, which its administrators read, holds no working link of an account no longer its alone.
      await endLinksOfOtherOutboxes(tx.em, tx.applicationId, user.id, user.tenantIds);
      // Its keys and tokens in the tenant left stop at once.
      forgetUserKeys(tx.em, [user.id]);
      return;
    }
    await requireOutranking(tx, tx.em, user.id, callers);
    await assertNotLastOperatorAdminOfAny(tx, user.id, 'delete');
    await removeUser(tx.em, tx, user, cutoffs);
    // The owner is told, in the mails of the user's tenant when the pool is a tenant's; the deletion never waits on it.
    const at = { em: tx.em, sender: tx, tenantId: user.poolId === SHARED_POOL ? null : user.poolId };
    await noticeOrDrop(domainLog(), { applicationId: tx.applicationId, templateKey: 'account_deleted', userId: user.id }, () => accountDeletedMail(at, user));
    await removeOperatorAssignments(tx.em, tx, user.id);
  }));
  scope.services.outbox.wake();
  return true;
}

/** Revokes their keys there (audited), removes their roles and ends their sessions in them. Only a caller who could
 *  remove each of those roles may: a `users:*` clerk does not take a tenant's admin out of the tenant. */
async function endAccessToTenantsLeft(tx: Scope, userId: string, tenantIds: string[], cutoffs: PolicyCutoffs): Promise<void> {
  if (tenantIds.length === 0) return;
  const roles = await executeOwned<{ permissions: string[] }[]>(
    tx.em,
    tx.applicationId,
    `select r.permissions from role_assignment as a join role as r on r.application_id = a.application_id and r.id = a.role_id
      where @owner(a) and a.subject_type = 'user' and a.subject_id = ? and a.tenant_id in (?)`,
    [userId, tenantIds],
  );
  requireCovered(tx, roles.flatMap((role) => role.permissions));
  for (const key of await tx.em.find(ApiKey, { userId, tenantId: { $in: tenantIds }, revokedAt: null })) revokeKey(tx.em, tx, key);
  await removeAssignments(tx.em, tx, `a.subject_type = 'user' and a.subject_id = ? and a.tenant_id in (?)`, [userId, tenantIds]);
  await endTenantSessions(tx.em, tx, tenantIds, userId, cutoffs);
}

export function removeMembership(em: EntityManager, actor: AuditActor, user: User, tenantId: string, reason?: string): void {
  const before = userSnapshot(user);
  user.tenantIds = user.tenantIds.filter((id) => id !== tenantId);
  const after = { ...userSnapshot(user), ...(reason === undefined ? {} : { reason }) };
  recordAudit(em, actor, { action: 'user.membership.removed', targetType: 'user', targetId: user.id, tenantId, before, after });
  usersChanged(em, actor.applicationId);
}

/** With its audit record under the pool's tenant, if any. */
async function removeUser(em: EntityManager, actor: AuditActor, user: User, cutoffs: PolicyCutoffs): Promise<void> {
  await removeKeysOfUsers(em, actor, 'k.user_id = ?', [user.id]);
  await removeAssignments(em, actor, `a.subject_type = 'user' and a.subject_id = ?`, [user.id]);
  await endUserSignIns(em, actor, user.id, 'user_deleted', cutoffs);
  await removeActivityOfUsers(em, actor.applicationId, 'u.id = ?', [user.id]);
  // The account is gone, and its links with it: only the notice of the deletion, queued after, goes to it.
  await withdrawQueuedMail(em, actor, { userId: user.id, reason: 'user_deleted' });
  recordAudit(em, actor, { action: 'user.deleted', targetType: 'user', targetId: user.id, ...auditFilingOf(user, actor), before: userSnapshot(user) });
  em.remove(user);
  usersChanged(em, actor.applicationId);
  forgetUserKeys(em, [user.id]);
}

/** Each with an `api_key.deleted` record in the key's tenant: the foreign key's cascade would leave the audit log with
 *  no end of the key. */
async function removeKeysOfUsers(em: EntityManager, actor: AuditActor, where: string, params: readonly unknown[]): Promise<void> {
  await removeAssignments(em, actor, `a.subject_type = 'api_key' and a.subject_id in (select k.id from api_key as k where k.application_id = a.application_id and ${where})`, params);
  await recordAuditPerRow(em, actor, { action: 'api_key.deleted', targetType: 'api_key' }, {
    tenantPerRow: true,
    ctes: `changed as (
      delete from api_key as k where @owner(k) and ${where}
      returning k.id::text as target_id, k.tenant_id, ${keySnapshotSql('k')} as before, null::jsonb as after)`,
    params,
  });
}

/** One statement whatever the pool's size. */
export async function removePoolUsers(em: EntityManager, actor: AuditActor, tenantId: string): Promise<void> {
  // Their keys first, each recorded (the tenant's own keys went with its rows; application-wide ones of these users remain).
  await removeKeysOfUsers(em, actor, 'k.user_id in (select u.id from app_user as u where u.application_id = k.application_id and u.pool_id = ?)', [tenantId]);
  // Their application-wide roles too (those in the tenant went with the tenant's rows).
  await removeAssignments(em, actor, `a.subject_type = 'user' and a.subject_id in (select u.id from app_user as u where u.application_id = a.application_id and u.pool_id = ?)`, [tenantId]);
  await removeActivityOfUsers(em, actor.applicationId, 'u.pool_id = ?', [tenantId]);
  // Each is told, as deleteUser tells one; rendered by a job, a batch at a time, whatever the pool's size.
  await deferAccountDeletedMails(em, actor, tenantId);
  const removed = await recordAuditPerRow(em, actor, { action: 'user.deleted', targetType: 'user', tenantId }, {
    ctes: `changed as (
      delete from app_user as u where @owner(u) and u.pool_id = ?
      returning u.id::text as target_id, ${userSnapshotSql('u')} as before, null::jsonb as after)`,
    params: [tenantId],
  });
  usersChanged(em, actor.applicationId);
  forgetUserKeys(em, removed);
}

export async function removeMemberships(em: EntityManager, actor: AuditActor, tenantId: string): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'user.membership.removed', targetType: 'user', tenantId }, {
    // `old` holds each row as it was (locked, so no membership change slips in between) for the `before` snapshot;
    // `@>` (not `= any`) so that the GIN index on tenant_ids finds the members.
    ctes: `old as (
      select application_id, id, tenant_ids from app_user
       where @owner and tenant_ids @> array[?::uuid] and pool_id <> ?
       for update),
    changed as (
      update app_user as u set tenant_ids = array_remove(u.tenant_ids, ?::uuid), updated_at = now()
        from old where u.application_id = old.application_id and u.id = old.id
      returning u.id::text as target_id, ${userSnapshotSql('u', { tenant_ids: 'old.tenant_ids' })} as before, ${userSnapshotSql('u')} as after)`,
    params: [tenantId, tenantId, tenantId],
  });
  usersChanged(em, actor.applicationId);
}

