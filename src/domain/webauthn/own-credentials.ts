import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid } from '../../ids.ts';
import { recordAudit } from '../audit/audit.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { enrolFactor } from '../mfa/factors.ts';
import { ownEnrolment, removeSecondStep } from '../mfa/own-factors.ts';
import { ownProofRefusal, ownRefusal, ownScope, type OwnChange, type OwnProof } from '../users/own-account.ts';
import { passwordMark, type SignInUser } from '../users/sign-in-user.ts';
import { auditFilingOfRow } from '../users/users.ts';
import { keyName, removeCredential } from './credentials.ts';
import { provenCredential } from './factor.ts';
import type { RelyingParty } from './relying-party.ts';

/** Proven (ownProofRefusal): a key that verifies its user is both factors. Mailed as any factor; recovery codes only
 *  where the policy uses keys as a second step. */
export async function addOwnCredential(
  target: SignInTarget,
  rp: RelyingParty,
  /** The account page's OP session uid, which its challenge was shown to. */
  sessionUid: string,
  user: SignInUser,
  posted: string | null | undefined,
  typedName: string | null | undefined,
  proof: OwnProof,
): Promise<OwnChange> {
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  const credential = await provenCredential(target, rp, sessionUid, user.id, posted, keyName(typedName));
  if (credential === null) return ownRefusal({ key: 'account.passkeyUnfinished' });
  const scope = ownScope(target, user.id);
  const codes = await enrolFactor(target, user, { kind: 'webauthn', credential }, {
    password: passwordMark(user),
    record: (em, filing) => recordAudit(em, scope, { action: 'user.passkey.added', targetType: 'user', targetId: user.id, ...filing, after: { name: credential.name, rpId: credential.rpId } }),
    codes: target.mfa.enforcement !== 'off' && target.mfa.factors.includes('webauthn'),
  });
  return ownEnrolment(codes, ownRefusal({ key: 'account.passkeyHeld' }));
}

class OnlyWayIn extends Error {}

/** Whether the account signs in without a key: by password where the surface takes one (a reset link sets it), by mail,
 *  or through an upstream it is linked to. */
async function signsInWithoutKeys(tx: EntityManager, target: SignInTarget, user: SignInUser): Promise<boolean> {
  if (target.password.signIn || target.email.link || target.email.code) return true;
  const links = await executeOwned<unknown[]>(tx, target.application.id, `select 1 from user_identity where @owner and user_id = ? limit 1`, [user.id]);
  return links.length > 0;
}

/** Proven as adding is. Under a `required` policy listing keys, the last second step stays (removeSecondStep); so does
 *  the last key of an account nothing else signs in, which would be locked out for good. */
export async function removeOwnCredential(target: SignInTarget, user: SignInUser, id: string | null | undefined, proof: OwnProof): Promise<OwnChange> {
  const scope = ownScope(target, user.id);
  const { applicationId } = scope;
  const refused = await ownProofRefusal(target, user, proof);
  if (refused !== null) return refused;
  if (typeof id !== 'string' || !isUuid(id)) return ownRefusal({ key: 'account.passkeyGone' });
  try {
    const removed = await removeSecondStep(target, user, { id, key: true }, async (tx) => {
      const removed = await removeCredential(tx, applicationId, user.id, id);
      const [left] = await executeOwned<unknown[]>(tx, applicationId, `select 1 from webauthn_credential where @owner and user_id = ? limit 1`, [user.id]);
      if (left === undefined && !(await signsInWithoutKeys(tx, target, user))) throw new OnlyWayIn();
      const filing = await auditFilingOfRow(tx, scope, user.id);
      recordAudit(tx, scope, { action: 'user.passkey.removed', targetType: 'user', targetId: user.id, ...filing, before: { name: removed?.name ?? null } });
    });
    return removed ?? ownRefusal({ key: 'account.passkeyGone' });
  } catch (error) {
    if (error instanceof OnlyWayIn) return ownRefusal({ key: 'account.lastPasskey' });
    throw error;
  }
}
