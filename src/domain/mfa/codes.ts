import { createHash, randomInt } from 'node:crypto';

/**
 * The one-time codes of MFA apart from TOTP: recovery codes (10, shown once, 49 random bits each) and e-mail codes
 * (6 digits, minutes long). Both are kept as SHA-256 only, an e-mail code salted with its user's id, so that equal
 * codes of two users differ at rest.
 */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits a reader does not confuse (no 0/o, 1/l/i): 31 of them, about 5 bits each. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** A code as typed: case, spaces and dashes do not matter. */
export const normalizeCode = (typed: unknown): string => (typeof typed === 'string' ? typed.toLowerCase().replace(/[\s-]/g, '') : '');

export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normalizeCode(code)).digest('base64url');

/** A new recovery code, shown as two groups of five (`abcde-fghjk`). */
export function newRecoveryCode(): string {
  const characters = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]!);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

export const EMAIL_CODE_MINUTES = 10;

export const newEmailCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const emailCodeHash = (userId: string, code: string): string => createHash('sha256').update(`${userId}:${normalizeCode(code)}`).digest('base64url');
