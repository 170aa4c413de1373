import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '../../auth/password-hash.ts';
import { User } from '../../db/entities/index.ts';
import type { PasswordPolicy } from '../policies/definitions.ts';
import { checkPassword, passwordRefusals } from '../policies/password.ts';
import { effectivePasswordPolicy } from '../policies/policies.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { normalizeEmail } from '../users/email-key.ts';
import type { CopyText } from '../branding/copy/index.ts';
import { textOf, typedEmail, typedName } from '../typed-fields.ts';
import { askedForLock, AskedForMail, welcomeMail } from '../email/flow-mail.ts';
import { mailAt, queueVerification } from './account-links.ts';
import { createSignedUpUser } from './new-account.ts';
import { addressHeld } from '../users/link-tokens.ts';
import type { SignInTarget } from './sign-in.ts';

export interface SignUpInput {
  readonly name: unknown;
  readonly email: unknown;
  readonly password: unknown;
}

/** The answer is the same whether or not the address had an account, so that sign-up does not tell who has one. */
export type SignUpOutcome =
  | { readonly ok: true; readonly email: string; readonly created: User | null }
  | { readonly ok: false; readonly fieldErrors: SignUpFieldErrors };

export type SignUpFieldErrors = Partial<Record<'name' | 'email' | 'password', readonly CopyText[]>>;

const passwordErrors = (policy: PasswordPolicy, password: string) => passwordRefusals(checkPassword(policy, password));

/** An address with an account gets no second one: its owner hears of the attempt (a new verification link while the
 *  first is unused), unless suspended, as askLink. `applicationUrl`: where the notice sends them to sign in. */
export async function tellOwner(target: SignInTarget, em: EntityManager, owner: User, applicationUrl: string): Promise<void> {
  if (owner.status === 'suspended') return;
  if (!owner.emailVerified) return queueVerification(target, em, owner);
  const admitted = await AskedForMail.admit(mailAt(target, em, owner), owner.email);
  if (admitted !== null) await welcomeMail(admitted, owner, { link: applicationUrl, existingAccount: true });
}

export async function signUp(target: SignInTarget, input: SignUpInput, applicationUrl: string): Promise<SignUpOutcome> {
  const fieldErrors: SignUpFieldErrors = {};
  const typed = typedName(textOf(input.name));
  if ('refusal' in typed) fieldErrors.name = [typed.refusal];
  const email = typedEmail(textOf(input.email));
  if (email === undefined) fieldErrors.email = [{ key: 'field.email' }];
  const password = textOf(input.password);
  // Every field at once, before the password costs a hash; the policy that decides is read again below.
  const violations = passwordErrors(await effectivePasswordPolicy(target.scope, target.policyTenantId), password);
  if (violations.length > 0) fieldErrors.password = violations;
  if (Object.keys(fieldErrors).length > 0 || email === undefined || 'refusal' in typed) return { ok: false, fieldErrors };
  const { name } = typed;

  const passwordHash = await hashPassword(password);
  const write = () =>
    underTenancyConfig(target.applicationScope, async (tx): Promise<SignUpOutcome> => {
      const { em } = tx;
      // The policy as in force now, in this transaction: one tightened since the form's check applies too.
      const refused = passwordErrors(await effectivePasswordPolicy(tx, target.policyTenantId), password);
      if (refused.length > 0) return { ok: false, fieldErrors: { password: refused } };
      const emailNormalized = normalizeEmail(email);
      const existing = await em.findOne(User, { applicationId: target.application.id, poolId: target.poolId, emailNormalized }, { filters: false });
      if (existing !== null) {
        await tellOwner(target, em, existing, applicationUrl);
        return { ok: true, email, created: null };
      }
      // Held by a restore link for its former account: answered as an account's is, mailing nothing (the mailbox holds
      // that link's notice already).
      if (await addressHeld(em, target.application.id, target.poolId, emailNormalized)) return { ok: true, email, created: null };
      const created = await createSignedUpUser(tx, target, { email, name, passwordHash, emailVerified: false });
      await em.flush();
      await queueVerification(target, em, created);
      return { ok: true, email, created };
    }, askedForLock(target.application.id, email));
  let outcome: SignUpOutcome;
  try {
    outcome = await write();
  } catch (error) {
    // An account made for the address at the same moment (an administrator's, another sign-up's): a second try finds it
    // and tells its owner, as when it was there first.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    outcome = await write();
  }
  if (outcome.ok) target.scope.services.outbox.wake();
  return outcome;
}
