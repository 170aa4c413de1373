import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { CodeCheck } from '../mfa/second-step.ts';
import type { PageTarget, SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { assertionOptions, readResponse, registrationOptions, verifyRegistration, type Registrant } from './ceremonies.ts';
import { verifyUserAssertion } from './cloned.ts';
import { amrOfCredential, userCredentials, type NewCredential } from './credentials.ts';
import type { RelyingParty } from './relying-party.ts';

/** For a known user: the MFA step (no user verification: the first factor is proven) and registration (discoverable,
 *  verifying its user when the surface's provider asks). */

export async function secondFactorOptions(target: SignInTarget, rp: RelyingParty, boundTo: string, userId: string) {
  const { em } = target.applicationScope;
  const credentials = await userCredentials(em, target.application.id, userId, rp.id);
  return assertionOptions(em, { applicationId: target.application.id, purpose: 'second_factor', rp, userId, boundTo }, 'preferred', credentials);
}

/** Checked under the lockout policy (proveSecondStep). Another user's or relying party's credential is unknown. */
export async function secondFactorProof(target: SignInTarget, rp: RelyingParty, boundTo: string, user: SignInUser, posted: string | null | undefined): Promise<{ amr: string[]; check: () => Promise<CodeCheck> }> {
  const { em } = target.applicationScope;
  const applicationId = target.application.id;
  const response = readResponse<AuthenticationResponseJSON>(posted);
  const credential = response === null ? undefined : (await userCredentials(em, applicationId, user.id, rp.id)).find((candidate) => candidate.credentialId === response.id);
  if (response === null || credential === undefined) return { amr: [], check: async () => ({ ok: false, reason: 'unknown_credential' }) };
  return {
    amr: amrOfCredential(credential.deviceType, false),
    check: async () => {
      const checked = await verifyUserAssertion(target, user, { applicationId, purpose: 'second_factor', rp, userId: user.id, boundTo }, response, credential, false);
      return checked.ok ? { ok: true } : { ok: false, reason: checked.reason };
    },
  };
}

const registrationPolicy = (target: PageTarget) =>
  target.passkey === null ? { discoverable: false, userVerification: 'preferred' as const } : { discoverable: true, userVerification: target.passkey.userVerification };

/** For a user stored, or a passkey sign-up's user about to be (sign-up.ts). */
export async function newCredentialOptions(target: PageTarget, rp: RelyingParty, boundTo: string, user: Registrant) {
  const { em } = target.applicationScope;
  const existing = await userCredentials(em, target.application.id, user.id, rp.id);
  const key = { applicationId: target.application.id, purpose: 'register', rp, userId: user.id, boundTo } as const;
  return registrationOptions(em, key, target.passkey?.rpName ?? target.look.name, user, existing, registrationPolicy(target));
}

/** Null when the check fails. */
export async function provenCredential(target: PageTarget, rp: RelyingParty, boundTo: string, userId: string, posted: string | null | undefined, name: string): Promise<NewCredential | null> {
  const response = readResponse<RegistrationResponseJSON>(posted);
  if (response === null) return null;
  const key = { applicationId: target.application.id, purpose: 'register', rp, userId, boundTo } as const;
  const proven = await verifyRegistration(target.applicationScope.em, key, response, registrationPolicy(target).userVerification === 'required');
  return proven === null ? null : { ...proven, name };
}
