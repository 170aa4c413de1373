import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, a 160-bit secret (RFC 4226's
 * recommendation). A code is accepted one step either side of now (clock drift), and only for a step later than the
 * last one accepted (the caller keeps that: a code works once).
 */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const WINDOW = 1;

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totp = (secret: string, issuer = '', label = '') =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });

/** The `otpauth://totp/…` URI an app scans, naming the service (`issuer`) and the account (`label`). */
export const totpUri = (secret: string, issuer: string, label: string): string => totp(secret, issuer, label).toString();

/** The time step `code` is valid for now (within the window), or null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
