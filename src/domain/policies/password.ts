import { normalizePassword } from '../../auth/password-hash.ts';
import type { CopyText } from '../branding/copy/index.ts';
import { isControlFree } from '../validate.ts';
import { isBreachedPassword } from './breached-passwords.ts';
import type { PasswordPolicy } from './definitions.ts';

/** Longer passwords are refused whatever the policy: hashing cost should not be the caller's to choose. */
export const MAX_PASSWORD_LENGTH = 256;
/** The longest typed form (UTF-16 units) whose NFKC form can still be a password: NFKC composes at most four code points
 *  into one. Anything longer is no password, at sign-in or when one is set. */
export const MAX_PASSWORD_INPUT = 4 * MAX_PASSWORD_LENGTH;

export type PasswordViolationCode = 'min_length' | 'max_length' | 'control' | 'uppercase' | 'lowercase' | 'digit' | 'symbol' | 'common' | 'history';

/** `message`: the API's (English, after the field's name); `refusal`: what the hosted pages say, in their language. */
export interface PasswordViolation {
  readonly code: PasswordViolationCode;
  readonly message: string;
  readonly refusal: CopyText;
}

const count = (password: string) => [...password].length;

const TOO_LONG: PasswordViolation = {
  code: 'max_length',
  message: `must be at most ${MAX_PASSWORD_LENGTH} characters long`,
  refusal: { key: 'password.tooLong', values: { count: String(MAX_PASSWORD_LENGTH) } },
};

const overMaximum = (password: string): PasswordViolation | undefined => (count(password) <= MAX_PASSWORD_LENGTH ? undefined : TOO_LONG);

/** Before it is normalized, which may make it 18 times longer: an input no password could be is refused unread. */
const overInput = (typed: string): boolean => typed.length > MAX_PASSWORD_INPUT;

/** What no policy accepts, known before the pool's policy is read: checked before hashing. */
export const refusedWhateverThePolicy = (typed: string): PasswordViolation[] =>
  overInput(typed) ? [TOO_LONG] : [overMaximum(normalizePassword(typed))].filter((violation) => violation !== undefined);

/** In its hashed form (normalizePassword). Lengths count code points; letters and digits of any script count, a symbol is
 *  anything else (NIST SP 800-63B); control characters are refused. History is the caller's (passwordViolations). */
export function checkPassword(policy: PasswordPolicy, typed: string): PasswordViolation[] {
  if (overInput(typed)) return [TOO_LONG];
  const violations: PasswordViolation[] = [];
  const password = normalizePassword(typed);
  const length = count(password);
  if (length < policy.minLength) {
    const limit = { count: String(policy.minLength) };
    violations.push({ code: 'min_length', message: `must be at least ${policy.minLength} characters long`, refusal: { key: 'password.tooShort', values: limit } });
  }
  const tooLong = overMaximum(password);
  if (tooLong !== undefined) violations.push(tooLong);
  if (!isControlFree(password)) {
    violations.push({ code: 'control', message: 'must not contain control characters', refusal: { key: 'password.control' } });
  }
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) {
    violations.push({ code: 'uppercase', message: 'must contain an upper-case letter', refusal: { key: 'password.needsUpper' } });
  }
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) {
    violations.push({ code: 'lowercase', message: 'must contain a lower-case letter', refusal: { key: 'password.needsLower' } });
  }
  if (policy.requireDigit && !/\p{Nd}/u.test(password)) {
    violations.push({ code: 'digit', message: 'must contain a digit', refusal: { key: 'password.needsDigit' } });
  }
  if (policy.requireSymbol && !/[^\p{L}\p{N}]/u.test(password)) {
    violations.push({ code: 'symbol', message: 'must contain a symbol', refusal: { key: 'password.needsSymbol' } });
  }
  if (policy.disallowCommon && isBreachedPassword(password)) {
    const message = 'is among the passwords exposed in data breaches or too common to be safe: choose another';
    violations.push({ code: 'common', message, refusal: { key: 'password.common' } });
  }
  return violations;
}

/** What the hosted pages say of a password refused. */
export const passwordRefusals = (violations: readonly PasswordViolation[]): CopyText[] => violations.map((violation) => violation.refusal);
