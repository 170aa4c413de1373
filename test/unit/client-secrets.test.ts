import { describe, expect, it } from 'vitest';
import { SecretBox, generateClientSecret } from '../../src/auth/client-secrets.ts';

describe('SecretBox', () => {
  it('round-trips a secret and never stores it in clear', () => {
    const box = new SecretBox('service secret', 'client secrets');
    const secret = generateClientSecret();
    const sealed = box.encrypt(secret);
    expect(sealed).not.toContain(secret.slice(4));
    expect(box.decrypt(sealed)).toBe(secret);
    expect(box.encrypt(secret)).not.toBe(sealed);
  });

  it('refuses a secret sealed under another key or altered', () => {
    const sealed = new SecretBox('one', 'client secrets').encrypt('ghs_x');
    expect(() => new SecretBox('two', 'client secrets').decrypt(sealed)).toThrow();
    const [iv, tag, body] = sealed.split('.') as [string, string, string];
    const altered = `${iv}.${tag}.${Buffer.from('other').toString('base64url')}${body.slice(7)}`;
    expect(() => new SecretBox('one', 'client secrets').decrypt(altered)).toThrow();
  });
});
