import type { MfaPolicy } from '../policies/definitions.ts';
import type { FactorKind, HeldFactor } from './factors.ts';

/**
 * Decided on every factor the user holds, on any host; a challenge's `factors` are those usable here, `keyHosts` where
 * the user's keys work when none works here. A factor the policy no longer lists is neither asked for nor usable.
 */
export type MfaStep =
  | { readonly kind: 'none' }
  | { readonly kind: 'challenge'; readonly factors: readonly FactorKind[]; readonly keyHosts: readonly string[] }
  | { readonly kind: 'enrol'; readonly factors: readonly FactorKind[] };

export function mfaStep(policy: MfaPolicy, held: readonly HeldFactor[]): MfaStep {
  if (policy.enforcement === 'off') return { kind: 'none' };
  const offered: readonly FactorKind[] = policy.factors;
  const listed = held.filter((factor) => offered.includes(factor.kind));
  if (listed.length > 0) {
    const here = offered.filter((kind) => listed.some((factor) => factor.kind === kind && factor.otherHost === null));
    const keyHosts = here.includes('webauthn') ? [] : [...new Set(listed.flatMap((factor) => (factor.otherHost === null ? [] : [factor.otherHost])))].sort();
    return { kind: 'challenge', factors: here, keyHosts };
  }
  // Only a user holding no listed factor on any host enrols: else whoever knows the password could add their own.
  if (policy.enforcement === 'required' && offered.length > 0) return { kind: 'enrol', factors: offered };
  return { kind: 'none' };
}

/** RFC 8176: each code is `otp`, a WebAuthn key says what it is (`hwk`/`swk`), and two factors `mfa`. */
export const withSecondFactor = (amr: readonly string[], proof: readonly string[] = ['otp']): string[] => [...new Set([...amr, ...proof, 'mfa'])];

/** OIDC Core 2: the PAPE multi-factor URI once a second factor is proven (as Auth0 and Okta issue). */
export const ACR_MULTI_FACTOR = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
export const ACR_SINGLE_FACTOR = 'urn:gatehouse:acr:single-factor';
export const acrOf = (amr: readonly string[]): string => (amr.includes('mfa') ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR);

/**
 * The step after a first factor whose `amr` is `first`: after an unverified key (possession only) it is of another
 * kind, or one stolen key would be both factors; under a `required` policy of keys only, a challenge with none.
 */
export function mfaStepAfter(policy: MfaPolicy, held: readonly HeldFactor[], first: readonly string[]): MfaStep {
  if (!first.includes('hwk') && !first.includes('swk')) return mfaStep(policy, held);
  const factors = policy.factors.filter((kind) => kind !== 'webauthn');
  if (policy.enforcement === 'required' && factors.length === 0) return { kind: 'challenge', factors: [], keyHosts: [] };
  return mfaStep({ ...policy, factors }, held.filter((factor) => factor.kind !== 'webauthn'));
}
