import { describe, expect, it } from 'vitest';
import { parsePolicy, POLICY_DEFAULTS, storedPolicy, type PasswordPolicy } from '../../src/domain/policies/definitions.ts';
import { checkPassword, MAX_PASSWORD_LENGTH } from '../../src/domain/policies/password.ts';

const codes = (policy: PasswordPolicy, password: string) => checkPassword(policy, password).map((v) => v.code);

describe('checkPassword', () => {
  const defaults = POLICY_DEFAULTS.password;

  it('passes a password that meets the default policy', () => {
    expect(checkPassword(defaults, 'Correct7horse')).toEqual([]);
  });

  it('names every rule a password breaks', () => {
    expect(codes(defaults, 'abc')).toEqual(['min_length', 'uppercase', 'digit']);
    expect(codes(defaults, 'ABCDEFGH1')).toEqual(['lowercase']);
    expect(codes({ ...defaults, requireSymbol: true }, 'Abcdefg1')).toEqual(['symbol']);
    expect(codes({ ...defaults, requireSymbol: true }, 'Abc defg1')).toEqual([]);
    expect(codes(defaults, 'x'.repeat(MAX_PASSWORD_LENGTH + 1))).toContain('max_length');
    for (const violation of checkPassword(defaults, '')) expect(violation.message).toEqual(expect.any(String));
  });

  it('refuses common passwords case-insensitively, unless the policy allows them', () => {
    expect(codes(defaults, 'Password1')).toEqual(['common']);
    expect(codes(defaults, 'PASSWORD123')).toEqual(['lowercase', 'common']);
    expect(codes({ ...defaults, disallowCommon: false }, 'Password1')).toEqual([]);
  });

  it('counts code points and letters and digits of any script', () => {
    expect(codes({ ...defaults, minLength: 8 }, 'Ää😀😀😀😀1x')).toEqual([]);
    expect(codes({ ...defaults, minLength: 8 }, 'Ää😀1x')).toEqual(['min_length']);
    expect(codes(defaults, 'ÉCOLEété٣')).toEqual([]);
  });

  it('checks the password as it is hashed (NFKC), and refuses control characters', () => {
    // Five full-width letters and digits are five characters, as typed on any keyboard.
    expect(codes({ ...defaults, minLength: 8 }, '\uff21bcdefg\uff11')).toEqual([]);
    expect(codes(defaults, '\uff30assword1')).toEqual(['common']);
    expect(codes(defaults, 'Correct7\u0000horse')).toEqual(['control']);
    expect(codes(defaults, 'Correct7\thorse')).toEqual(['control']);
  });

  it('can require nothing but length', () => {
    const lax: PasswordPolicy = { ...defaults, requireUppercase: false, requireLowercase: false, requireDigit: false, disallowCommon: false };
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
    mfa.factors.push('email_otp');
    expect(POLICY_DEFAULTS.mfa.factors).toEqual(['totp', 'webauthn']);
  });
});
