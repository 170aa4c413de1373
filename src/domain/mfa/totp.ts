import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect: SHA-1, 6 digits, 30 s steps, 160-bit secret (RFC 4226). One step either side of
 *  now (drift), and only later than the last accepted (the caller keeps it: a code works once). */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
const WINDOW = 1;

export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totp = (secret: string, issuer = '', label = '') =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS });

export const totpUri = (secret: string, issuer: string, label: string): string => totp(secret, issuer, label).toString();

/** Null when outside the window. Spaces do not matter: apps show `123 456`, and the form takes it so. */
export function totpStep(secret: string, typed: string, now = Date.now()): number | null {
  const code = typed.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
