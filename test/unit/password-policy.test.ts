import { describe, expect, it } from 'vitest';
import { parsePolicy, POLICY_DEFAULTS, storedPolicy, type PasswordPolicy } from '../../src/domain/policies/definitions.ts';
import { breachedPasswordCount } from '../../src/domain/policies/breached-passwords.ts';
import { checkPassword, MAX_PASSWORD_INPUT, MAX_PASSWORD_LENGTH, refusedWhateverThePolicy } from '../../src/domain/policies/password.ts';

const codes = (policy: PasswordPolicy, password: string) => checkPassword(policy, password).map((v) => v.code);

describe('checkPassword', () => {
  const defaults = POLICY_DEFAULTS.password;

  it('passes a password that meets the default policy: length alone, no composition rule (NIST SP 800-63B)', () => {
    expect(checkPassword(defaults, 'Correct7horse')).toEqual([]);
    expect(checkPassword(defaults, 'correct horse battery staple')).toEqual([]);
    expect(checkPassword(defaults, 'x'.repeat(64))).toEqual([]);
  });

  it('names every rule a password breaks', () => {
    const strict: PasswordPolicy = { ...defaults, requireUppercase: true, requireLowercase: true, requireDigit: true };
    expect(codes(strict, 'abc')).toEqual(['min_length', 'uppercase', 'digit']);
    expect(codes(strict, 'XKCDPLQZ1')).toEqual(['lowercase']);
    expect(codes({ ...strict, requireSymbol: true }, 'Xkcdplqz1')).toEqual(['symbol']);
    expect(codes({ ...strict, requireSymbol: true }, 'Xkcd plqz1')).toEqual([]);
    expect(codes(defaults, 'x'.repeat(MAX_PASSWORD_LENGTH + 1))).toContain('max_length');
    for (const violation of checkPassword(defaults, '')) expect(violation.message).toEqual(expect.any(String));
  });

  it('refuses input too long to be any password for its length alone, unread: NFKC would make a body of U+FDFA millions of characters', () => {
    const strict: PasswordPolicy = { ...defaults, requireUppercase: true, requireDigit: true };
    expect(codes(strict, '\ufdfa'.repeat(MAX_PASSWORD_INPUT + 1))).toEqual(['max_length']);
    expect(codes(strict, 'a\u0000'.repeat(MAX_PASSWORD_INPUT))).toEqual(['max_length']);
    expect(refusedWhateverThePolicy('\ufdfa'.repeat(MAX_PASSWORD_INPUT + 1)).map((violation) => violation.code)).toEqual(['max_length']);
    // Typed decomposed, the longest input still is a password: four code points compose into one.
    expect(codes(defaults, '\u1f87'.normalize('NFD').repeat(MAX_PASSWORD_LENGTH))).toEqual([]);
  });

  it('refuses the bundled breached and common passwords case-insensitively, unless the policy allows them', () => {
    expect(breachedPasswordCount()).toBeGreaterThanOrEqual(100_000);
    // From the breach corpora, not the few a short list would hold; `backupexec` is one of the list's lines that end
    // in a carriage return.
    for (const breached of ['Password1', 'PASSWORD123', 'iloveyou2', 'trustno1', 'qwertyuiop', 'michelle1', 'Sunshine!', 'football1', 'backupexec']) {
      expect(codes(defaults, breached), breached).toEqual(['common']);
    }
    expect(checkPassword(defaults, 'Password1')[0]?.message).toBe('is among the passwords exposed in data breaches or too common to be safe: choose another');
    // Spaces around one (typed, or pasted with it) do not make it another password.
    for (const padded of [' password1', 'Password1 ', '  trustno1  ', '\u00a0iloveyou2\u3000']) expect(codes(defaults, padded), padded).toEqual(['common']);
    expect(codes({ ...defaults, disallowCommon: false }, 'Password1')).toEqual([]);
    expect(codes(defaults, 'Correct-Horse-Battery-9')).toEqual([]);
  });

  it('counts code points and letters and digits of any script', () => {
    expect(codes({ ...defaults, minLength: 8 }, 'Ää😀😀😀😀1x')).toEqual([]);
    expect(codes({ ...defaults, minLength: 8 }, 'Ää😀1x')).toEqual(['min_length']);
    expect(codes(defaults, 'ÉCOLEété٣')).toEqual([]);
  });

  it('checks the password as it is hashed (NFKC), and refuses control characters', () => {
    // Five full-width letters and digits are five characters, as typed on any keyboard.
    expect(codes({ ...defaults, minLength: 8 }, '\uff38kcdplq\uff17')).toEqual([]);
    expect(codes(defaults, '\uff30assword1')).toEqual(['common']);
    expect(codes(defaults, 'Correct7\u0000horse')).toEqual(['control']);
    expect(codes(defaults, 'Correct7\thorse')).toEqual(['control']);
  });

  it('can require nothing but length', () => {
    const lax: PasswordPolicy = { ...defaults, disallowCommon: false };
    expect(checkPassword(lax, '        ')).toEqual([]);
  });
});

describe('parsePolicy', () => {
  it('fills left-out fields with the defaults and refuses fields of another kind', () => {
    expect(parsePolicy('password', { minLength: 12 })).toEqual({ ...POLICY_DEFAULTS.password, minLength: 12 });
    expect(() => parsePolicy('password', { maxAttempts: 3 })).toThrow(expect.objectContaining({ field: 'maxAttempts' }));
    expect(() => parsePolicy('lockout', { lockoutMinutes: 0 })).toThrow(expect.objectContaining({ field: 'lockoutMinutes' }));
    expect(parsePolicy('lockout', { lockoutMinutes: null }).lockoutMinutes).toBeNull();
  });

  it('reads stored values over the defaults, ignoring unknown keys, without sharing the defaults’ arrays', () => {
    const mfa = storedPolicy('mfa', { enforcement: 'off', retired: true });
    expect(mfa).toEqual({ ...POLICY_DEFAULTS.mfa, enforcement: 'off' });
    mfa.factors.push('webauthn');
    expect(POLICY_DEFAULTS.mfa.factors).toEqual(['totp', 'email_otp']);
  });
});
