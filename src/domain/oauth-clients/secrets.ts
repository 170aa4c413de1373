import { generateClientSecret, type SecretBox } from '../../auth/client-secrets.ts';
import type { OAuthClient } from '../../db/entities/index.ts';
import { invalid } from '../../errors.ts';
import { isoTimestampSql } from '../audit/audit.ts';
import { auditedFieldsOf } from '../audit/audited-fields.ts';

/** Rotation keeps the replaced secret valid for a grace period, so deployments switch without downtime. */
export const GRACE_PERIOD_DEFAULT_SECONDS = 24 * 60 * 60;
export const GRACE_PERIOD_MAX_SECONDS = 30 * 24 * 60 * 60;

export interface RotateSecretInput {
  gracePeriodSeconds?: number | null;
}

/** The bounds every rotation's grace period shares; the default is the rotation's own. */
export function gracePeriodSeconds(input: RotateSecretInput | null | undefined, defaultSeconds = GRACE_PERIOD_DEFAULT_SECONDS): number {
  const seconds = input?.gracePeriodSeconds ?? defaultSeconds;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > GRACE_PERIOD_MAX_SECONDS) {
    throw invalid('gracePeriodSeconds', `gracePeriodSeconds must be an integer from 0 to ${GRACE_PERIOD_MAX_SECONDS} (30 days)`);
  }
  return seconds;
}

export function setFirstSecret(box: SecretBox, client: OAuthClient): string {
  const secret = generateClientSecret();
  client.secretEncrypted = box.encrypt(secret);
  client.previousSecretEncrypted = null;
  client.previousSecretExpiresAt = null;
  return secret;
}

/** `graceSeconds` 0: it stops with the commit. A second rotation within a grace period ends the first one's grace. */
export function rotateSecret(box: SecretBox, client: OAuthClient, graceSeconds: number, now: Date): string {
  const secret = generateClientSecret();
  const replaced = client.secretEncrypted ?? null;
  client.secretEncrypted = box.encrypt(secret);
  if (graceSeconds > 0 && replaced !== null) {
    client.previousSecretEncrypted = replaced;
    client.previousSecretExpiresAt = new Date(now.getTime() + graceSeconds * 1000);
  } else {
    client.previousSecretEncrypted = null;
    client.previousSecretExpiresAt = null;
  }
  return secret;
}

/** A revoked M2M credential: nothing is left to authenticate with. */
export function clearSecrets(client: OAuthClient): void {
  client.secretEncrypted = null;
  client.previousSecretEncrypted = null;
  client.previousSecretExpiresAt = null;
}

export function previousSecretValidUntil(client: OAuthClient, now: Date): Date | null {
  const until = client.previousSecretExpiresAt ?? null;
  return client.previousSecretEncrypted != null && until !== null && until > now ? until : null;
}

const field = auditedFieldsOf<OAuthClient>();
/** Whether they exist, never their values. */
export const SECRET_STATE_FIELDS = [
  field.derived('hasSecret', (client) => client.secretEncrypted != null, (sqlOf) => `${sqlOf('secret_encrypted')} is not null`),
  field.derived(
    'previousSecretExpiresAt',
    (client, now) => previousSecretValidUntil(client, now)?.toISOString() ?? null,
    (sqlOf) =>
      `case when ${sqlOf('previous_secret_encrypted')} is not null and ${sqlOf('previous_secret_expires_at')} > now()
         then ${isoTimestampSql(sqlOf('previous_secret_expires_at'))} end`,
  ),
];
