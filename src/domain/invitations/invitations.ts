import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import type { Application } from '../../db/entities/application.entity.ts';
import { Invitation, OAuthClient, Role, Tenant, User } from '../../db/entities/index.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { lockForTransaction } from '../../db/advisory-lock.ts';
import type { SqlRunner } from '../../db/owned-sql.ts';
import { readClientHome } from '../oauth-clients/client-home.ts';
import { TENANT_FILTER } from '../../db/owned.ts';
import { HOLD_FOR_SHARE, HOLD_FOR_UPDATE } from '../../db/row-lock.ts';
import { GatehouseError, invalid, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordAudit, recordAuditPerRow, type AuditActor } from '../audit/audit.ts';
import { auditedFieldsOf, auditedSnapshot } from '../audit/audited-fields.ts';
import { actingSubjects } from '../authorization/held-roles.ts';
import { visibleIn } from '../authorization/writes.ts';
import { requireCovered } from '../grants.ts';
import { paginate, scopedList, type Page, type PageArgs, type Row } from '../pagination.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { lockTenants, targetTenant } from '../tenants/target-tenant.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { pagesOf, refuseHeldAddress } from '../users/link-tokens.ts';
import { email as emailAddress } from '../validate.ts';
import { consoleOfSql } from '../console/console-of.ts';
import { invitationMail } from '../email/flow-mail.ts';
import { tenantVariable, withdrawQueuedMail } from '../email/outbox.ts';

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export type InvitationRow = Row<Invitation>;

export interface SendInvitationInput {
  email: string;
  roleIds?: string[] | null;
  expiresInDays?: number | null;
  tenantId?: string | null;
  clientId?: string | null;
}

const DEFAULT_EXPIRES_IN_DAYS = 7;
const MAX_EXPIRES_IN_DAYS = 30;
const MAX_ROLES = 20;

/** Under the surface of the invitation's tenant (src/hosted/invitation.ts). */
export const INVITATION_PAGE_PATH = '/invitation';

export function invitationStatus(invitation: Pick<InvitationRow, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt != null) return 'accepted';
  if (invitation.revokedAt != null) return 'revoked';
  return invitation.expiresAt <= now ? 'expired' : 'pending';
}

function statusWhere(status: InvitationStatus, now: Date): object {
  switch (status) {
    case 'accepted':
      return { acceptedAt: { $ne: null } };
    case 'revoked':
      return { acceptedAt: null, revokedAt: { $ne: null } };
    case 'expired':
      return { acceptedAt: null, revokedAt: null, expiresAt: { $lte: now } };
    case 'pending':
      return { acceptedAt: null, revokedAt: null, expiresAt: { $gt: now } };
  }
}

/** Only the SHA-256 of 32 random bytes is stored: nothing to brute-force, one index probe to find it. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** The tenant's own when the application's auth is isolated. */
export const invitationPool = (application: Pick<Application, 'multiTenant' | 'authIsolation'>, tenantId: string): string =>
  application.multiTenant && application.authIsolation === 'isolated' ? tenantId : SHARED_POOL;

/** On the pages of the pool that signs the tenant in now (pagesOf: its verified custom domain, else the service's, by the
 *  tenant's id for an isolated tenant, as a slug may be renamed while the link waits). The token goes in the query, which
 *  the request log redacts. */
export async function invitationLink(
  runner: SqlRunner,
  serviceUrl: string,
  application: Pick<Application, 'id' | 'multiTenant' | 'authIsolation'>,
  tenantId: string,
  token: string,
): Promise<string> {
  const base = await pagesOf(runner, { applicationId: application.id, poolId: invitationPool(application, tenantId) }, serviceUrl);
  return `${base}${INVITATION_PAGE_PATH}?token=${token}`;
}

/** The invitation's client, if it still is one, for a sign-in at `issuer` (the page's surface). */
export async function invitationLanding(
  em: EntityManager,
  invitation: Pick<Invitation, 'applicationId' | 'clientId'>,
  issuer: string,
): Promise<{ name: string; url: string } | null> {
  if (invitation.clientId == null) return null;
  return (await readClientHome(em.getConnection(), invitation.applicationId, invitation.clientId, issuer)) ?? null;
}

const field = auditedFieldsOf<Invitation>();
const INVITATION_SNAPSHOT = auditedSnapshot([
  field.value('email'),
  field.value('tenantId'),
  field.list('roleIds'),
  field.instant('expiresAt'),
  field.value('clientId'),
  field.instant('revokedAt'),
]);
const snapshot = (invitation: Invitation) => INVITATION_SNAPSHOT.of(invitation);
export const invitationSnapshotSql = INVITATION_SNAPSHOT.sql;

