import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, PASSWORD_HASH_OPTIONS, verifyPassword } from '../../src/auth/password-hash.ts';

describe('password hashes', () => {
  const composed = 'Caf\u00e9 \uff17';

  it('hold the NFKC form: the same characters encoded otherwise verify, other characters do not', async () => {
    const stored = await hashPassword(composed);
    expect(await verifyPassword(stored, composed)).toBe(true);
    expect(await verifyPassword(stored, composed.normalize('NFD'))).toBe(true);
    expect(await verifyPassword(stored, 'Cafe\u0301 7')).toBe(true);
    expect(await verifyPassword(stored, 'Cafe 7')).toBe(false);
  });

  it('made before passwords were normalized still verify the password as it was typed', async () => {
    const decomposed = composed.normalize('NFD');
    const legacy = await hash(decomposed, PASSWORD_HASH_OPTIONS);
    expect(await verifyPassword(legacy, decomposed)).toBe(true);
    expect(await verifyPassword(legacy, 'Cafe 7')).toBe(false);
  });
});
