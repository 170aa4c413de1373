import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { executeOwned } from '../../../db/owned-sql.ts';
import { SHARED_POOL } from '../../../db/entities/user.entity.ts';
import { recordAudit } from '../../audit/audit.ts';
import { subjectIssuer } from '../../auth-providers/config.ts';
import { configurersCoverAccount } from '../../auth-providers/configurer.ts';
import { AuthProvider, UserIdentity } from '../../../db/entities/index.ts';
import { HOLD_FOR_SHARE } from '../../../db/row-lock.ts';
import type { Scope } from '../../../context.ts';
import { newId } from '../../../ids.ts';
import type { AttemptUser, SignInFailureReason } from '../../audit/auth-events.ts';
import { underTenancyConfig } from '../../tenancy/config-lock.ts';
import { normalizeEmail } from '../../users/email-key.ts';
import { auditFilingOfRow } from '../../users/users.ts';
import { readSignInUser, type SignInUser } from '../../users/sign-in-user.ts';
import { recordSuccessfulSignIn, standingRefusal } from '../lockout.ts';
import type { SignInTarget } from '../sign-in.ts';
import { createSignedUpUser, requireTargetPool } from '../new-account.ts';
import type { UpstreamMethod } from '../surface-settings.ts';
import type { UpstreamIdentity } from './identity.ts';
import { mailboxTakeover, ownedByMailbox, takeOver, type MailboxTakeover } from '../mailbox-proof.ts';

/** An existing account is reached by e-mail only when the upstream verified it (controlling the upstream account does not
 *  prove the address), and a new one is made only for a verified address (no squatting an address its owner could use).
 *  An existing one only while the provider's configurers hold all it holds (configurer.ts). */
export type UpstreamAccount =
  | { readonly ok: true; readonly user: SignInUser; readonly verified: SignInUser }
  | { readonly ok: false; readonly reason: SignInFailureReason; readonly user: AttemptUser | null };

async function linkedUserId(target: SignInTarget, providerId: string, subject: string): Promise<string | null> {
  const [row] = await executeOwned<{ user_id: string }[]>(
    target.applicationScope.em.getConnection(),
    target.application.id,
    'select user_id from user_identity where @owner and pool_id = ? and provider_id = ? and subject = ?',
    [target.poolId, providerId, subject],
  );
  return row?.user_id ?? null;
}

/** The provider as the callback checked the upstream's answer against: `issuer` its subjectIssuer then. */
export interface VerifiedUpstream {
  readonly providerId: string;
  readonly provider: string;
  readonly issuer: string;
}

/** The answer was checked against the provider's former issuer: as an answer that fails its checks. */
const MOVED: UpstreamAccount = { ok: false, reason: 'upstream_error', user: null };

/** Held FOR SHARE until the link commits: an issuer change (FOR UPDATE) is seen here, or waits and removes the link. */
async function issuerUnchanged(tx: Scope, upstream: VerifiedUpstream): Promise<boolean> {
  const provider = await tx.em.findOne(AuthProvider, { id: upstream.providerId }, HOLD_FOR_SHARE);
  return provider !== null && subjectIssuer(provider.config) === upstream.issuer;
}

/** Under the switches' lock: a merge of the pools refuses links that would collide, so none may land after its check.
 *  A new way into the account: recorded (and read by a shared user's tenants) as its removal is, the user its actor. False: the provider has moved to another
 *  issuer since the callback checked the answer, whose subject is no longer the provider's to link. */
async function link(target: SignInTarget, verified: VerifiedUpstream, subject: string, userId: string, takeover?: MailboxTakeover): Promise<boolean> {
  const upstream = { providerId: verified.providerId, provider: verified.provider };
  return underTenancyConfig(target.applicationScope, async (tx) => {
    if (!(await issuerUnchanged(tx, verified))) return false;
    await requireTargetPool(tx, target);
    // Before the link: the takeover ends the maker's upstream links, not the owner's.
    if (takeover !== undefined) await takeOver(tx.em, takeover);
    // A concurrent callback of the same upstream account links it first: the same link, nothing to add.
    const inserted = await tx.em.execute<{ id: string }[]>(
      `insert into user_identity (application_id, id, pool_id, provider_id, subject, user_id, created_at) values (?, ?, ?, ?, ?, ?, now())
       on conflict (application_id, pool_id, provider_id, subject) do nothing returning id`,
      [target.application.id, newId(), target.poolId, upstream.providerId, subject, userId],
    );
    if (inserted.length === 0) return true;
    const tenantId = target.poolId === SHARED_POOL ? null : target.poolId;
    const actor = { applicationId: target.application.id, tenantId, requestId: target.scope.requestId, principal: { actor: { type: 'user', id: userId } } };
    const filing = await auditFilingOfRow(tx.em, actor, userId);
    recordAudit(tx.em, actor, { action: 'user.upstream_link.created', targetType: 'user', targetId: userId, ...filing, after: { ...upstream, subject } });
    return true;
  });
}

