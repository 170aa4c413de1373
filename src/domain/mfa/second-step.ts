import { recordSignIn, type SignInFailureReason } from '../audit/auth-events.ts';
import { addressStanding, recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted } from '../sign-in/lockout.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import type { CodeRefusal, SecondProof } from './factors.ts';

export type CodeCheck = { ok: true } | { ok: false; reason: CodeRefusal };

/** Under the lockout policy as a password: a locked-out or waiting address is refused unchecked (as long as a counted
 *  refusal takes); a wrong or replayed code counts (secondStepAddress). Every attempt is recorded. */
export async function proveSecondStep(
  target: SignInTarget,
  user: SignInUser,
  attempt: { readonly method: SecondProof; readonly amr: readonly string[]; readonly tenantId: string | null; readonly address: string },
  check: () => Promise<CodeCheck>,
): Promise<boolean> {
  const outcome = await checkCounted(target, user, secondStepAddress(attempt.address), check);
  await recordSignIn(target.scope.services, {
    applicationId: target.application.id,
    tenantId: attempt.tenantId,
    clientId: target.opener.id,
    requestId: target.scope.requestId,
    method: attempt.method,
    ...(outcome.ok ? { amr: attempt.amr } : {}),
    outcome: outcome.ok ? { ok: true, user } : { ok: false, reason: outcome.reason, user, email: null },
  });
  return outcome.ok;
}

/** Apart from the password's: a proven password forgets its address's failures, which would let a guesser knowing it start
 *  each round of code guesses from zero. */
const secondStepAddress = (address: string) => `mfa:${address}`;

async function checkCounted(
  target: SignInTarget,
  user: SignInUser,
  address: string,
  check: () => Promise<CodeCheck>,
): Promise<{ ok: true } | { ok: false; reason: SignInFailureReason }> {
  const standing = await addressStanding(target, user, address);
  if (standing !== 'open') {
    await refuseUncounted(target);
    return { ok: false, reason: standing === 'locked' ? 'address_locked' : 'address_waiting' };
  }
  const checked = await check();
  if (!checked.ok) {
    await recordFailedSignIn(target, user, target.lockout, address);
    return checked;
  }
  // Locked, suspended or locked out since the first factor: refused like any other sign-in then.
  if ((await recordSuccessfulSignIn(target, user, address)) === null) return { ok: false, reason: 'user_inactive' };
  return { ok: true };
}
