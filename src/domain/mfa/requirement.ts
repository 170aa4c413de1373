import type { MfaPolicy } from '../policies/definitions.ts';
import type { FactorKind, HeldFactor } from './factors.ts';

/** A factor the policy no longer lists is neither asked for nor usable. */
export type MfaStep =
  | { readonly kind: 'none' }
  | { readonly kind: 'challenge'; readonly factors: readonly FactorKind[] }
  | { readonly kind: 'enrol'; readonly factors: readonly FactorKind[] };

export function mfaStep(policy: MfaPolicy, held: readonly HeldFactor[]): MfaStep {
  if (policy.enforcement === 'off') return { kind: 'none' };
  const offered: readonly FactorKind[] = policy.factors;
  const usable = offered.filter((kind) => held.some((factor) => factor.kind === kind));
  if (usable.length > 0) return { kind: 'challenge', factors: usable };
  if (policy.enforcement === 'required' && offered.length > 0) return { kind: 'enrol', factors: offered };
  return { kind: 'none' };
}

/** RFC 8176: each code is `otp`, a WebAuthn key says what it is (`hwk`/`swk`), and two factors `mfa`. */
export const withSecondFactor = (amr: readonly string[], proof: readonly string[] = ['otp']): string[] => [...new Set([...amr, ...proof, 'mfa'])];

/** OIDC Core 2: the PAPE multi-factor URI once a second factor is proven (as Auth0 and Okta issue). */
export const ACR_MULTI_FACTOR = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
export const ACR_SINGLE_FACTOR = 'urn:gatehouse:acr:single-factor';
export const acrOf = (amr: readonly string[]): string => (amr.includes('mfa') ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR);
