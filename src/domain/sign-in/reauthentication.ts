/**
 * What the relying party's request asks of a sign-in made at an upstream or SAML provider, which would otherwise answer
 * from its own session, however old: a fresh one, and the `max_age` to pass on (docs/decisions.md, "Fresh sign-ins").
 */
export interface Reauthentication {
  /** `prompt=login` (OIDC), `ForceAuthn` (SAML): the client asked for it, or the browser's session failed its `max_age`. */
  readonly fresh: boolean;
  /** Seconds, as the client sent it (or its `default_max_age`). */
  readonly maxAge?: number;
}

/**
 * From the OP's prompt of the interaction (oidc-provider's reasons: `login_prompt` for `prompt=login`, which
 * `max_age=0` becomes; `max_age` when it fired) and the request's `max_age`. Without a session `max_age` fires too, but
 * a session that never was is no old one: then `max_age` alone is passed on, for the upstream to weigh its own.
 */
export function reauthenticationOf(prompt: { readonly name: string; readonly reasons: readonly string[] }, maxAgeParameter: unknown): Reauthentication {
  const { name, reasons } = prompt;
  const fresh = name === 'login' && (reasons.includes('login_prompt') || (reasons.includes('max_age') && !reasons.includes('no_session')));
  // oidc-provider has refused any other value before an interaction exists.
  const maxAge = typeof maxAgeParameter === 'string' || typeof maxAgeParameter === 'number' ? Number(maxAgeParameter) : undefined;
  return maxAge === undefined || !Number.isSafeInteger(maxAge) ? { fresh } : { fresh, maxAge };
}
