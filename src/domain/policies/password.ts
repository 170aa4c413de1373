import { normalizePassword } from '../../auth/password-hash.ts';
import { isControlFree } from '../validate.ts';
import { isBreachedPassword } from './breached-passwords.ts';
import type { PasswordPolicy } from './definitions.ts';

/** Longer passwords are refused whatever the policy: hashing cost should not be the caller's to choose. */
export const MAX_PASSWORD_LENGTH = 256;

export type PasswordViolationCode = 'min_length' | 'max_length' | 'control' | 'uppercase' | 'lowercase' | 'digit' | 'symbol' | 'common';

export interface PasswordViolation {
  code: PasswordViolationCode;
  message: string;
}

const count = (password: string) => [...password].length;

/**
 * Checked in its hashed form (normalizePassword). Lengths count code points; letters and digits of any script count,
 * and a symbol is anything else, spaces included (NIST SP 800-63B). Control characters are refused: no keyboard types
 * them into a password field. History (`historyCount`) is the caller's to check.
 */
export function checkPassword(policy: PasswordPolicy, typed: string): PasswordViolation[] {
  const violations: PasswordViolation[] = [];
  const password = normalizePassword(typed);
  const length = count(password);
  if (length < policy.minLength) {
    violations.push({ code: 'min_length', message: `must be at least ${policy.minLength} characters long` });
  }
  if (length > MAX_PASSWORD_LENGTH) {
    violations.push({ code: 'max_length', message: `must be at most ${MAX_PASSWORD_LENGTH} characters long` });
  }
  if (!isControlFree(password)) {
    violations.push({ code: 'control', message: 'must not contain control characters' });
  }
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) {
    violations.push({ code: 'uppercase', message: 'must contain an upper-case letter' });
  }
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) {
    violations.push({ code: 'lowercase', message: 'must contain a lower-case letter' });
  }
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) {
    violations.push({ code: 'digit', message: 'must contain a digit' });
  }
  if (policy.requireSymbol && !/[^\p{L}\p{N}]/u.test(password)) {
    violations.push({ code: 'symbol', message: 'must contain a symbol' });
  }
  if (policy.disallowCommon && isBreachedPassword(password)) {
    violations.push({ code: 'common', message: 'is among the passwords exposed in data breaches or too common to be safe: choose another' });
  }
  return violations;
}