/** As a sign-up creates one (no password); as `link`, only while the provider asks the issuer it was checked against. */
async function createUser(target: SignInTarget, method: UpstreamMethod, verified: VerifiedUpstream, identity: UpstreamIdentity & { email: string }): Promise<UpstreamAccount | string> {
  try {
    const created = await underTenancyConfig(target.applicationScope, async (tx) => {
      if (!(await issuerUnchanged(tx, verified))) return null;
      const user = await createSignedUpUser(tx, target, { email: identity.email, name: identity.name, emailVerified: true, origin: { upstream: method.providerId } });
      tx.em.create(UserIdentity, { applicationId: target.application.id, id: newId(), poolId: target.poolId, providerId: method.providerId, subject: identity.subject, userId: user.id });
      return user;
    });
    return created === null ? MOVED : created.id;
  } catch (error) {
    // The address (or this upstream account) signed up at the same moment: that sign-in made the user; this one is refused.
    if (error instanceof UniqueConstraintViolationException) return { ok: false, reason: 'signup_unavailable', user: null };
    throw error;
  }
}


/** `upstream`: the provider as sign-in records name it, and the issuer `identity` was checked against. */
export async function upstreamAccount(
  target: SignInTarget,
  method: UpstreamMethod,
  upstream: VerifiedUpstream,
  identity: UpstreamIdentity,
  address: string,
): Promise<UpstreamAccount> {
  const { em } = target.applicationScope;
  const applicationId = target.application.id;
  const vouchedFor = (userId: string) => configurersCoverAccount(em, applicationId, method.providerId, userId);
  const linked = await linkedUserId(target, method.providerId, identity.subject);
  let userId = linked;
  if (userId === null) {
    if (identity.email === null) return { ok: false, reason: 'upstream_no_email', user: null };
    const owner = await readSignInUser(em, applicationId, { poolId: target.poolId, emailNormalized: normalizeEmail(identity.email) });
    if (!identity.emailVerified) return { ok: false, reason: 'upstream_email_unverified', user: owner };
    if (owner !== null) {
      // An address nobody proved: one with a password is not the upstream account's to take over (its setter would keep
      // it): its owner confirms it first, as SAML asks. One without is the mailbox's owner's (mailbox-proof.ts).
      const unproven = owner.emailVerified !== true;
      if (unproven && !ownedByMailbox(owner)) return { ok: false, reason: 'email_unverified', user: owner };
      // A refused sign-in adds no way in: a suspended or locked account, or one this address is locked out of or waits on, gets no link.
      const refused = await standingRefusal(target, owner, address);
      if (refused !== undefined) return refused;
      // A tenant's own provider asserts any address that tenant likes: its word proves no mailbox.
      if (unproven && method.tenantId !== null) return { ok: false, reason: 'provider_not_trusted', user: owner };
      if (!(await vouchedFor(owner.id))) return { ok: false, reason: 'provider_not_trusted', user: owner };
      const takeover = unproven ? await mailboxTakeover(target, owner) : undefined;
      if (!(await link(target, upstream, identity.subject, owner.id, takeover))) return { ...MOVED, user: owner };
      userId = owner.id;
    } else {
      if (!method.signUp) return { ok: false, reason: 'signup_unavailable', user: null };
      const created = await createUser(target, method, upstream, { ...identity, email: identity.email });
      if (typeof created !== 'string') return created;
      userId = created;
    }
  }
  const user = await readSignInUser(em, applicationId, { id: userId, poolId: target.poolId });
  if (user === null) return { ok: false, reason: 'user_inactive', user };
  const refused = await standingRefusal(target, user, address);
  if (refused !== undefined) return refused;
  // A link stays when the provider is changed since, or the account given more.
  if (linked !== null && !(await vouchedFor(linked))) return { ok: false, reason: 'provider_not_trusted', user };
  // As a proven password does: a lock that ran out is lifted, and the user's tenants are read as they are now.
  const tenantIds = await recordSuccessfulSignIn(target, user, address);
  if (tenantIds === null) return { ok: false, reason: 'user_inactive', user };
  return { ok: true, user, verified: { ...user, tenantIds } };
}
