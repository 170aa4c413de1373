import { describe, expect, it } from 'vitest';
import { appleUserName, emailVerified } from '../../src/domain/sign-in/upstream/identity.ts';

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

describe('Apple’s name', () => {
  const answer = (user: unknown) => new URLSearchParams({ code: 'c', state: 's', ...(user === undefined ? {} : { user: typeof user === 'string' ? user : JSON.stringify(user) }) });

  it('is read from the `user` field of its first answer (its ID token states none), as the users’ rule for names takes it', () => {
    expect(appleUserName(answer({ name: { firstName: 'Ann', lastName: 'Lee' }, email: 'ann@privaterelay.appleid.com' }))).toBe('Ann Lee');
    expect(appleUserName(answer({ name: { firstName: '  Ann ' } }))).toBe('Ann');
    expect(appleUserName(answer({ name: { lastName: 'Lee' } }))).toBe('Lee');
  });

  it('is none without the field (every later answer), or with one that is no JSON, names nobody, or breaks the names’ rule', () => {
    expect(appleUserName(answer(undefined))).toBeNull();
    expect(appleUserName(answer('{not json'))).toBeNull();
    expect(appleUserName(answer({ email: 'x@example.com' }))).toBeNull();
    expect(appleUserName(answer({ name: { firstName: 42 } }))).toBeNull();
    expect(appleUserName(answer({ name: { firstName: 'Mallory\u202Egnp.exe' } }))).toBeNull();
    expect(appleUserName(answer({ name: { firstName: 'M'.repeat(300) } }))).toBeNull();
  });
});
