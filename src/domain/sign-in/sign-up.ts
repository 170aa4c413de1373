import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Scope } from '../../context.ts';
import { hashPassword } from '../../auth/password-hash.ts';
import { User } from '../../db/entities/index.ts';
import { recordAudit } from '../audit.ts';
import type { PasswordPolicy } from '../policies/definitions.ts';
import { checkPassword, passwordRefusals } from '../policies/password.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { lockTenants } from '../tenants/target-tenant.ts';
import { usersChanged } from '../users/changed.ts';
import { normalizeEmail } from '../users/email-key.ts';
import type { CopyText } from '../branding/copy/index.ts';
import { typedEmail, typedName } from '../typed-fields.ts';
import { newId } from '../../ids.ts';
import { welcomeMail } from '../email/flow-mail.ts';
import { mailAt, queueVerification } from './account-links.ts';
import { SignInRefusal } from './refusals.ts';
import type { SignInTarget } from './sign-in.ts';

/** In the shared pool the new user belongs to no tenant (see passwordMethod); in an isolated tenant's pool, to it. */
export interface SignUpInput {
  readonly name: unknown;
  readonly email: unknown;
  readonly password: unknown;
}

/** The answer is the same whether or not the address had an account, so that sign-up does not tell who has one. */
export type SignUpOutcome =
  | { readonly ok: true; readonly email: string; readonly created: User | null }
  | { readonly ok: false; readonly fieldErrors: SignUpFieldErrors };

/** The form's refusals by field, as the page says them. */
export type SignUpFieldErrors = Partial<Record<'name' | 'email' | 'password', readonly CopyText[]>>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

const passwordErrors = (policy: PasswordPolicy, password: string) => passwordRefusals(checkPassword(policy, password));

/**
 * The pool was decided before this transaction: a switch of authIsolation since restarts the sign-up rather than land
 * in the wrong pool. The tenant joined is held FOR SHARE: a deletion (FOR UPDATE) waits and takes the new user, or went
 * first and the sign-up finds no tenant.
 */
export async function holdPool(tx: Scope, target: SignInTarget, tenantId: string | null): Promise<void> {
  if ((await tx.application()).authIsolation !== target.application.authIsolation) {
    throw new SignInRefusal('signup_settings_changed', target.look);
  }
  if (tenantId !== null && (await lockTenants(tx, [tenantId])).length === 0) {
    throw new SignInRefusal('signup_tenant_gone', target.look);
  }
}

/** `applicationUrl`: where the notice to an existing account sends its owner to sign in (the client's origin). */
export async function signUp(target: SignInTarget, input: SignUpInput, applicationUrl: string): Promise<SignUpOutcome> {
  const fieldErrors: SignUpFieldErrors = {};
  const typed = typedName(text(input.name));
  if ('refusal' in typed) fieldErrors.name = [typed.refusal];
  const email = typedEmail(text(input.email));
  if (email === undefined) fieldErrors.email = [{ key: 'field.email' }];
  const password = text(input.password);
  // Every field at once, before the password costs a hash; the policy that decides is read again below.
  const violations = passwordErrors(await effectivePasswordPolicy(target.scope, target.policyTenantId), password);
  if (violations.length > 0) fieldErrors.password = violations;
  if (Object.keys(fieldErrors).length > 0 || email === undefined || 'refusal' in typed) return { ok: false, fieldErrors };
  const { name } = typed;

  const passwordHash = await hashPassword(password);
  const tenantId = target.poolId === target.tenant?.id ? target.tenant.id : null;
  try {
    const outcome = await underTenancyConfig(target.applicationScope, async (tx): Promise<SignUpOutcome> => {
      const { em } = tx;
      await holdPool(tx, target, tenantId);
      // The policy as in force now, in this transaction: one tightened since the form's check applies too.
      const refused = passwordErrors(await effectivePasswordPolicy(tx, target.policyTenantId), password);
      if (refused.length > 0) return { ok: false, fieldErrors: { password: refused } };
      const emailNormalized = normalizeEmail(email);
      const existing = await em.findOne(User, { applicationId: target.application.id, poolId: target.poolId, emailNormalized }, { filters: false });
      if (existing !== null) {
        // Not a second account: its owner hears of the attempt (a new verification link while the first is unused).
        if (!existing.emailVerified) await queueVerification(target, em, existing);
        else await welcomeMail(mailAt(target, em, existing), existing, { link: applicationUrl, existingAccount: true });
        return { ok: true, email, created: null };
      }
      const created = em.create(User, {
        applicationId: target.application.id,
        id: newId(),
        poolId: target.poolId,
        email,
        emailNormalized,
        name,
        // The language of the sign-up page: the account's mails, the verification link first, are in it.
        locale: target.look.locale,
        status: 'active',
        tenantIds: tenantId === null ? [] : [tenantId],
        passwordHash,
        emailVerified: false,
      });
      // The new user is the actor of their own sign-up.
      const actor = { applicationId: target.application.id, tenantId, requestId: target.scope.requestId, principal: { actor: { type: 'user', id: created.id } } };
      recordAudit(em, actor, {
        action: 'user.signup',
        targetType: 'user',
        targetId: created.id,
        tenantId,
        after: { email: created.email, name: created.name ?? null, tenantIds: [...created.tenantIds], poolId: created.poolId, hasPassword: true, via: target.clientId },
      });
      await em.flush();
      await queueVerification(target, em, created);
      return { ok: true, email, created };
    });
    if (outcome.ok) {
      target.scope.services.outbox.wake();
      if (outcome.created !== null) await usersChanged(target.scope.services, target.application.id);
    }
    return outcome;
  } catch (error) {
    // The same address signed up at the same moment: that sign-up's mail tells its owner; this one says the same.
    if (error instanceof UniqueConstraintViolationException) return { ok: true, email, created: null };
    throw error;
  }
}
