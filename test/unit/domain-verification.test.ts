import { describe, expect, it } from 'vitest';
import { hostname } from '../../src/domain/domains/hostname.ts';
import { checkVerificationRecord, newVerificationToken, type ResolveTxt } from '../../src/domain/domains/verification.ts';

const dnsError = (code: string) => Object.assign(new Error(code), { code });

describe('checkVerificationRecord', () => {
  const token = newVerificationToken();

  it('verifies when a TXT value at the challenge name is exactly the token, chunks joined', async () => {
    const asked: string[] = [];
    const resolveTxt: ResolveTxt = async (name) => {
      asked.push(name);
      return [['v=spf1 -all'], [token.slice(0, 10), token.slice(10)]];
    };
    expect(await checkVerificationRecord('login.example.com', token, resolveTxt)).toEqual({ verified: true, reason: null, answered: true });
    expect(asked).toEqual(['_gatehouse-challenge.login.example.com']);
  });

  it('explains a missing record, a wrong value and a failed lookup', async () => {
    const missing = await checkVerificationRecord('login.example.com', token, () => Promise.reject(dnsError('ENOTFOUND')));
    expect(missing).toEqual({ verified: false, reason: 'No TXT record found at _gatehouse-challenge.login.example.com', answered: true });
    const wrong = await checkVerificationRecord('login.example.com', token, async () => [[`${token}x`], ['other']]);
    expect(wrong).toMatchObject({ verified: false, answered: true });
    expect(wrong.reason).toContain('does not hold');
    // A lookup that failed is no answer: a re-check changes nothing on it (recheck.ts).
    const failed = await checkVerificationRecord('login.example.com', token, () => Promise.reject(dnsError('ETIMEOUT')));
    expect(failed).toMatchObject({ verified: false, answered: false, reason: expect.stringContaining('ETIMEOUT') });
  });

  it('makes distinct, unguessable tokens', () => {
    expect(newVerificationToken()).not.toBe(token);
    expect(token).toMatch(/^gatehouse-verification=[\w-]{32}$/);
  });
});

describe('hostname', () => {
  it('accepts fully qualified names, lower-casing them', () => {
    expect(hostname('hostname', 'Login.Example.COM')).toBe('login.example.com');
    expect(hostname('hostname', 'a.b.c.example.co.uk')).toBe('a.b.c.example.co.uk');
    expect(hostname('hostname', 'xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(hostname('hostname', 'auth-1.example.io')).toBe('auth-1.example.io');
  });

  it.each([
    'https://login.example.com',
    'login.example.com:8443',
    'login.example.com/path',
    'login.example.com.',
    'localhost',
    '192.168.0.1',
    '[::1]',
    '::1',
    '-login.example.com',
    'login-.example.com',
    'login..example.com',
    'login_example.com',
    'bücher.example',
    ' login.example.com',
    'user@login.example.com',
    'login.example.123',
    `${'a'.repeat(64)}.example.com`,
    `${'a.'.repeat(127)}com`,
  ])('refuses %s', (value) => {
    expect(() => hostname('hostname', value)).toThrow(expect.objectContaining({ code: 'validation_error', field: 'hostname' }));
  });
});
