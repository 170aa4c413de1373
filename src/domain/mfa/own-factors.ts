import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { ownProofRefusal, ownRefusal, type OwnChange, type OwnProof } from '../users/own-account.ts';
import { passwordMark, type SignInUser } from '../users/sign-in-user.ts';
import { auditFilingOfRow } from '../users/users.ts';
import {
  enrolFactor,
  factorsOf,
  forgetCodesIfLast,
  lockOwnSecondSteps,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  sendEmailCode,
  useSecondProof,
  userSender,
  type Enrolled,
  type FactorKind,
  type HeldFactor,
  type SecondStep,
} from './factors.ts';
import { totpStep } from './totp.ts';

/** Adding or removing a factor and replacing recovery codes take the current password: a browser left signed in must not
 *  weaken the second step, read new codes, or add its holder's factor (which a password reset leaves, locking the owner
 *  out). A browser remembered by the MFA step is bound to the factor ids (src/hosted/mfa.ts), so any change forgets it. */

export interface OwnFactors {
  /** Keys of every host included: each is the user's second step where it works, as the sign-in counts it. */
  readonly held: readonly HeldFactor[];
  /** The policy's, not held yet; none while the policy is `off` (they would do nothing). */
  readonly addable: readonly FactorKind[];
  readonly unusedRecoveryCodes: number;
}

const WRONG_CODE = ownRefusal({ key: 'mfa.error' });
const EMAIL_UNAVAILABLE = ownRefusal({ key: 'account.emailUnavailable' });
/** Suspended, locked, deleted or deactivated since the page was opened: judged under the user's row (lockOwnSecondSteps). */
const INACTIVE: OwnChange = { ok: false, reason: 'inactive' };

export async function ownFactors(target: SignInTarget, userId: string, rpId: string): Promise<OwnFactors> {
  const { em } = target.applicationScope;
  const [held, left] = await Promise.all([factorsOf(em, target.application.id, userId, rpId), recoveryCodesLeft(em, target.application.id, userId)]);
  // Keys are added in the page's own section for them (src/hosted/account.ts), not among the codes.
  const addable =
    target.mfa.enforcement === 'off' ? [] : target.mfa.factors.filter((kind) => kind !== 'webauthn' && !held.some((factor) => factor.kind === kind));
  return { held, addable, unusedRecoveryCodes: left };
}

async function enrolOwn(target: SignInTarget, user: SignInUser, factor: Parameters<typeof enrolFactor>[2]): Promise<OwnChange> {
  return ownEnrolment(await enrolFactor(target, user, factor, { password: passwordMark(user) }), ownRefusal({ key: 'account.factorHeld' }));
}

/** The account page's answer to an enrolment of `user`'s password as the page read it (`held`: when one of that kind,
 *  or that key, was added first). A password replaced since ended the page's session: it is signed in again. */
export function ownEnrolment(enrolled: Enrolled, held: OwnChange): OwnChange {
  if (enrolled === 'inactive') return INACTIVE;
  if (enrolled === 'password_replaced') return { ok: false, reason: 'sign_in_again' };
  return enrolled === 'not_added' ? held : { ok: true, shown: enrolled };
}

async function mayAdd(target: SignInTarget, userId: string, rpId: string, kind: FactorKind): Promise<boolean> {
  return (await ownFactors(target, userId, rpId)).addable.includes(kind);
}

/** `secret` unsealed by the caller. */
export async function addOwnTotp(
  target: SignInTarget,
  user: SignInUser,
  rpId: string,
  secret: string,
  code: string | null | undefined,
  proof: OwnProof,
): Promise<OwnChange> {
  if (!(await mayAdd(target, user.id, rpId, 'totp'))) return ownRefusal({ key: 'account.totpUnavailable' });
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  const step = totpStep(secret, code ?? '');
  if (step === null) return WRONG_CODE;
  return enrolOwn(target, user, { kind: 'totp', secret, step });
}

/** The code addOwnEmailFactor takes: mailed only while the factor may be added, so the page sends no code the policy does not offer. */
export async function sendOwnEmailCode(target: SignInTarget, user: SignInUser, rpId: string): Promise<OwnChange> {
  if (!(await mayAdd(target, user.id, rpId, 'email_otp'))) return EMAIL_UNAVAILABLE;
  return (await sendEmailCode(target, user)) === 'inactive' ? INACTIVE : { ok: true };
}

/** Proven by the code just mailed (sendOwnEmailCode). */
export async function addOwnEmailFactor(
  target: SignInTarget,
  user: SignInUser,
  rpId: string,
  code: string | null | undefined,
  proof: OwnProof,
): Promise<OwnChange> {
  if (!(await mayAdd(target, user.id, rpId, 'email_otp'))) return EMAIL_UNAVAILABLE;
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  const owner = { applicationId: target.application.id, id: user.id };
  const used = await useSecondProof(target.applicationScope.em, target.scope.services.storedSecrets, owner, 'email_otp', code ?? '');
  if (!used.ok) return WRONG_CODE;
  return enrolOwn(target, user, { kind: 'email_otp' });
}

