import { describe, expect, it } from 'vitest';
import { emailVerified } from '../../src/domain/sign-in/upstream/identity.ts';

describe('an upstream’s e-mail verification', () => {
  it('is email_verified (Apple’s string too); an explicit false or anything else is not', () => {
    for (const preset of ['generic', 'google', 'apple', 'microsoft'] as const) {
      expect(emailVerified(preset, { email_verified: true })).toBe(true);
      expect(emailVerified(preset, { email_verified: 'true' })).toBe(true);
      expect(emailVerified(preset, { email_verified: false, xms_edov: true })).toBe(false);
      expect(emailVerified(preset, { email_verified: 'false' })).toBe(false);
      expect(emailVerified(preset, { email_verified: 1 })).toBe(false);
      expect(emailVerified(preset, {})).toBe(false);
    }
  });

  it('takes Entra ID’s xms_edov, without email_verified, from the Microsoft preset only', () => {
    expect(emailVerified('microsoft', { xms_edov: true })).toBe(true);
    expect(emailVerified('microsoft', { xms_edov: '1' })).toBe(true);
    expect(emailVerified('microsoft', { xms_edov: false })).toBe(false);
    for (const preset of ['generic', 'google', 'apple', 'github'] as const) {
      expect(emailVerified(preset, { xms_edov: true })).toBe(false);
      expect(emailVerified(preset, { xms_edov: '1' })).toBe(false);
    }
  });
});
