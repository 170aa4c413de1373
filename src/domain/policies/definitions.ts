import { invalid } from '../../errors.ts';

export const POLICY_KINDS = ['password', 'mfa', 'session', 'lockout'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const MFA_ENFORCEMENTS = ['off', 'optional', 'required'] as const;
export type MfaEnforcement = (typeof MFA_ENFORCEMENTS)[number];
/** SMS is left out on purpose: NIST SP 800-63B restricts it, and Gatehouse has no SMS provider. */
export const MFA_FACTORS = ['totp', 'webauthn', 'email_otp'] as const;
export type MfaFactor = (typeof MFA_FACTORS)[number];

export interface PasswordPolicy {
  minLength: number;
  requireUppercase: boolean;
  requireLowercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
  /** Days until a password must be changed; null: never (NIST SP 800-63B advises against forced rotation). */
  maxAge: number | null;
  disallowCommon: boolean;
  /** 0: no history. */
  historyCount: number;
}

export interface MfaPolicy {
  enforcement: MfaEnforcement;
  factors: MfaFactor[];
  /** 0: ask at every sign-in. */
  rememberDeviceDays: number;
}

export interface SessionPolicy {
  idleTimeoutMinutes: number;
  /** However active. */
  absoluteTimeoutMinutes: number;
  singleSession: boolean;
  /** Mails `new_sign_in` for a sign-in, whatever its first factor, from a browser the user never signed in from. */
  notifyNewBrowser: boolean;
}

export interface LockoutPolicy {
  enabled: boolean;
  /** Consecutive failures from one client address that lock that address out of the account. */
  maxAttempts: number;
  /** An address's lock or the account's; null: until an administrator unlocks the user. */
  lockoutMinutes: number | null;
  resetAfterMinutes: number;
  /** Addresses locked out at once that lock the whole account; null: never. */
  accountLockAddresses: number | null;
}

export interface PolicyValues {
  password: PasswordPolicy;
  mfa: MfaPolicy;
  session: SessionPolicy;
  lockout: LockoutPolicy;
}

/** NIST SP 800-63B 5.1.1.2 passwords (at least 8, no composition rule, no breached ones, no forced rotation); MFA
 *  offered, not required; an address locked after 10 failures, the account once 5 addresses are. */
export const POLICY_DEFAULTS: Readonly<PolicyValues> = Object.freeze<PolicyValues>({
  password: {
    minLength: 8,
    requireUppercase: false,
    requireLowercase: false,
    requireDigit: false,
    requireSymbol: false,
    maxAge: null,
    disallowCommon: true,
    historyCount: 0,
  },
  mfa: { enforcement: 'optional', factors: ['totp', 'email_otp'], rememberDeviceDays: 30 },
  session: { idleTimeoutMinutes: 3 * 24 * 60, absoluteTimeoutMinutes: 30 * 24 * 60, singleSession: false, notifyNewBrowser: false },
  lockout: { enabled: true, maxAttempts: 10, lockoutMinutes: 15, resetAfterMinutes: 15, accountLockAddresses: 5 },
});

type FieldSpec =
  | { type: 'int'; min: number; max: number; nullable?: boolean }
  | { type: 'boolean' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'enumList'; values: readonly string[] };

export const YEAR_MINUTES = 365 * 24 * 60;

/** The one table validation is derived from. */
export const POLICY_FIELDS: { readonly [K in PolicyKind]: { readonly [F in keyof PolicyValues[K]]-?: FieldSpec } } = {
  password: {
    // NIST SP 800-63B: at least 8; 128 is where every hosted service we compared stops.
    minLength: { type: 'int', min: 8, max: 128 },
    requireUppercase: { type: 'boolean' },
    requireLowercase: { type: 'boolean' },
    requireDigit: { type: 'boolean' },
    requireSymbol: { type: 'boolean' },
    maxAge: { type: 'int', min: 1, max: 3650, nullable: true },
    disallowCommon: { type: 'boolean' },
    historyCount: { type: 'int', min: 0, max: 24 },
  },
  mfa: {
    enforcement: { type: 'enum', values: MFA_ENFORCEMENTS },
    factors: { type: 'enumList', values: MFA_FACTORS },
    rememberDeviceDays: { type: 'int', min: 0, max: 365 },
  },
  session: {
    idleTimeoutMinutes: { type: 'int', min: 5, max: YEAR_MINUTES },
    absoluteTimeoutMinutes: { type: 'int', min: 5, max: YEAR_MINUTES },
    singleSession: { type: 'boolean' },
    notifyNewBrowser: { type: 'boolean' },
  },
  lockout: {
    enabled: { type: 'boolean' },
    maxAttempts: { type: 'int', min: 3, max: 100 },
    lockoutMinutes: { type: 'int', min: 1, max: 7 * 24 * 60, nullable: true },
    resetAfterMinutes: { type: 'int', min: 1, max: 7 * 24 * 60 },
    // At least 2: one address alone locking the account is what lets anyone lock a victim out.
    accountLockAddresses: { type: 'int', min: 2, max: 1000, nullable: true },
  },
};

export function isPolicyKind(value: string): value is PolicyKind {
  return (POLICY_KINDS as readonly string[]).includes(value);
}

function checkField(field: string, spec: FieldSpec, value: unknown): unknown {
  if (value === null) {
    if (spec.type === 'int' && spec.nullable === true) return null;
    throw invalid(field, `${field} may not be null`);
  }
  switch (spec.type) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
        throw invalid(field, `${field} must be an integer from ${spec.min} to ${spec.max}${spec.nullable === true ? ', or null' : ''}`);
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(field, `${field} must be a boolean`);
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) throw invalid(field, `${field} must be one of ${spec.values.join(', ')}`);
      return value;
    case 'enumList': {
      if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || !spec.values.includes(item))) {
        throw invalid(field, `${field} must be a list of ${spec.values.join(', ')}`);
      }
      if (new Set(value).size !== value.length) throw invalid(field, `${field} may not repeat a value`);
      return [...(value as string[])];
    }
  }
}

