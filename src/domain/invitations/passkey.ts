import { isUuid } from '../../ids.ts';
import type { InvitationTarget } from '../sign-in/sign-in.ts';
import type { Registrant } from '../webauthn/ceremonies.ts';
import { keyName, userCredentials, type NewCredential } from '../webauthn/credentials.ts';
import { newCredentialOptions, provenCredential } from '../webauthn/factor.ts';
import type { RelyingParty } from '../webauthn/relying-party.ts';

// A new account's challenge is bound apart from an existing one's, so an id the page carries was drawn for a new account;
// an existing account's key also takes a code mailed to it (proof.ts).

/** Whether the surface's only way in is a passkey: an account without one could not sign in there. */
export const passkeyOnly = (target: InvitationTarget): boolean =>
  target.passkey !== null && !target.password.signIn && !target.email.link && !target.email.code && target.upstreams.length === 0 && target.saml.length === 0;

/** What a challenge (and an existing account's mailed code) is bound to. */
export const invitationCeremony = (invitationId: string, existing: boolean) => `invitation|${invitationId}|${existing ? 'account' : 'new'}`;

export async function holdsPasskey(target: InvitationTarget, rp: RelyingParty, userId: string): Promise<boolean> {
  return (await userCredentials(target.applicationScope.em, target.application.id, userId, rp.id)).length > 0;
}

/** `existing`: the pool's account, else a new account's `registrant.id`, drawn for this page. */
export const invitationPasskeyOptions = (target: InvitationTarget, rp: RelyingParty, invitationId: string, registrant: Registrant, existing: boolean) =>
  newCredentialOptions(target, rp, invitationCeremony(invitationId, existing), registrant);

export async function provenInvitationPasskey(
  target: InvitationTarget,
  rp: RelyingParty,
  invitationId: string,
  userId: unknown,
  existing: boolean,
  posted: string | null | undefined,
): Promise<NewCredential | null> {
  if (typeof userId !== 'string' || !isUuid(userId)) return null;
  return provenCredential(target, rp, invitationCeremony(invitationId, existing), userId, posted, keyName(null));
}