function expiresInDays(value: number | null | undefined): number {
  const days = value ?? DEFAULT_EXPIRES_IN_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_EXPIRES_IN_DAYS) {
    throw invalid('expiresInDays', `expiresInDays must be an integer from 1 to ${MAX_EXPIRES_IN_DAYS}`);
  }
  return days;
}

const expiry = (days: number, now = new Date()) => new Date(now.getTime() + days * 24 * 60 * 60 * 1000);

export async function listInvitations(scope: Scope, { status, ...args }: PageArgs & { status?: InvitationStatus | null }): Promise<Page<InvitationRow>> {
  const where = status == null ? {} : statusWhere(status, new Date());
  // The filter is part of the list: a cursor of one status is refused in another.
  return paginate(scope.em, Invitation, where, args, scope.services.cursors, `${scopedList(scope, 'invitations')}:${status ?? ''}`);
}

export async function getInvitation(scope: Scope, invitationId: string): Promise<Invitation> {
  const invitation = await scope.em.findOne(Invitation, { id: invitationId });
  if (invitation === null) throw notFound('Invitation', 'invitationId');
  return invitation;
}

/** The Bearer token's user (an operator's console user); none for an API key, which has no name to show. */
async function inviterOf(em: EntityManager, scope: Scope): Promise<{ name: string | null; email: string | null; locale: string | null }> {
  const { actor } = scope.principal;
  const where = actor.type === 'user' ? 'u.application_id = ?' : actor.type === 'operator' ? `u.application_id = (${consoleOfSql('?')})` : null;
  if (where !== null) {
    const [user] = await em.getConnection().execute<{ name: string | null; email: string; locale: string | null }[]>(
      `select u.name, u.email, u.locale from app_user as u where ${where} and u.id = ?`,
      [scope.applicationId, actor.id],
      'all',
      em.getTransactionContext(),
    );
    if (user !== undefined) return { name: user.name ?? user.email, email: user.email, locale: user.locale };
  }
  return { name: null, email: null, locale: null };
}

async function mailInvitation(em: EntityManager, scope: Scope, application: Application, invitation: Invitation, token: string): Promise<void> {
  const tenant = await em.findOneOrFail(Tenant, { applicationId: application.id, id: invitation.tenantId }, { filters: false });
  const pool = invitationPool(application, invitation.tenantId);
  const user = await em.findOne(User, { applicationId: application.id, poolId: pool, emailNormalized: invitation.emailNormalized }, { filters: false });
  const { locale, ...inviter } = await inviterOf(em, scope);
  // In the invitee's language when their account has one, else in the inviting user's (English without either). An
  // account of other tenants is mailed as the application: its link may add a passkey to it (src/hosted/invitation.ts).
  // No account id: the invitation's revoke or resend withdraws it, not the account's changes (withdrawQueuedMail).
  const invitee = { id: null, email: invitation.email, name: user?.name ?? null, locale: user?.locale ?? locale, tenantIds: user?.tenantIds ?? null };
  const delivery = await invitationMail({ em, sender: scope, tenantId: invitation.tenantId }, invitee, {
    link: await invitationLink(em, scope.services.config.publicUrl, application, tenant.id, token),
    inviter,
    expiresInDays: invitation.expiresInDays,
    tenant: tenantVariable(tenant),
  });
  // Its revoke or resend withdraws it while it is queued: its link then works no more.
  delivery.invitationId = invitation.id;
}

/** Giving roles takes `role_assignments:write` (403), as assigning them would. */
function requireMayGiveRoles(scope: Scope, roleIds: readonly string[]): void {
  if (roleIds.length > 0 && !scope.permissions.allows('role_assignments:write')) {
    throw new GatehouseError('forbidden', 'Missing permission role_assignments:write (to give roles)');
  }
}

/** Those of `roleIds` the tenant sees, held FOR SHARE: before the invitation, in a role deletion's order, or they deadlock. */
export async function holdInvitationRoles(em: EntityManager, roleIds: readonly string[], tenantId: string): Promise<Role[]> {
  if (roleIds.length === 0) return [];
  return em.find(Role, { id: { $in: [...roleIds] }, ...visibleIn(tenantId) }, { ...HOLD_FOR_SHARE, filters: { [TENANT_FILTER]: false } });
}

