import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { recordSignIn, type SignInFailureReason } from '../audit/auth-events.ts';
import { configurersCoverAccount } from '../auth-providers/configurer.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { recordSuccessfulSignIn, standingRefusal } from './lockout.ts';
import { createSignedUpUser } from './new-account.ts';
import { ownedByMailbox, takeOverByMailbox } from './mailbox-proof.ts';
import { rememberSamlSubject } from './saml-logout.ts';
import { SignInRefusal } from './refusals.ts';
import { findSamlProvider, samlTrustOf, type SamlIdentity } from './saml.ts';
import { recordAttempt, type FactorRecord, type SignInTarget } from './sign-in.ts';
import type { SamlMethod } from './surface-settings.ts';

/** How a SAML sign-in is recorded (`user.signed_in` … `method`) and counted. */
export const SAML_METHOD = 'saml';

export type SamlAccount = { readonly ok: true; readonly user: SignInUser; readonly record: FactorRecord } | { readonly ok: false; readonly reason: SignInFailureReason };

/**
 * The pool's user with the asserted e-mail, else a new one where sign-up is allowed (the IdP vouches: verified). An
 * account whose address was never verified is not taken over while it has a password (whoever set it may not own the
 * address); without one, the application's IdP proves the mailbox and its owner takes it over, a tenant's own IdP
 * does not. Nor one holding more than the provider's configurers (configurer.ts).
 */
export async function samlAccount(target: SignInTarget, identity: SamlIdentity, address: string): Promise<SamlAccount> {
  const method = target.saml.find((candidate) => candidate.id === identity.providerId);
  const outcome =
    method === undefined
      ? ({ ok: false, reason: 'method_unavailable', user: null } as const)
      : !(await stillTrusted(target, identity))
        ? ({ ok: false, reason: 'invalid_assertion', user: null } as const)
        : await account(target, identity, method, address);
  if (outcome.ok) return { ...outcome, record: { method: SAML_METHOD, providerId: identity.providerId } };
  await recordAttempt(target, { method: SAML_METHOD, providerId: identity.providerId, outcome: { ok: false, reason: outcome.reason, user: outcome.user, email: identity.email } });
  return { ok: false, reason: outcome.reason };
}

/** The provider still trusts the IdP the identity was checked against: moved since to another IdP or key, the identity
 *  is as one that fails its checks. Read from the database, which a provider's change reaches before any cache. */
async function stillTrusted(target: SignInTarget, identity: SamlIdentity): Promise<boolean> {
  const provider = await findSamlProvider(target.scope.services.orm, identity.providerId);
  return provider !== null && samlTrustOf(provider.config) === identity.trust;
}

/** Cancel on the confirmation of an unsolicited identity: recorded, naming the asserted address only. */
export async function declineSamlIdentity(target: SignInTarget, identity: SamlIdentity): Promise<void> {
  await recordAttempt(target, { method: SAML_METHOD, providerId: identity.providerId, outcome: { ok: false, reason: 'declined_by_user', user: null, email: identity.email } });
}

export interface SamlSignInPlace {
  readonly applicationId: string;
  readonly tenantId: string | null;
  /** Null: no sign-in of a client is known (an IdP-initiated response refused on arrival). */
  readonly clientId: string | null;
  readonly requestId: string;
}

/** A response refused at the ACS, before any sign-in page has it: no account is named. */
export async function recordSamlRefusal(
  services: Parameters<typeof recordSignIn>[0],
  place: SamlSignInPlace,
  identity: { readonly providerId: string; readonly email: string | null },
  reason: SignInFailureReason,
): Promise<void> {
  await recordSignIn(services, { ...place, method: SAML_METHOD, providerId: identity.providerId, outcome: { ok: false, reason, user: null, email: identity.email } });
}

async function account(
  target: SignInTarget,
  identity: SamlIdentity,
  method: SamlMethod,
  address: string,
): Promise<{ ok: true; user: SignInUser } | { ok: false; reason: SignInFailureReason; user: SignInUser | null }> {
  const emailNormalized = normalizeEmail(identity.email);
  let user = await readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized });
  if (user === null) {
    if (!method.signUp) return { ok: false, reason: 'unknown_user', user: null };
    user = await createSamlUser(target, identity, emailNormalized);
  }
  // An address nobody proved with a password is its setter's too; without one, the mailbox's owner's (mailbox-proof.ts).
  const unproven = user.emailVerified !== true;
  if (unproven && !ownedByMailbox(user)) return { ok: false, reason: 'email_unverified', user };
  // Before the takeover below, which a refused sign-in must not have made.
  const refused = await standingRefusal(target, user, address);
  if (refused !== undefined) return refused;
  // A tenant's own IdP asserts any address that tenant likes: its word proves no mailbox.
  if (unproven && method.tenantId !== null) return { ok: false, reason: 'provider_not_trusted', user };
  if (!(await configurersCoverAccount(target.applicationScope.em, target.application.id, identity.providerId, user.id))) {
    return { ok: false, reason: 'provider_not_trusted', user };
  }
  if (unproven) {
    const owned = await takeOverByMailbox(target, user);
    if (owned === null) return { ok: false, reason: 'user_inactive', user };
    user = owned;
  }
  const tenantIds = await recordSuccessfulSignIn(target, user, address);
  if (tenantIds === null) return { ok: false, reason: 'user_inactive', user };
  await rememberSamlSubject(target.applicationScope.em, target.application.id, identity, user.id, target.session.absoluteTimeoutMinutes);
  return { ok: true, user: { ...user, tenantIds } };
}

/** As sign-up.ts makes one, without a password. The same address created at the same moment is that user. */
async function createSamlUser(target: SignInTarget, identity: SamlIdentity, emailNormalized: string): Promise<SignInUser> {
  try {
    await underTenancyConfig(target.applicationScope, async (tx) => {
      await createSignedUpUser(tx, target, { email: identity.email, emailVerified: true, origin: { method: SAML_METHOD, providerId: identity.providerId } });
      await tx.em.flush();
    });
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
  }
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized });
  if (user === null) throw new SignInRefusal('signup_tenant_gone', target.look);
  return user;
}
