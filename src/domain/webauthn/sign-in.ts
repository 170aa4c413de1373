import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { SignInFailureReason } from '../audit/auth-events.ts';
import { recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted, standingRefusal } from '../sign-in/lockout.ts';
import { recordAttempt, type FactorRecord, type SignInTarget } from '../sign-in/sign-in.ts';
import type { PasskeyMethod } from '../sign-in/surface-settings.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { assertionOptions, readResponse } from './ceremonies.ts';
import { verifyUserAssertion } from './cloned.ts';
import { amrOfCredential, findPoolCredential } from './credentials.ts';
import type { RelyingParty } from './relying-party.ts';

/**
 * Under the lockout policy as a password is: the credential names its user, and a locked-out or waiting address is
 * refused unchecked. A passkey that verified its user proves two factors (RFC 8176 `user` and `mfa`).
 */
export type PasskeyCheck =
  | { readonly ok: true; readonly user: SignInUser; readonly verified: SignInUser; readonly amr: readonly string[]; readonly record: FactorRecord }
  | { readonly ok: false };

/** Any discoverable credential of the relying party. */
export const passkeySignInOptions = (target: SignInTarget, rp: RelyingParty, interactionId: string, method: PasskeyMethod) =>
  assertionOptions(target.applicationScope.em, { applicationId: target.application.id, purpose: 'sign_in', rp, userId: null, boundTo: interactionId }, method.userVerification);

export async function verifyPasskeySignIn(
  target: SignInTarget,
  rp: RelyingParty,
  interactionId: string,
  method: PasskeyMethod,
  posted: string | null | undefined,
  address: string,
): Promise<PasskeyCheck> {
  const checked = await checkPasskey(target, rp, interactionId, method, posted, address);
  if (checked.ok) return { ...checked, record: { method: 'passkey', amr: checked.amr } };
  await recordAttempt(target, { method: 'passkey', outcome: { ok: false, reason: checked.reason, user: checked.user, email: null } });
  return { ok: false };
}

type Checked = Omit<Extract<PasskeyCheck, { ok: true }>, 'record'> | { ok: false; reason: SignInFailureReason; user: SignInUser | null };

async function checkPasskey(target: SignInTarget, rp: RelyingParty, interactionId: string, method: PasskeyMethod, posted: string | null | undefined, address: string): Promise<Checked> {
  const refused = async (reason: SignInFailureReason, user: SignInUser | null): Promise<Checked> => (await refuseUncounted(target), { ok: false, reason, user });
  const response = readResponse<AuthenticationResponseJSON>(posted);
  if (response === null) return refused('invalid_input', null);
  const { em } = target.applicationScope;
  const applicationId = target.application.id;
  const credential = await findPoolCredential(em, applicationId, rp.id, response.id, target.poolId);
  const user = credential === null ? null : await readSignInUser(em, applicationId, { id: credential.userId, poolId: target.poolId });
  if (credential === null || user === null) return refused('unknown_credential', null);
  const standing = await standingRefusal(target, user, address);
  if (standing !== undefined) return standing;
  const key = { applicationId, purpose: 'sign_in', rp, userId: null, boundTo: interactionId } as const;
  const check = await verifyUserAssertion(target, user, key, response, credential, method.userVerification === 'required');
  if (!check.ok) {
    await recordFailedSignIn(target, user, target.lockout, address);
    return { ok: false, reason: check.reason, user };
  }
  const tenantIds = await recordSuccessfulSignIn(target, user, address);
  if (tenantIds === null) return { ok: false, reason: 'user_inactive', user };
  const amr = amrOfCredential(credential.deviceType, check.userVerified);
  return { ok: true, user, verified: { ...user, tenantIds }, amr: check.userVerified ? [...amr, 'mfa'] : amr };
}
