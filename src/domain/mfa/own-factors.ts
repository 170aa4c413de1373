import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { currentPasswordProven, ownRefusal, type OwnChange } from '../users/own-account.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { enrolFactor, factorsOf, recoveryCodesLeft, replaceRecoveryCodes, useSecondProof, userSender, type FactorKind, type HeldFactor } from './factors.ts';
import { totpStep } from './totp.ts';

/**
 * Removing a factor and replacing the recovery codes take the current password: a browser left signed in must not be
 * enough to weaken the second step or read new codes. A browser remembered by the MFA step is bound to the user's
 * factor ids (src/hosted/mfa.ts), so any added or removed factor forgets it.
 */

export interface OwnFactors {
  /** Keys of every host included: each is the user's second step where it works, as the sign-in counts it. */
  readonly held: readonly HeldFactor[];
  /** The policy's, not held yet; none while the policy is `off` (they would do nothing). */
  readonly addable: readonly FactorKind[];
  readonly unusedRecoveryCodes: number;
}

const WRONG_CODE = ownRefusal({ key: 'mfa.error' });

export async function ownFactors(target: SignInTarget, userId: string, rpId: string): Promise<OwnFactors> {
  const { em } = target.applicationScope;
  const [held, left] = await Promise.all([factorsOf(em, target.application.id, userId, rpId), recoveryCodesLeft(em, target.application.id, userId)]);
  // Keys are added in the page's own section for them (src/hosted/account.ts), not among the codes.
  const addable =
    target.mfa.enforcement === 'off' ? [] : target.mfa.factors.filter((kind) => kind !== 'webauthn' && !held.some((factor) => factor.kind === kind));
  return { held, addable, unusedRecoveryCodes: left };
}

/** Recovery codes only when the user had no unused ones. */
async function enrolOwn(target: SignInTarget, user: SignInUser, factor: Parameters<typeof enrolFactor>[2]): Promise<OwnChange> {
  const codes = await enrolFactor(target, user, factor);
  if (codes === null) return ownRefusal({ key: 'account.factorHeld' });
  return { ok: true, shown: codes };
}

async function mayAdd(target: SignInTarget, userId: string, rpId: string, kind: FactorKind): Promise<boolean> {
  return (await ownFactors(target, userId, rpId)).addable.includes(kind);
}

/** `secret` unsealed by the caller. */
export async function addOwnTotp(target: SignInTarget, user: SignInUser, rpId: string, secret: string, code: string | null | undefined): Promise<OwnChange> {
  if (!(await mayAdd(target, user.id, rpId, 'totp'))) return ownRefusal({ key: 'account.totpUnavailable' });
  const step = totpStep(secret, (code ?? '').trim());
  if (step === null) return WRONG_CODE;
  return enrolOwn(target, user, { kind: 'totp', secret, step });
}

/** Proven by the code just mailed (sendEmailCode). */
export async function addOwnEmailFactor(target: SignInTarget, user: SignInUser, rpId: string, code: string | null | undefined): Promise<OwnChange> {
  if (!(await mayAdd(target, user.id, rpId, 'email_otp'))) return ownRefusal({ key: 'account.emailUnavailable' });
  const owner = { applicationId: target.application.id, id: user.id };
  const used = await useSecondProof(target.applicationScope.em, target.scope.services.storedSecrets, owner, 'email_otp', code ?? '');
  if (!used.ok) return WRONG_CODE;
  return enrolOwn(target, user, { kind: 'email_otp' });
}

/** On any host: second steps too. */
async function keysHeld(tx: SignInTarget['applicationScope']['em'], applicationId: string, userId: string): Promise<number> {
  const [row] = await executeOwned<{ n: number }[]>(tx, applicationId, `select count(*)::int as n from webauthn_credential where @owner and user_id = ?`, [userId]);
  return row?.n ?? 0;
}

/** Locked together, so that two tabs cannot each remove one of the last two. */
async function lockFactors(tx: SignInTarget['applicationScope']['em'], applicationId: string, userId: string): Promise<Pick<HeldFactor, 'id' | 'kind'>[]> {
  return executeOwned<Pick<HeldFactor, 'id' | 'kind'>[]>(tx, applicationId, `select id, kind from mfa_factor where @owner and user_id = ? for update`, [userId]);
}

/**
 * Under a `required` policy the last accepted factor stays (the next sign-in would only enrol one again). With none
 * left, recovery codes and a pending e-mail code go too: they stood in for factors that are gone.
 */
export async function removeOwnFactor(target: SignInTarget, user: SignInUser, factorId: string | null | undefined, password: string | null | undefined): Promise<OwnChange> {
  const applicationId = target.application.id;
  const { em } = target.applicationScope;
  if (!(await currentPasswordProven(em, applicationId, user.id, password))) return { ok: false, reason: 'wrong_current' };
  if (typeof factorId !== 'string' || !isUuid(factorId)) return ownRefusal({ key: 'account.noSuchFactor' });
  return target.applicationScope.transactional(async (tx) => {
    const held = await lockFactors(tx, applicationId, user.id);
    const factor = held.find((candidate) => candidate.id === factorId);
    if (factor === undefined) return ownRefusal({ key: 'account.noSuchFactor' });
    const keys = await keysHeld(tx, applicationId, user.id);
    const offered = target.mfa.factors;
    const usableLeft = held.filter((other) => other.id !== factor.id && offered.includes(other.kind)).length + (offered.includes('webauthn') ? keys : 0);
    if (target.mfa.enforcement === 'required' && offered.includes(factor.kind) && usableLeft === 0) {
      return ownRefusal({ key: 'account.lastFactor' });
    }
    await executeOwned(tx, applicationId, `delete from mfa_factor where @owner and id = ?`, [factor.id]);
    if (held.length === 1 && keys === 0) {
      await executeOwned(tx, applicationId, `delete from mfa_recovery_code where @owner and user_id = ?`, [user.id]);
      await executeOwned(tx, applicationId, `delete from mfa_email_code where @owner and user_id = ?`, [user.id]);
    }
    recordAudit(tx, userSender(target, user), { action: 'user.mfa.remove', targetType: 'user', targetId: user.id, before: { factor: factor.kind } });
    return { ok: true };
  });
}

export async function renewOwnRecoveryCodes(target: SignInTarget, user: SignInUser, password: string | null | undefined): Promise<OwnChange> {
  const applicationId = target.application.id;
  if (!(await currentPasswordProven(target.applicationScope.em, applicationId, user.id, password))) return { ok: false, reason: 'wrong_current' };
  return target.applicationScope.transactional(async (tx) => {
    const held = await lockFactors(tx, applicationId, user.id);
    if (held.length === 0 && (await keysHeld(tx, applicationId, user.id)) === 0) return ownRefusal({ key: 'account.recoveryNeedsFactor' });
    const codes = await replaceRecoveryCodes(tx, applicationId, user.id);
    recordAudit(tx, userSender(target, user), { action: 'user.mfa.recovery_codes.renew', targetType: 'user', targetId: user.id });
    return { ok: true, shown: codes };
  });
}
