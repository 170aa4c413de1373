import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { auditFilingOfRow } from '../users/users.ts';
import { removeCredential } from '../webauthn/credentials.ts';
import { forgetCodesIfLast, lockSecondSteps, type FactorKind } from './factors.ts';

/** The factor an `mfa_enrolled` mail announced (issueEnrolmentLink): its enroller knew the password, so it goes with the
 *  owner's new one, and so do the recovery codes issued since it was added (all of them if it was the last step). */
export interface AnnouncedFactor {
  readonly kind: FactorKind;
  /** A key's name; null for a code factor. */
  readonly name: string | null;
  readonly addedAt: Date;
  /** Whether unused recovery codes go with it. */
  readonly codesGo: boolean;
}

/** When the factor (a code factor's or a key's id) was added: a subquery binding user and id twice. */
const ADDED_AT = `(select created_at from mfa_factor where @owner and user_id = ? and id = ?
  union all select created_at from webauthn_credential where @owner and user_id = ? and id = ?)`;
const addedAtParams = (userId: string, factorId: string) => [userId, factorId, userId, factorId];

/** As the reset page tells it; null once the user no longer holds it (then the link removes nothing). */
export async function findAnnouncedFactor(runner: SqlRunner, applicationId: string, userId: string, factorId: string): Promise<AnnouncedFactor | null> {
  const [row] = await executeOwned<{ kind: FactorKind; name: string | null; created_at: Date; codes_go: boolean }[]>(
    runner,
    applicationId,
    `with factor as (
       select id, kind, null::text as name, created_at from mfa_factor where @owner and user_id = ? and id = ?
       union all select id, 'webauthn', name, created_at from webauthn_credential where @owner and user_id = ? and id = ?),
     others as (
       select id from mfa_factor where @owner and user_id = ? union all select id from webauthn_credential where @owner and user_id = ?)
     select f.kind, f.name, f.created_at,
            exists (select 1 from mfa_recovery_code as c where @owner(c) and c.user_id = ? and c.used_at is null
                       and (c.issued_at >= f.created_at or not exists (select 1 from others as o where o.id <> f.id))) as codes_go
       from factor as f`,
    [...addedAtParams(userId, factorId), userId, userId, userId],
  );
  return row === undefined ? null : { kind: row.kind, name: row.name, addedAt: new Date(row.created_at), codesGo: row.codes_go };
}

/**
 * In the transaction that sets the password through the link, as the account page removes a second step: the user's
 * row and second steps held first (lockSecondSteps), then the factor and the codes issued since it was added, then,
 * were it the last, every code and a pending e-mail code (forgetCodesIfLast). Audited as the account page's removal,
 * `after.reason` `enrolment_disowned`; nothing is done or recorded once the factor is gone (a removal, an mfa-reset).
 */
export async function removeAnnouncedFactor(em: EntityManager, actor: AuditActor, userId: string, factorId: string): Promise<void> {
  const { applicationId } = actor;
  const held = await lockSecondSteps(em, applicationId, userId);
  const step = held.find((candidate) => candidate.id === factorId);
  if (step === undefined) return;
  const issuedSince = await executeOwned<{ used_at: Date | null }[]>(
    em,
    applicationId,
    `delete from mfa_recovery_code where @owner and user_id = ? and issued_at >= ${ADDED_AT} returning used_at`,
    [userId, ...addedAtParams(userId, factorId)],
  );
  const removedKey = step.kind === 'webauthn' ? await removeCredential(em, applicationId, userId, step.id) : null;
  if (step.kind !== 'webauthn') await executeOwned(em, applicationId, `delete from mfa_factor where @owner and user_id = ? and id = ?`, [userId, step.id]);
  const codes = issuedSince.filter((code) => code.used_at === null).length + (await forgetCodesIfLast(em, applicationId, userId, held));
  const removed = { ...(removedKey === null ? { factor: step.kind } : { name: removedKey.name }), ...(codes > 0 ? { recoveryCodes: codes } : {}) };
  recordAudit(em, actor, {
    action: step.kind === 'webauthn' ? 'user.passkey.removed' : 'user.mfa.removed',
    targetType: 'user',
    targetId: userId,
    ...(await auditFilingOfRow(em, actor, userId)),
    before: removed,
    after: { reason: 'enrolment_disowned' },
  });
}