/** For a user without a password whose sign-in proved nothing here (confirmationDue): a code to their address, which
 *  confirmOwnCode takes; the same code as the step's and the enrolment's (one per user, the newest). */
export async function sendOwnConfirmation(target: SignInTarget, user: SignInUser): Promise<OwnChange> {
  if (user.passwordHash != null) return { ok: true };
  return (await sendEmailCode(target, user)) === 'inactive' ? INACTIVE : { ok: true };
}

/** The mailed code typed back (counted on the code, used once): the page then takes it as the proof for a while. */
export async function confirmOwnCode(target: SignInTarget, user: SignInUser, code: string | null | undefined): Promise<OwnChange> {
  if (user.passwordHash != null) return WRONG_CODE;
  const owner = { applicationId: target.application.id, id: user.id };
  const used = await useSecondProof(target.applicationScope.em, target.scope.services.storedSecrets, owner, 'email_otp', code ?? '');
  return used.ok ? { ok: true } : WRONG_CODE;
}

/** The account page's answer when the user's row no longer allows the change (lockOwnSecondSteps). */
const heldRefusal = (held: 'inactive' | 'password_replaced'): OwnChange => (held === 'inactive' ? INACTIVE : { ok: false, reason: 'sign_in_again' });

/** `key`: a WebAuthn key, else a code factor; refused when a `required` policy needs it (the last accepted one). With none
 *  left, recovery codes and a pending e-mail code go too. Undefined: no such step. `user`: as the page read them, whose
 *  password proved the removal: one replaced since (which ended the page's session) removes nothing. */
export function removeSecondStep(
  target: SignInTarget,
  user: SignInUser,
  removing: { readonly id: string; readonly key: boolean },
  remove: (tx: EntityManager, step: SecondStep) => Promise<void>,
): Promise<OwnChange | undefined> {
  const applicationId = target.application.id;
  const userId = user.id;
  return target.applicationScope.transactional(async (tx) => {
    const held = await lockOwnSecondSteps(tx, target, userId, passwordMark(user));
    if (!Array.isArray(held)) return heldRefusal(held);
    const step = held.find((candidate) => candidate.id === removing.id && (candidate.kind === 'webauthn') === removing.key);
    if (step === undefined) return undefined;
    // Without a password the mailbox is the first factor, which the e-mail code cannot then be the second of.
    const [account] = await executeOwned<{ password_hash: string | null }[]>(tx, applicationId, 'select password_hash from app_user where @owner and id = ?', [userId]);
    const usable = (factor: SecondStep) => target.mfa.factors.includes(factor.kind) && !(account?.password_hash == null && factor.kind === 'email_otp');
    const usableLeft = held.filter((other) => other.id !== step.id && usable(other)).length;
    if (target.mfa.enforcement === 'required' && usable(step) && usableLeft === 0) return ownRefusal({ key: 'account.lastFactor' });
    await remove(tx, step);
    await forgetCodesIfLast(tx, applicationId, userId, held);
    return { ok: true };
  });
}

/** Keys have their own section and form (removeOwnCredential); a code factor is removed here. */
export async function removeOwnFactor(target: SignInTarget, user: SignInUser, factorId: string | null | undefined, proof: OwnProof): Promise<OwnChange> {
  const applicationId = target.application.id;
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  if (typeof factorId !== 'string' || !isUuid(factorId)) return ownRefusal({ key: 'account.noSuchFactor' });
  const removed = await removeSecondStep(target, user, { id: factorId, key: false }, async (tx, step) => {
    await executeOwned(tx, applicationId, `delete from mfa_factor where @owner and id = ?`, [step.id]);
    const sender = userSender(target, user);
    recordAudit(tx, sender, { action: 'user.mfa.removed', targetType: 'user', targetId: user.id, ...(await auditFilingOfRow(tx, sender, user.id)), before: { factor: step.kind } });
  });
  return removed ?? ownRefusal({ key: 'account.noSuchFactor' });
}

export async function renewOwnRecoveryCodes(target: SignInTarget, user: SignInUser, proof: OwnProof): Promise<OwnChange> {
  const applicationId = target.application.id;
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  return target.applicationScope.transactional(async (tx) => {
    const held = await lockOwnSecondSteps(tx, target, user.id, passwordMark(user));
    if (!Array.isArray(held)) return heldRefusal(held);
    if (held.length === 0) return ownRefusal({ key: 'account.recoveryNeedsFactor' });
    const codes = await replaceRecoveryCodes(tx, applicationId, user.id);
    const sender = userSender(target, user);
    recordAudit(tx, sender, { action: 'user.mfa.recovery_codes.renewed', targetType: 'user', targetId: user.id, ...(await auditFilingOfRow(tx, sender, user.id)) });
    return { ok: true, shown: codes };
  });
}
