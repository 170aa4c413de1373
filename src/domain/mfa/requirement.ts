import type { MfaPolicy } from '../policies/definitions.ts';
import type { FactorKind, HeldFactor } from './factors.ts';

/** Decided on every factor held, on any host; a challenge's `factors` are those usable here, `keyHosts` where the user's
 *  keys work when none does here. A factor the policy does not list is neither asked for nor usable. */
export type MfaStep =
  | { readonly kind: 'none' }
  | { readonly kind: 'challenge'; readonly factors: readonly FactorKind[]; readonly keyHosts: readonly string[]; readonly spent?: FactorKind }
  | { readonly kind: 'enrol'; readonly factors: readonly FactorKind[] };

/** `spent`: the kind the first factor already was, which cannot be the second too. Holding only that kind, under
 *  `required`, the challenge has no factor (they sign in another way); only a user holding no listed factor enrols. */
export function mfaStep(policy: MfaPolicy, held: readonly HeldFactor[], spent?: FactorKind): MfaStep {
  if (policy.enforcement === 'off') return { kind: 'none' };
  const offered = policy.factors.filter((kind) => kind !== spent);
  const listed = held.filter((factor) => policy.factors.includes(factor.kind));
  const usable = listed.filter((factor) => factor.kind !== spent);
  if (usable.length > 0) {
    const here = offered.filter((kind) => usable.some((factor) => factor.kind === kind && factor.otherHost === null));
    const keyHosts = here.includes('webauthn') ? [] : [...new Set(usable.flatMap((factor) => (factor.otherHost === null ? [] : [factor.otherHost])))].sort();
    return { kind: 'challenge', factors: here, keyHosts };
  }
  if (policy.enforcement !== 'required') return { kind: 'none' };
  // Whoever knows the password (or holds the spent factor) could otherwise add their own.
  if (listed.length === 0 && offered.length > 0) return { kind: 'enrol', factors: offered };
  return listed.length === 0 && spent === undefined ? { kind: 'none' } : { kind: 'challenge', factors: [], keyHosts: [], spent };
}

/** RFC 8176: each code is `otp`, a WebAuthn key says what it is (`hwk`/`swk`), and two factors `mfa`. */
export const withSecondFactor = (amr: readonly string[], proof: readonly string[] = ['otp']): string[] => [...new Set([...amr, ...proof, 'mfa'])];

/** OIDC Core 2: the PAPE multi-factor URI once a second factor is proven (as Auth0 and Okta issue). */
export const ACR_MULTI_FACTOR = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
export const ACR_SINGLE_FACTOR = 'urn:gatehouse:acr:single-factor';
export const acrOf = (amr: readonly string[]): string => (amr.includes('mfa') ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR);

/** `acr_values` (OIDC Core 3.1.2.1: any one will do) that a single factor does not satisfy. */
export function asksMultiFactor(acrValues: unknown): boolean {
  const requested = typeof acrValues === 'string' ? acrValues.split(' ') : [];
  return requested.includes(ACR_MULTI_FACTOR) && !requested.includes(ACR_SINGLE_FACTOR);
}

/** The OP's login check (src/oidc/policies.ts) of a request asking for the multi-factor acr the session's sign-in did not give. */
export const STEP_UP_REASON = 'acr_step_up';

/** The OP's login check of a session that owes the step to the policy in force (sessionOwesStep). */
export const POLICY_STEP_REASON = 'mfa_policy';

/** The MFA policy of a pool, and when it last changed (epoch ms; null: the built-in default). */
export interface PoolMfaPolicy {
  readonly policy: MfaPolicy;
  readonly changedAt: number | null;
}

/** Under `required`, a session without the multi-factor acr whose sign-in was judged (`checkedAt`, epoch ms, else its
 *  `loginTs`) before the policy last changed: it was judged by a looser one. One judged since passed as the policy asks
 *  (a remembered browser gives the single-factor acr). */
export function sessionOwesStep(pool: PoolMfaPolicy, session: { readonly acr?: string | undefined; readonly loginTs?: number | undefined; readonly checkedAt?: number | undefined }): boolean {
  if (pool.policy.enforcement !== 'required' || pool.changedAt === null || session.acr === ACR_MULTI_FACTOR) return false;
  return (session.checkedAt ?? (session.loginTs ?? 0) * 1000) < pool.changedAt;
}

/** A sign-in that asks for the multi-factor acr goes as under `required`, unless MFA is `off` (the ID token then says
 *  the single-factor acr). */
export const stepUpPolicy = (policy: MfaPolicy): MfaPolicy => (policy.enforcement === 'off' ? policy : { ...policy, enforcement: 'required' });

/** What a first factor's `amr` already proved: a key (one stolen key is not two factors), or the mailbox (`otp` before any
 *  step is an e-mail sign-in's: TOTP is only ever a second step). */
function spentBy(first: readonly string[]): FactorKind | undefined {
  if (first.includes('hwk') || first.includes('swk')) return 'webauthn';
  return first.includes('otp') ? 'email_otp' : undefined;
}

export const mfaStepAfter = (policy: MfaPolicy, held: readonly HeldFactor[], first: readonly string[]): MfaStep => mfaStep(policy, held, spentBy(first));
