import { normalizePassword } from '../../auth/password-hash.ts';
import { isControlFree } from '../validate.ts';
import type { PasswordPolicy } from './definitions.ts';

/** Longer passwords are refused whatever the policy: hashing cost should not be the caller's to choose. */
export const MAX_PASSWORD_LENGTH = 256;

export type PasswordViolationCode = 'min_length' | 'max_length' | 'control' | 'uppercase' | 'lowercase' | 'digit' | 'symbol' | 'common';

export interface PasswordViolation {
  code: PasswordViolationCode;
  message: string;
}

/**
 * Among the most used passwords of public breach corpora (SecLists, NCSC's top 100k), compared case-insensitively.
 * A small list on purpose: it stops the passwords a credential-stuffing run tries first.
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '123456', '123456789', '12345678', '1234567890', '12345', '1234567', '123123', '111111', '000000', '123321',
  '654321', '666666', '121212', '112233', '987654321', '11111111', '88888888', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx',
  'qwerty', 'qwerty123', 'qwerty1', 'qwertyuiop', 'asdfghjkl', 'asdf1234', 'zxcvbnm', 'abc123', 'abcd1234', 'a1b2c3d4',
  'password', 'password1', 'password12', 'password123', 'password!', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa$$w0rd',
  'iloveyou', 'iloveyou1', 'welcome', 'welcome1', 'welcome123', 'admin', 'admin123', 'administrator', 'root', 'toor',
  'letmein', 'letmein1', 'monkey', 'dragon', 'master', 'sunshine', 'princess', 'football', 'baseball', 'superman',
  'batman', 'trustno1', 'shadow', 'michael', 'jennifer', 'charlie', 'freedom', 'whatever', 'starwars', 'computer',
  'changeme', 'changeme1', 'secret', 'secret123', 'test1234', 'test123', 'testing123', 'login', 'guest', 'default',
  'summer2024', 'winter2024', 'spring2024', 'autumn2024', 'summer2025', 'winter2025', 'spring2025', 'autumn2025',
  'qazwsx', 'q1w2e3r4', 'q1w2e3r4t5', 'zaq12wsx', 'aa123456', 'aa12345678', 'a123456', 'a12345678', 'passpass',
  'hello123', 'hello1234', 'lovely', 'flower', 'hottie', 'loveme', 'ninja', 'mustang', 'access', 'qwerty12345',
]);

const count = (password: string) => [...password].length;

/**
 * Checks a password against a policy; an empty list means it passes. The password is checked in the form it is
 * hashed in (normalizePassword). Lengths count Unicode code points; letters and digits of any script count (`\p{Lu}`,
 * `\p{Ll}`, `\p{Nd}`), and a symbol is anything that is neither letter nor digit, spaces included (NIST SP 800-63B:
 * allow spaces and all printable characters). Control characters (a NUL, a tab, a line break) are refused: no
 * keyboard types them into a password field. Password history (`historyCount`) needs the stored hashes and is the
 * caller's to check.
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
  if (policy.disallowCommon && COMMON_PASSWORDS.has(password.toLowerCase())) {
    violations.push({ code: 'common', message: 'is one of the most common passwords' });
  }
  return violations;
}