/** The roles, held until the transaction ends, must be the tenant's to give and hold nothing the credentials lack (403). */
async function requireRolesCovered(scope: Scope, em: EntityManager, roleIds: readonly string[], tenantId: string): Promise<void> {
  if (roleIds.length === 0) return;
  const roles = await holdInvitationRoles(em, roleIds, tenantId);
  if (roles.length !== roleIds.length) throw notFound('Role', 'roleIds');
  requireCovered(scope, roles.flatMap((role) => role.permissions));
}

/** One sender at a time per address and tenant, so that two concurrent invitations cannot both find none pending. */
const invitableLock = (applicationId: string, tenantId: string, emailNormalized: string) => `invitation:${applicationId}:${tenantId}:${emailNormalized}`;

/** A member already, an address a restore link holds (refuseHeldAddress), or another pending invitation to the tenant: 409. Begun in its turn at invitableLock, held to the end. */
async function requireInvitable(em: EntityManager, application: Application, tenantId: string, emailNormalized: string, except?: string): Promise<void> {
  await lockForTransaction(em, invitableLock(application.id, tenantId, emailNormalized));
  const member = await em.findOne(
    User,
    { poolId: invitationPool(application, tenantId), emailNormalized, tenantIds: { $contains: [tenantId] } },
    { filters: { [TENANT_FILTER]: false } },
  );
  if (member !== null) throw new GatehouseError('already_exists', 'This address belongs to a member of the tenant already', { field: 'email' });
  await refuseHeldAddress(em, application.id, invitationPool(application, tenantId), emailNormalized);
  const pending = await em.findOne(Invitation, { tenantId, emailNormalized, ...statusWhere('pending', new Date()), ...(except === undefined ? {} : { id: { $ne: except } }) });
  if (pending !== null) throw new GatehouseError('already_exists', 'This address has a pending invitation to the tenant: resend it', { field: 'email' });
}

/** The application's, signing in from a browser, not revoked, and application-wide or the tenant's own, so a tenant's
 *  invitation never leads into another tenant's client (422). */
async function requireLandingClient(em: EntityManager, tenantId: string, clientId: string): Promise<string> {
  // Application-wide clients too, which the tenant filter of a tenant scope leaves out; the application filter stays.
  const client = await em.findOne(OAuthClient, { id: clientId, revokedAt: null }, { filters: { [TENANT_FILTER]: false } });
  if (client === null || client.redirectUris.length === 0 || (client.tenantId !== null && client.tenantId !== tenantId)) {
    throw invalid('clientId', 'clientId must be an OAuth client of the application with a redirect URI, application-wide or the tenant’s own');
  }
  return client.id;
}

/** A member already, or a pending invitation: 409. Giving roles takes `role_assignments:write` and every permission the
 *  roles hold (403), as assigning them would. */
export async function sendInvitation(scope: Scope, input: SendInvitationInput): Promise<Invitation> {
  const address = emailAddress('email', input.email);
  const days = expiresInDays(input.expiresInDays);
  const roleIds = [...new Set(input.roleIds ?? [])];
  if (roleIds.length > MAX_ROLES) throw invalid('roleIds', `An invitation gives at most ${MAX_ROLES} roles`);
  requireMayGiveRoles(scope, roleIds);
  const tenantId = await targetTenant(scope, input.tenantId);
  if (tenantId === null) throw invalid('tenantId', 'An invitation is to one tenant: send it on the tenant’s path');
  const { token, hash } = newToken();
  const emailNormalized = normalizeEmail(address);
  const created = await underTenancyConfig(scope, async (tx) => {
    const { em } = tx;
    if ((await lockTenants(tx, [tenantId])).length === 0) throw notFound('Tenant', 'tenantId');
    const application = await tx.application();
    await requireInvitable(em, application, tenantId, emailNormalized);
    await requireRolesCovered(scope, em, roleIds, tenantId);
    const clientId = input.clientId == null ? null : await requireLandingClient(em, tenantId, input.clientId);
    const invitation = em.create(Invitation, {
      applicationId: scope.applicationId,
      id: newId(),
      tenantId,
      email: address,
      emailNormalized,
      roleIds,
      tokenHash: hash,
      expiresInDays: days,
      expiresAt: expiry(days),
      acceptedAt: null,
      acceptedUserId: null,
      revokedAt: null,
      clientId,
      invitedByType: scope.principal.actor.type,
      invitedById: scope.principal.actor.id,
      grantedBy: actingSubjects(scope.principal),
    });
    recordAudit(em, tx, { action: 'invitation.created', targetType: 'invitation', targetId: invitation.id, tenantId, after: snapshot(invitation) });
    await mailInvitation(em, tx, application, invitation, token);
    return invitation;
  }, invitableLock(scope.applicationId, tenantId, emailNormalized));
  scope.services.outbox.wake();
  return created;
}

