import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { recordAudit } from '../audit/audit.ts';
import { forgetCodesIfLast, lockSecondSteps } from '../mfa/factors.ts';
import { passkeyClonedMail } from '../email/flow-mail.ts';
import { linkUserOf, mailAt } from '../sign-in/account-links.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { issueLink } from '../users/link-tokens.ts';
import { auditFilingOfRow } from '../users/users.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { verifyAssertion, type AssertionCheck, type ChallengeKey } from './ceremonies.ts';
import { removeCredential, type StoredCredential } from './credentials.ts';

/** A key refused as `cloned_passkey` is removed: a software copy can claim any counter, so kept, the copy would pass
 *  and the owner's key be refused. In one transaction the owner is mailed (passkeyClonedMail) and the removal audited;
 *  of two refusals racing, the one that removes it does both. As the last factor it takes the recovery codes too. */
export async function verifyUserAssertion(
  target: SignInTarget,
  user: SignInUser,
  key: ChallengeKey,
  response: AuthenticationResponseJSON,
  credential: StoredCredential,
  requireUserVerification: boolean,
): Promise<AssertionCheck> {
  const check = await verifyAssertion(target.applicationScope.em, key, response, credential, requireUserVerification);
  if (!check.ok && check.reason === 'cloned_passkey') await removeClonedCredential(target, user, credential);
  return check;
}

async function removeClonedCredential(target: SignInTarget, user: SignInUser, credential: StoredCredential): Promise<void> {
  const queued = await target.applicationScope.transactional(async (em) => {
    // Taken in the account page's order (the user's row, then their factors), and its rule for the last one.
    const held = await lockSecondSteps(em, target.application.id, user.id);
    const removed = await removeCredential(em, target.application.id, user.id, credential.id);
    if (removed === null) return false;
    await forgetCodesIfLast(em, target.application.id, user.id, held);
    const filing = await auditFilingOfRow(em, target.scope, user.id);
    recordAudit(em, target.scope, { action: 'user.passkey.cloned', targetType: 'user', targetId: user.id, ...filing, before: { name: removed.name, rpId: removed.rpId } });
    const at = mailAt(target, em, user);
    const reset = await issueLink(em, await linkUserOf(target, at, user), 'password_reset', target.scope.services.config.publicUrl);
    await passkeyClonedMail(at, user, { link: reset.link, passkey: { name: removed.name } });
    return true;
  });
  if (queued) target.scope.services.outbox.wake();
}
