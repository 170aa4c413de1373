import { Secret, TOTP } from 'otpauth';
import { newTotpSecret } from '../../src/domain/mfa/totp.ts';
import { newId } from '../../src/ids.ts';
import type { TestApp } from './app.ts';

/** The code an authenticator app shows for `secret` (base32) at `at`: SHA-1, 6 digits, 30-second steps. */
export const totpCodeAt = (secret: string, at = Date.now()): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

/** A TOTP factor given to the user directly (as an enrolment stores it), and its secret. */
export async function giveTotp(app: TestApp, applicationId: string, userId: string): Promise<string> {
  const secret = newTotpSecret();
  await app.gatehouse.services.orm.em
    .getConnection()
    .execute(`insert into mfa_factor (application_id, id, user_id, kind, secret_encrypted) values (?, ?, ?, 'totp', ?)`, [
      applicationId,
      newId(),
      userId,
      app.gatehouse.services.storedSecrets.encrypt(secret),
    ]);
  return secret;
}
