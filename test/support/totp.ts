import { Secret, TOTP } from 'otpauth';

/** The code an authenticator app shows for `secret` (base32) at `at`: SHA-1, 6 digits, 30-second steps. */
export const totpCodeAt = (secret: string, at = Date.now()): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
