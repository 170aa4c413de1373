import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { CodeCheck } from '../mfa/second-step.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import { assertionOptions, readResponse, registrationOptions, verifyAssertion, verifyRegistration } from './ceremonies.ts';
import { amrOfCredential, recordUse, userCredentials, type NewCredential } from './credentials.ts';
import type { RelyingParty } from './relying-party.ts';

/**
 * WebAuthn for a user already known: the `webauthn` second factor of the MFA step (an assertion by one of the user's
 * credentials of the relying party, user verification not asked: the first factor is proven), and the registration
 * of a new credential (the MFA enrolment, the account page). A passkey to sign in with is discoverable and, when the
 * surface's passkey provider asks, verifies its user.
 */

/** The options of the MFA step's WebAuthn form: a challenge for one of the user's credentials of the relying party. */
export async function secondFactorOptions(target: SignInTarget, rp: RelyingParty, userId: string) {
  const { em } = target.applicationScope;
  const credentials = await userCredentials(em, target.application.id, userId, rp.id);
  return assertionOptions(em, { applicationId: target.application.id, purpose: 'second_factor', rp, userId }, 'preferred', credentials);
}

/**
 * An answer of the MFA step's WebAuthn form: the `amr` it proves (the key's kind) and its check, which proveSecondStep
 * runs under the lockout policy. A credential of another user, or of another relying party, is unknown here.
 */
export async function secondFactorProof(target: SignInTarget, rp: RelyingParty, userId: string, posted: string | null | undefined): Promise<{ amr: string[]; check: () => Promise<CodeCheck> }> {
  const { em } = target.applicationScope;
  const applicationId = target.application.id;
  const response = readResponse<AuthenticationResponseJSON>(posted);
  const credential = response === null ? undefined : (await userCredentials(em, applicationId, userId, rp.id)).find((candidate) => candidate.credentialId === response.id);
  if (response === null || credential === undefined) return { amr: [], check: async () => ({ ok: false, reason: 'unknown_credential' }) };
  return {
    amr: amrOfCredential(credential.deviceType, false),
    check: async () => {
      const checked = await verifyAssertion(em, { applicationId, purpose: 'second_factor', rp, userId }, response, credential, false);
      return checked.ok && (await recordUse(em, applicationId, credential.id, checked.counter)) ? { ok: true } : { ok: false, reason: 'invalid_passkey' };
    },
  };
}

/** How a surface registers credentials: discoverable and user-verifying as its passkey provider asks, else a plain second factor. */
const registrationPolicy = (target: SignInTarget) =>
  target.passkey === null ? { discoverable: false, userVerification: 'preferred' as const } : { discoverable: true, userVerification: target.passkey.userVerification };

/** The options of a registration form for the user on the relying party. */
export async function newCredentialOptions(target: SignInTarget, rp: RelyingParty, user: SignInUser) {
  const { em } = target.applicationScope;
  const existing = await userCredentials(em, target.application.id, user.id, rp.id);
  const key = { applicationId: target.application.id, purpose: 'register', rp, userId: user.id } as const;
  return registrationOptions(em, key, target.passkey?.rpName ?? target.look.name, user, existing, registrationPolicy(target));
}

/** A registration answer checked against the user's challenge: the credential to store under `name`, or null. */
export async function provenCredential(target: SignInTarget, rp: RelyingParty, userId: string, posted: string | null | undefined, name: string): Promise<NewCredential | null> {
  const response = readResponse<RegistrationResponseJSON>(posted);
  if (response === null) return null;
  const key = { applicationId: target.application.id, purpose: 'register', rp, userId } as const;
  const proven = await verifyRegistration(target.applicationScope.em, key, response, registrationPolicy(target).userVerification === 'required');
  return proven === null ? null : { ...proven, name };
}
