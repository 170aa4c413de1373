import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { removeSecondStep } from '../mfa/own-factors.ts';
import { currentPasswordProven, ownRefusal, ownScope, type OwnChange } from '../users/own-account.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { insertCredential, keyName, removeCredential } from './credentials.ts';
import { provenCredential } from './factor.ts';
import type { RelyingParty } from './relying-party.ts';

/** Each change audited with the user as the actor. */
export async function addOwnCredential(target: SignInTarget, rp: RelyingParty, userId: string, posted: string | null | undefined, typedName: string | null | undefined): Promise<OwnChange> {
  const credential = await provenCredential(target, rp, userId, posted, keyName(typedName));
  if (credential === null) return ownRefusal({ key: 'account.passkeyUnfinished' });
  const scope = ownScope(target, userId);
  const added = await scope.transactional(async (em) => {
    if (!(await insertCredential(em, scope.applicationId, userId, credential))) return false;
    recordAudit(em, scope, { action: 'user.passkey.add', targetType: 'user', targetId: userId, after: { name: credential.name, rpId: credential.rpId } });
    return true;
  });
  return added ? { ok: true } : ownRefusal({ key: 'account.passkeyHeld' });
}

/**
 * Takes the current password of a user who has one, as removing a code factor does: a browser left signed in must not
 * weaken the second step. A user without a password (signed up by a link or an upstream) has none to prove. Under a
 * `required` policy that lists keys, the last second step stays (removeSecondStep).
 */
export async function removeOwnCredential(target: SignInTarget, user: SignInUser, id: string | null | undefined, password: string | null | undefined): Promise<OwnChange> {
  const scope = ownScope(target, user.id);
  const { applicationId } = scope;
  if (user.passwordHash != null && !(await currentPasswordProven(scope.em, applicationId, user.id, password))) return { ok: false, reason: 'wrong_current' };
  if (typeof id !== 'string' || !isUuid(id)) return ownRefusal({ key: 'account.passkeyGone' });
  const removed = await removeSecondStep(target, user.id, { id, key: true }, async (tx) => {
    const name = await removeCredential(tx, applicationId, user.id, id);
    recordAudit(tx, scope, { action: 'user.passkey.remove', targetType: 'user', targetId: user.id, before: { name } });
  });
  return removed ?? ownRefusal({ key: 'account.passkeyGone' });
}
