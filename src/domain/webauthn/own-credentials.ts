import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { ownRefusal, ownScope, type OwnChange } from '../users/own-account.ts';
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

export async function removeOwnCredential(target: SignInTarget, userId: string, id: string | null | undefined): Promise<OwnChange> {
  const scope = ownScope(target, userId);
  const removed =
    typeof id === 'string' &&
    isUuid(id) &&
    (await scope.transactional(async (em) => {
      const name = await removeCredential(em, scope.applicationId, userId, id);
      if (name !== null) recordAudit(em, scope, { action: 'user.passkey.remove', targetType: 'user', targetId: userId, before: { name } });
      return name !== null;
    }));
  return removed ? { ok: true } : ownRefusal({ key: 'account.passkeyGone' });
}
