import { createHash, randomInt } from 'node:crypto';

/** Recovery codes (49 random bits) and e-mail codes are kept as SHA-256 only, an e-mail code salted with its user's id. */
export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: 31 letters and digits, about 5 bits each. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** Case, spaces and dashes do not matter. */
export const normalizeCode = (typed: unknown): string => (typeof typed === 'string' ? typed.toLowerCase().replace(/[\s-]/g, '') : '');

export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normalizeCode(code)).digest('base64url');

export function newRecoveryCode(): string {
  const characters = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]!);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

export const EMAIL_CODE_MINUTES = 10;

/** Wrong guesses a mailed code takes (the sign-in's and the MFA step's alike); then a fresh mail is the way on. */
export const CODE_ATTEMPTS = 5;

export const newEmailCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const emailCodeHash = (userId: string, code: string): string => createHash('sha256').update(`${userId}:${normalizeCode(code)}`).digest('base64url');
