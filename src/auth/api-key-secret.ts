import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Only the SHA-256 is stored: a fast hash suits 256 bits of entropy (nothing to brute-force), and the lookup stays one probe. */
export const API_KEY_PREFIX = 'ghk_';

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKeySecret(secret: string): string {
  // One-shot: a third of createHash's cost, on every request.
  return hash('sha256', secret, 'hex');
}

/** Constant-time: must not leak how much of the hash matched. */
export function secretMatches(secret: string, storedHash: string): boolean {
  return hashMatches(hashApiKeySecret(secret), storedHash);
}

export function hashMatches(presentedHash: string, storedHash: string): boolean {
  const presented = Buffer.from(presentedHash, 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