/** PUT replaces: fields left out take the built-in default, so the result never depends on what was stored before. Other
 *  kinds' fields, meaningless nulls, out-of-range values: 422 naming the field. */
export function parsePolicy<K extends PolicyKind>(kind: K, input: Readonly<Record<string, unknown>>): PolicyValues[K] {
  const fields = POLICY_FIELDS[kind] as Readonly<Record<string, FieldSpec>>;
  const value = structuredClone(POLICY_DEFAULTS[kind]) as unknown as Record<string, unknown>;
  for (const [field, given] of Object.entries(input)) {
    if (given === undefined) continue;
    // Own fields only: `constructor` or `toString` would otherwise find Object.prototype's.
    const spec = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (spec === undefined) throw invalid(field, `${field} is not a field of the ${kind} policy`);
    value[field] = checkField(field, spec, given);
  }
  const policy = value as unknown as PolicyValues[K];
  checkCoherence(kind, policy, (field) => input[field] !== undefined);
  return policy;
}

/** A refusal names a field the caller sent: one left out holds its default, which the caller may not have in mind. */
function checkCoherence(kind: PolicyKind, policy: PolicyValues[PolicyKind], given: (field: string) => boolean): void {
  if (kind === 'session') {
    const session = policy as SessionPolicy;
    if (session.idleTimeoutMinutes > session.absoluteTimeoutMinutes) {
      if (!given('idleTimeoutMinutes')) {
        throw invalid(
          'absoluteTimeoutMinutes',
          `absoluteTimeoutMinutes may not be below idleTimeoutMinutes, which is ${session.idleTimeoutMinutes} when left out`,
        );
      }
      throw invalid('idleTimeoutMinutes', 'idleTimeoutMinutes may not exceed absoluteTimeoutMinutes');
    }
  }
  if (kind === 'mfa') {
    const mfa = policy as MfaPolicy;
    if (mfa.enforcement !== 'off' && mfa.factors.length === 0) {
      throw invalid('factors', `factors may not be empty while enforcement is ${mfa.enforcement}`);
    }
  }
}

/** Laid over the defaults, so a field added later reads as its default for older rows. */
export function storedPolicy<K extends PolicyKind>(kind: K, stored: Readonly<Record<string, unknown>> | undefined): PolicyValues[K] {
  const fields = POLICY_FIELDS[kind] as Readonly<Record<string, FieldSpec>>;
  const value = structuredClone(POLICY_DEFAULTS[kind]) as unknown as Record<string, unknown>;
  for (const [field, given] of Object.entries(stored ?? {})) if (Object.hasOwn(fields, field)) value[field] = given;
  return value as unknown as PolicyValues[K];
}