async function lockInvitation(em: EntityManager, invitationId: string): Promise<Invitation> {
  const invitation = await em.findOne(Invitation, { id: invitationId }, HOLD_FOR_UPDATE);
  if (invitation === null) throw notFound('Invitation', 'invitationId');
  return invitation;
}

/** The previous link stops working. Accepted or revoked: 422; an expired one is pending again. A resend gives its roles
 *  anew, so it takes what sending took (403), and is checked as a new one (409): the address may have joined since. */
export async function resendInvitation(scope: Scope, invitationId: string): Promise<Invitation> {
  const { token, hash } = newToken();
  // Its address and tenant never change, its roles only shrink: read first, so the locks are taken in their turn.
  const { tenantId, emailNormalized, roleIds } = await getInvitation(scope, invitationId);
  const resent = await underTenancyConfig(scope, async (tx) => {
    await holdInvitationRoles(tx.em, roleIds, tenantId);
    const invitation = await lockInvitation(tx.em, invitationId);
    const status = invitationStatus(invitation);
    if (status === 'accepted' || status === 'revoked') throw invalid('invitationId', `The invitation is ${status}: send a new one`);
    requireMayGiveRoles(scope, invitation.roleIds);
    await requireInvitable(tx.em, await tx.application(), invitation.tenantId, invitation.emailNormalized, invitation.id);
    await requireRolesCovered(scope, tx.em, invitation.roleIds, invitation.tenantId);
    const before = snapshot(invitation);
    invitation.tokenHash = hash;
    invitation.grantedBy = actingSubjects(scope.principal);
    invitation.expiresAt = expiry(invitation.expiresInDays);
    recordAudit(tx.em, tx, { action: 'invitation.resent', targetType: 'invitation', targetId: invitation.id, tenantId: invitation.tenantId, before, after: snapshot(invitation) });
    await withdrawQueuedMail(tx.em, tx, { invitationId: invitation.id, reason: 'resent' });
    await mailInvitation(tx.em, tx, await tx.application(), invitation, token);
    return invitation;
  }, invitableLock(scope.applicationId, tenantId, emailNormalized));
  scope.services.outbox.wake();
  return resent;
}

/** In the role's deletion: else a resend, which checks the roles anew, would be refused for a role nobody can give any
 *  more. An accepted invitation's list stays what it gave. Each invitation changed: `invitation.updated`, in its tenant. */
export async function withdrawDeletedRole(em: EntityManager, actor: AuditActor, roleId: string): Promise<void> {
  await recordAuditPerRow(em, actor, { action: 'invitation.updated', targetType: 'invitation' }, {
    tenantPerRow: true,
    ctes: `listing as (
      select i.id, ${invitationSnapshotSql('i')} as before from invitation as i where @owner(i) and i.accepted_at is null and i.role_ids @> array[?::uuid]),
    changed as (
      update invitation as i set role_ids = array_remove(i.role_ids, ?::uuid), updated_at = now() from listing
       where @owner(i) and i.id = listing.id
      returning i.id::text as target_id, i.tenant_id, listing.before, ${invitationSnapshotSql('i')} as after)`,
    params: [roleId, roleId],
  });
}

/** Revoked already: unchanged. Accepted: 422. */
export async function revokeInvitation(scope: Scope, invitationId: string): Promise<Invitation> {
  return scope.transactional(async (em) => {
    const invitation = await lockInvitation(em, invitationId);
    const status = invitationStatus(invitation);
    if (status === 'accepted') throw invalid('invitationId', 'The invitation was accepted: remove the user from the tenant instead');
    if (status === 'revoked') return invitation;
    const before = snapshot(invitation);
    invitation.revokedAt = new Date();
    recordAudit(em, scope, { action: 'invitation.revoked', targetType: 'invitation', targetId: invitation.id, tenantId: invitation.tenantId, before, after: snapshot(invitation) });
    await withdrawQueuedMail(em, scope, { invitationId: invitation.id, reason: 'revoked' });
    return invitation;
  });
}
