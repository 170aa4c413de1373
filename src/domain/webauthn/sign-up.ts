import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { User } from '../../db/entities/index.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit } from '../audit/audit.ts';
import { askedForLock } from '../email/flow-mail.ts';
import { mailAt } from '../sign-in/account-links.ts';
import { endEmailSignIns, liveCodeRow, mailCode, rowCodeMatches } from '../sign-in/email-methods.ts';
import { refuseUncounted } from '../sign-in/lockout.ts';
import { createSignedUpUser } from '../sign-in/new-account.ts';
import { recordAttempt, type FactorRecord, type SignInTarget } from '../sign-in/sign-in.ts';
import { tellOwner } from '../sign-in/sign-up.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { textOf, typedEmail } from '../typed-fields.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { ownScope } from '../users/own-account.ts';
import { auditFilingOf } from '../users/users.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { amrOfCredential, insertCredential, keyName } from './credentials.ts';
import { newCredentialOptions, provenCredential } from './factor.ts';
import type { RelyingParty } from './relying-party.ts';

/** Passkey sign-up (`allowSignup`), bound to the asking interaction: the address is proven by a mailed code, then a passkey
 *  is made for a user not yet stored (id: the sign-up row's), and account and passkey are stored together once the
 *  registration verifies. An address with an account gets the same pages, its owner a mail instead of a code. */

/** As long as a sign-in link's default. */
const CODE_MINUTES = 15;

const OPEN = `@owner and interaction_id = ? and method = 'passkey_signup' and used_at is null and expires_at > now()`;

/** The address typed, once mailed; undefined when it is no address. */
export async function askPasskeySignUp(target: SignInTarget, typed: unknown, interactionId: string, applicationUrl: string): Promise<string | undefined> {
  const email = typedEmail(textOf(typed));
  if (email === undefined) return undefined;
  await target.applicationScope.transactional(async (em) => {
    const owner = await em.findOne(User, { applicationId: target.application.id, poolId: target.poolId, emailNormalized: normalizeEmail(email) }, { filters: false });
    if (owner !== null) {
      await endEmailSignIns(em, target, interactionId);
      return tellOwner(target, em, owner, applicationUrl);
    }
    const row = { interactionId, userId: null, email, method: 'passkey_signup' as const, minutes: CODE_MINUTES };
    await mailCode(em, target, mailAt(target, em, null), row, { id: null, email, name: null, locale: target.look.locale, tenantIds: null });
  }, askedForLock(target.application.id, email));
  target.scope.services.outbox.wake();
  return email;
}

/** Whether the code proves the interaction's address; a wrong one counts on its row as an e-mail code's does. */
export async function provePasskeySignUpCode(target: SignInTarget, interactionId: string, code: unknown): Promise<boolean> {
  const { em } = target.applicationScope;
  const applicationId = target.application.id;
  const row = await liveCodeRow(em, applicationId, interactionId, ['passkey_signup']);
  if (row === undefined) return (await refuseUncounted(target)).ok;
  const guess = await rowCodeMatches(em, applicationId, row, code);
  if (guess === 'spent') return (await refuseUncounted(target)).ok;
  if (guess === 'wrong') return false;
  const proven = await executeOwned<unknown[]>(
    em.getConnection(),
    applicationId,
    `update email_sign_in set code_hash = null, proven_at = now() where @owner and id = ? and code_hash is not null and used_at is null returning 1`,
    [row.id],
  );
  return proven.length > 0;
}

interface ProvenSignUp {
  readonly id: string;
  readonly email: string;
}

async function provenSignUp(target: SignInTarget, interactionId: string): Promise<ProvenSignUp | undefined> {
  const [row] = await executeOwned<ProvenSignUp[]>(
    target.applicationScope.em.getConnection(),
    target.application.id,
    `select id, email from email_sign_in where ${OPEN} and proven_at is not null order by created_at desc limit 1`,
    [interactionId],
  );
  return row;
}

/** The proven address and the options that make its passkey; undefined when the interaction proved none. */
export async function passkeySignUpOptions(target: SignInTarget, rp: RelyingParty, interactionId: string) {
  const proven = await provenSignUp(target, interactionId);
  return proven === undefined ? undefined : { email: proven.email, options: await newCredentialOptions(target, rp, interactionId, proven) };
}

