import { describe, expect, it } from 'vitest';
import { normalizeEmail } from '../../src/domain/users/email-key.ts';

describe('the key of an e-mail address', () => {
  it('is trimmed and lower-cased', () => {
    expect(normalizeEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
  });

  it('is one for an accented letter typed precomposed or with a combining accent (Unicode NFC)', () => {
    expect(normalizeEmail('jose\u0301@example.com')).toBe(normalizeEmail('jos\u00e9@example.com'));
    expect(normalizeEmail('JOSE\u0301@example.com')).toBe('jos\u00e9@example.com');
  });

  it('writes an internationalized domain in its ASCII form, as its xn-- spelling is', () => {
    expect(normalizeEmail('a@Bücher.example')).toBe('a@xn--bcher-kva.example');
    expect(normalizeEmail('a@xn--bcher-kva.example')).toBe('a@xn--bcher-kva.example');
  });

  it('keeps a domain that has no ASCII form, and an input without @, as typed (normalized)', () => {
    expect(normalizeEmail('a@exa mple.com')).toBe('a@exa mple.com');
    expect(normalizeEmail('no-at-sign')).toBe('no-at-sign');
  });
});
