import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * User passwords: Argon2id with the OWASP Password Storage Cheat Sheet's first configuration (19 MiB, 2
 * iterations, 1 lane). The PHC string carries its own parameters, so they can be raised later and old hashes
 * still verify. `Algorithm` is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
 */
const ARGON2ID = 2 as Algorithm;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** constant-time inside argon2: a wrong password must not reveal how close it was. */
export function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  return verify(storedHash, password);
}
