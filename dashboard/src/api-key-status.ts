import type { ApiKey } from './operations-api-keys.ts';

export type ApiKeyStatus = 'Active' | 'Revoked' | 'Expired';

/** Derived as the server derives whether a key authenticates: revoked first, then past its expiry. */
export function apiKeyStatus(key: ApiKey, now: Date = new Date()): ApiKeyStatus {
  if (key.revokedAt !== null) return 'Revoked';
  if (key.expiresAt !== null && new Date(key.expiresAt) <= now) return 'Expired';
  return 'Active';
}
