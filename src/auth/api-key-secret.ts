import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API key secrets: 32 random bytes, shown once; only their SHA-256 is stored. A fast hash is right here: the
 * secret has 256 bits of entropy, so there is nothing to brute-force, and the lookup stays one index probe.
 */
export const API_KEY_PREFIX = 'ghk_';

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKeySecret(secret: string): string {
  // One-shot: a third of createHash's cost, on every request.
  return hash('sha256', secret, 'hex');
}

/** constant-time: the comparison of a presented secret's hash must not leak how much of it matched. */
export function secretMatches(secret: string, storedHash: string): boolean {
  return hashMatches(hashApiKeySecret(secret), storedHash);
}

/** secretMatches for a hash already computed (authentication's, on every request). */
export function hashMatches(presentedHash: string, storedHash: string): boolean {
  const presented = Buffer.from(presentedHash, 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
