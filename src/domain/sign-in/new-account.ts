import type { Scope } from '../../context.ts';
import { User } from '../../db/entities/index.ts';
import { newId } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import { lockTenants } from '../tenants/target-tenant.ts';
import { usersChanged } from '../users/changed.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { addressHeld } from '../users/link-tokens.ts';
import { SignInRefusal } from './refusals.ts';
import type { SignInTarget } from './sign-in.ts';

/** An account its user makes on a hosted page: by password, e-mail, passkey, an upstream provider or SAML. */
export interface NewAccount {
  /** Given when a ceremony already named the user (a passkey's user handle). */
  readonly id?: string;
  readonly email: string;
  readonly name?: string | null;
  readonly passwordHash?: string | null;
  readonly emailVerified: boolean;
  /** Where the account came from, recorded beside the client (`via`) in `user.signed_up`. */
  readonly origin?: Readonly<Record<string, unknown>>;
}

/** Under the switches' lock (underTenancyConfig): the pool was decided before that transaction, so a switch of
 *  authIsolation since restarts the sign-in rather than write to a pool being left. */
export async function requireTargetPool(tx: Scope, target: SignInTarget): Promise<void> {
  if ((await tx.application()).authIsolation !== target.application.authIsolation) throw new SignInRefusal('settings_changed', target.look);
}

/** In the caller's transaction (requireTargetPool), the user its own actor. The tenant joined (an isolated pool's) is held
 *  FOR SHARE: a deletion waits and takes the new user, or went first and the sign-up finds no tenant. */
export async function createSignedUpUser(tx: Scope, target: SignInTarget, account: NewAccount): Promise<User> {
  const tenantId = target.poolId === target.tenant?.id ? target.tenant.id : null;
  await requireTargetPool(tx, target);
  if (tenantId !== null && (await lockTenants(tx, [tenantId])).length === 0) throw new SignInRefusal('signup_tenant_gone', target.look);
  // Reached once the address is proven (a code, a passkey's code, an upstream provider, SAML); the password sign-up
  // answers a held address before, as it answers one with an account.
  if (await addressHeld(tx.em, target.application.id, target.poolId, normalizeEmail(account.email))) throw new SignInRefusal('signup_address_held', target.look);
  const user = tx.em.create(User, {
    applicationId: target.application.id,
    id: account.id ?? newId(),
    poolId: target.poolId,
    email: account.email,
    emailNormalized: normalizeEmail(account.email),
    name: account.name ?? null,
    // The language of the page signed up on: the account's mails, a verification link first, are in it.
    locale: target.look.locale,
    status: 'active',
    tenantIds: tenantId === null ? [] : [tenantId],
    passwordHash: account.passwordHash ?? null,
    emailVerified: account.emailVerified,
  });
  const actor = { applicationId: target.application.id, tenantId, requestId: target.scope.requestId, principal: { actor: { type: 'user', id: user.id } } };
  recordAudit(tx.em, actor, {
    action: 'user.signed_up',
    targetType: 'user',
    targetId: user.id,
    tenantId,
    after: { email: user.email, name: user.name ?? null, tenantIds: [...user.tenantIds], poolId: user.poolId, hasPassword: user.passwordHash != null, via: target.opener.id, ...account.origin },
  });
  usersChanged(tx.em, target.application.id);
  return user;
}
