import { Secret, TOTP } from 'otpauth';
import { newTotpSecret } from '../../src/domain/mfa/totp.ts';
import { newId } from '../../src/ids.ts';
import type { TestApp } from './app.ts';

/** The code an authenticator app shows for `secret` (base32) at `at`: SHA-1, 6 digits, 30-second steps. */
export const totpCodeAt = (secret: string, at = Date.now()): string =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });

const STEP_MS = 30_000;

/** Waits, if need be, for the next 30-second step: a code computed relative to now must be checked by the service in the
 *  step it was computed in, since a boundary in between moves the service's ±1 step window. */
export async function withTimeLeftInStep(ms = 2_000): Promise<void> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 10));
}

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
