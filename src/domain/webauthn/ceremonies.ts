import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type Uint8Array_,
  type UserVerificationRequirement,
} from '@simplewebauthn/server';
import { recordUse, type NewCredential, type StoredCredential } from './credentials.ts';
import type { RelyingParty } from './relying-party.ts';

/**
 * Through @simplewebauthn/server: each option set carries a fresh challenge kept server-side for its purpose, relying
 * party, user and the ceremony it was shown in, which verification uses up (a replayed answer finds none, nor does an
 * answer posted to another sign-in). The library checks the rest.
 */
export type Ceremony = 'sign_in' | 'second_factor' | 'register';

/** As long as the sign-in step it serves. */
const CHALLENGE_SECONDS = 600;
const TIMEOUT_MS = 120_000;
/** A registration carries an attestation (certificates, for some authenticators). */
const MAX_RESPONSE_LENGTH = 64 * 1024;

export interface ChallengeKey {
  readonly applicationId: string;
  readonly purpose: Ceremony;
  readonly rp: RelyingParty;
  /** Null: a sign-in by discoverable credential, for whoever holds one. */
  readonly userId: string | null;
  /** The ceremony it was shown in: the OIDC interaction's uid, the account page's OP session uid, or an invitation's acceptance. */
  readonly boundTo: string;
}

async function keepChallenge(em: EntityManager, key: ChallengeKey, challenge: string): Promise<void> {
  const connection = em.getConnection();
  await executeOwned(connection, key.applicationId, 'delete from webauthn_challenge where @owner and expires_at < now()');
  await connection.execute(
    `insert into webauthn_challenge (application_id, challenge, purpose, rp_id, user_id, bound_to, expires_at) values (?, ?, ?, ?, ?, ?, now() + make_interval(secs => ?::int))`,
    [key.applicationId, challenge, key.purpose, key.rp.id, key.userId, key.boundTo, CHALLENGE_SECONDS],
  );
}

/** True once, for a live challenge of this purpose, relying party, user and ceremony. */
async function useChallenge(em: EntityManager, key: ChallengeKey, challenge: string): Promise<boolean> {
  const used = await executeOwned<unknown[]>(
    em.getConnection(),
    key.applicationId,
    `delete from webauthn_challenge where @owner and challenge = ? and purpose = ? and rp_id = ? and user_id is not distinct from ? and bound_to = ? and expires_at > now() returning 1`,
    [challenge, key.purpose, key.rp.id, key.userId, key.boundTo],
  );
  return used.length > 0;
}

export async function assertionOptions(
  em: EntityManager,
  key: ChallengeKey,
  userVerification: UserVerificationRequirement,
  credentials: readonly StoredCredential[] = [],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: key.rp.id,
    userVerification,
    timeout: TIMEOUT_MS,
    allowCredentials: credentials.map((credential) => ({ id: credential.credentialId, transports: [...credential.transports] })),
  });
  await keepChallenge(em, key, options.challenge);
  return options;
}

export interface Registrant {
  readonly id: string;
  readonly email: string;
  readonly name?: string | null | undefined;
}

/** No attestation: the service trusts no authenticator model more than another. */
export async function registrationOptions(
  em: EntityManager,
  key: ChallengeKey & { readonly userId: string },
  rpName: string,
  user: Registrant,
  existing: readonly StoredCredential[],
  policy: { readonly discoverable: boolean; readonly userVerification: UserVerificationRequirement },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await generateRegistrationOptions({
    rpName,
    rpID: key.rp.id,
    userID: Buffer.from(user.id.replaceAll('-', ''), 'hex'),
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.credentialId })),
    authenticatorSelection: { residentKey: policy.discoverable ? 'required' : 'preferred', userVerification: policy.userVerification },
  });
  await keepChallenge(em, key, options.challenge);
  return options;
}

/** JSON in a form field; null when unreadable. */
export function readResponse<T extends AuthenticationResponseJSON | RegistrationResponseJSON>(posted: string | null | undefined): T | null {
  if (typeof posted !== 'string' || posted.length > MAX_RESPONSE_LENGTH) return null;
  let value: unknown;
  try {
    value = JSON.parse(posted);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, response } = value as { id?: unknown; response?: unknown };
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,1366}$/.test(id) && typeof response === 'object' && response !== null ? (value as T) : null;
}

/**
 * `cloned_passkey`: the credential's own signature, but a counter that did not grow past the one stored, as from a copy
 * of the authenticator (or a use racing another one).
 */
export type AssertionCheck = { readonly ok: true; readonly userVerified: boolean } | { readonly ok: false; readonly reason: 'invalid_passkey' | 'cloned_passkey' };

/** The challenge is used up whatever the outcome; a use that passes is recorded (its counter, its time). */
export async function verifyAssertion(
  em: EntityManager,
  key: ChallengeKey,
  response: AuthenticationResponseJSON,
  credential: StoredCredential,
  requireUserVerification: boolean,
): Promise<AssertionCheck> {
  let checked: { counter: number; userVerified: boolean };
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => useChallenge(em, key, challenge),
      expectedOrigin: key.rp.origin,
      expectedRPID: key.rp.id,
      // The counter is checked once, by the update that records the use, so that its refusal is told apart.
      credential: { id: credential.credentialId, publicKey: credential.publicKey as Uint8Array_, counter: 0 },
      requireUserVerification,
    });
    if (!verified) return { ok: false, reason: 'invalid_passkey' };
    checked = { counter: authenticationInfo.newCounter, userVerified: authenticationInfo.userVerified };
  } catch {
    // The library throws for every failed check (origin, RP ID, challenge, signature): all are refusals.
    return { ok: false, reason: 'invalid_passkey' };
  }
  if (!(await recordUse(em, key.applicationId, credential.id, checked.counter))) return { ok: false, reason: 'cloned_passkey' };
  return { ok: true, userVerified: checked.userVerified };
}

export async function verifyRegistration(
  em: EntityManager,
  key: ChallengeKey & { readonly userId: string },
  response: RegistrationResponseJSON,
  requireUserVerification: boolean,
): Promise<Omit<NewCredential, 'name'> | null> {
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => useChallenge(em, key, challenge),
      expectedOrigin: key.rp.origin,
      expectedRPID: key.rp.id,
      requireUserVerification,
    });
    if (!verified) return null;
    const { credential, credentialDeviceType, credentialBackedUp } = registrationInfo;
    return {
      rpId: key.rp.id,
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports ?? [],
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    };
  } catch {
    return null;
  }
}