/** `retry`: the address stays proven, and the browser may try making a passkey again. `sentTo`: the address got an
 *  account meanwhile, whose owner is mailed as if it had it first; answered as the password sign-up answers. */
export type PasskeySignUp =
  | { readonly ok: true; readonly user: SignInUser; readonly amr: readonly string[]; readonly record: FactorRecord }
  | { readonly ok: false; readonly retry: boolean }
  | { readonly ok: false; readonly sentTo: string };

class KeyHeld extends Error {}

/** An account made for the address after its code was proven: the sign-up ends as askPasskeySignUp ends one for an
 *  address with an account (its owner told, the interaction's codes ended), nothing made. */
async function tellOwnerOfTaken(target: SignInTarget, interactionId: string, email: string, applicationUrl: string): Promise<PasskeySignUp | undefined> {
  const told = await target.applicationScope.transactional(async (em) => {
    const owner = await em.findOne(User, { applicationId: target.application.id, poolId: target.poolId, emailNormalized: normalizeEmail(email) }, { filters: false });
    if (owner === null) return false;
    await endEmailSignIns(em, target, interactionId);
    await tellOwner(target, em, owner, applicationUrl);
    return true;
  }, askedForLock(target.application.id, email));
  if (!told) return undefined;
  target.scope.services.outbox.wake();
  return { ok: false, sentTo: email };
}

/** `applicationUrl`: where a notice to the owner of an address taken meanwhile sends them to sign in. */
export async function completePasskeySignUp(
  target: SignInTarget,
  rp: RelyingParty,
  interactionId: string,
  posted: string | null | undefined,
  applicationUrl: string,
): Promise<PasskeySignUp> {
  const proven = await provenSignUp(target, interactionId);
  if (proven === undefined) return { ok: false, retry: false };
  const credential = await provenCredential(target, rp, interactionId, proven.id, posted, keyName(null));
  // Only a key that did not verify may be tried again; the rest end the sign-up.
  const refused = async (reason: 'invalid_passkey' | 'signup_unavailable'): Promise<PasskeySignUp> => {
    await recordAttempt(target, { method: 'passkey', outcome: { ok: false, reason, user: null, email: proven.email } });
    return { ok: false, retry: credential === null };
  };
  if (credential === null) return refused('invalid_passkey');
  const applicationId = target.application.id;
  try {
    const created = await underTenancyConfig(target.applicationScope, async (tx) => {
      const used = await executeOwned<unknown[]>(tx.em, applicationId, `update email_sign_in set used_at = now() where ${OPEN} and id = ? returning 1`, [interactionId, proven.id]);
      if (used.length === 0) return false;
      const user = await createSignedUpUser(tx, target, { id: proven.id, email: proven.email, emailVerified: true, origin: { method: 'passkey' } });
      await tx.em.flush();
      if ((await insertCredential(tx.em, applicationId, user.id, credential)) === null) throw new KeyHeld();
      const scope = ownScope(target, user.id);
      recordAudit(tx.em, scope, { action: 'user.passkey.added', targetType: 'user', targetId: user.id, ...auditFilingOf(user, scope), after: { name: credential.name, rpId: credential.rpId } });
      return true;
    });
    if (!created) return refused('signup_unavailable');
  } catch (error) {
    // The address signed up another way meanwhile (its owner told, as if it had the account first), or the key is another account's.
    if (error instanceof UniqueConstraintViolationException) return (await tellOwnerOfTaken(target, interactionId, proven.email, applicationUrl)) ?? refused('signup_unavailable');
    if (error instanceof KeyHeld) return refused('invalid_passkey');
    throw error;
  }
  const user = (await readSignInUser(target.applicationScope.em, applicationId, { id: proven.id, poolId: target.poolId }))!;
  // The registration verified its user only where the provider requires it: then the passkey is two factors, as at sign-in.
  const verified = target.passkey?.userVerification === 'required';
  const amr = [...amrOfCredential(credential.deviceType, verified), ...(verified ? ['mfa'] : [])];
  return { ok: true, user, amr, record: { method: 'passkey', amr } };
}
