import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../../auth/client-secrets.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { newId } from '../../ids.ts';
import { recordAudit, type AuditEntry } from '../audit/audit.ts';
import { askedForLock, AskedForMail, emailOtpMail, mfaEnrolledMail } from '../email/flow-mail.ts';
import { linkUserOf, mailTenant } from '../sign-in/account-links.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import type { MailSender } from '../email/outbox.ts';
import type { SignInTarget } from '../sign-in/sign-in.ts';
import { holdActingUser, holdUserRow, issueEnrolmentLink } from '../users/link-tokens.ts';
import { passwordMark, type SignInUser } from '../users/sign-in-user.ts';
import { auditFilingOfRow } from '../users/users.ts';
import { insertCredential, type NewCredential } from '../webauthn/credentials.ts';
import { CODE_ATTEMPTS, EMAIL_CODE_MINUTES, emailCodeHash, newEmailCode, newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeHash } from './codes.ts';
import { totpStep } from './totp.ts';

/** At most one factor of each kind but `webauthn`. Raw SQL passes no tenancy filter: every statement names the
 *  application, which the caller's target or scope decides. */
export type FactorKind = 'totp' | 'email_otp' | 'webauthn';
export type SecondProof = FactorKind | 'recovery_code';
/** A WebAuthn answer is checked in src/domain/webauthn/factor.ts. */
export type CodeProof = Exclude<SecondProof, 'webauthn'>;

export interface HeldFactor {
  readonly id: string;
  readonly kind: FactorKind;
  /** A WebAuthn key of another relying party than the request's: the host it works on (browsers allow no other). */
  readonly otherHost: string | null;
}

/** A subquery, read with the user. Every factor counts, a key of any host included (whether a second step is asked must
 *  not depend on the host); `rpId` only marks the keys that cannot sign here. */
export const heldFactorsSql = (applicationId: string, userId: string, rpId: string): string =>
  `(select coalesce(json_agg(json_build_object('id', f.id, 'kind', f.kind, 'otherHost', f.other_host) order by f.kind, f.id), '[]'::json)
      from (select m.id, m.kind, null::text as other_host from mfa_factor as m where m.application_id = ${applicationId} and m.user_id = ${userId}
            union all select w.id, 'webauthn', nullif(w.rp_id, ${rpId}) from webauthn_credential as w
             where w.application_id = ${applicationId} and w.user_id = ${userId}) as f)`;

/** Every factor of the user; `rpId`: the request's relying party (see heldFactorsSql). */
export async function factorsOf(em: EntityManager, applicationId: string, userId: string, rpId: string): Promise<HeldFactor[]> {
  const [row] = await executeOwned<{ factors: HeldFactor[] }[]>(
    em.getConnection(),
    applicationId,
    `select ${heldFactorsSql('u.application_id', 'u.id', '?')} as factors from app_user as u where @owner(u) and u.id = ?`,
    [rpId, userId],
  );
  return row?.factors ?? [];
}

/** The user themselves, on the surface's tenant when they are its member (mailTenant). */
export const userSender = (target: SignInTarget, user: SignInUser): MailSender => ({
  applicationId: target.application.id,
  tenantId: mailTenant(target, user),
  requestId: target.scope.requestId,
  principal: { actor: { type: 'user', id: user.id } },
  services: target.scope.services,
});

export type NewFactor =
  | { readonly kind: 'totp'; readonly secret: string; readonly step: number }
  | { readonly kind: 'email_otp' }
  | { readonly kind: 'webauthn'; readonly credential: NewCredential };

/** The new factor's id; null when the user holds it already (or, for a credential, the relying party does). */
async function addFactor(em: EntityManager, box: SecretBox, applicationId: string, userId: string, factor: NewFactor): Promise<string | null> {
  if (factor.kind === 'webauthn') return insertCredential(em, applicationId, userId, factor.credential);
  const secret = factor.kind === 'totp' ? box.encrypt(factor.secret) : null;
  const step = factor.kind === 'totp' ? factor.step : null;
  const [added] = await em.execute<{ id: string }[]>(
    `insert into mfa_factor (application_id, id, user_id, kind, secret_encrypted, last_step) values (?, ?, ?, ?, ?, ?)
     on conflict (application_id, user_id, kind) do nothing returning id`,
    [applicationId, newId(), userId, factor.kind, secret, step],
  );
  return added?.id ?? null;
}

export type SecondStep = Pick<HeldFactor, 'id' | 'kind'>;

/** The user's row (holdUserRow), then their second steps, keys of every host included: changes of them take turns. */
export async function lockSecondSteps(tx: EntityManager, applicationId: string, userId: string): Promise<SecondStep[]> {
  await holdUserRow(tx, applicationId, userId);
  return heldSecondSteps(tx, applicationId, userId);
}

/** lockSecondSteps for the user's own change, judged on their held row: whoever typed a password replaced since changes nothing. */
export async function lockOwnSecondSteps(tx: EntityManager, target: SignInTarget, userId: string, password?: string): Promise<SecondStep[] | 'inactive' | 'password_replaced'> {
  const user = await holdActingUser(tx, target.application.id, userId, target.poolId);
  if (user === null) return 'inactive';
  if (password !== undefined && passwordMark(user) !== password) return 'password_replaced';
  return heldSecondSteps(tx, target.application.id, userId);
}

async function heldSecondSteps(tx: EntityManager, applicationId: string, userId: string): Promise<SecondStep[]> {
  const factors = await executeOwned<SecondStep[]>(tx, applicationId, `select id, kind from mfa_factor where @owner and user_id = ? for update`, [userId]);
  const keys = await executeOwned<SecondStep[]>(tx, applicationId, `select id, 'webauthn' as kind from webauthn_credential where @owner and user_id = ? for update`, [userId]);
  return [...factors, ...keys];
}

/** Once one of `held` (lockSecondSteps's, in the same transaction) is removed: the last one gone takes the recovery codes
 *  and a pending e-mail code, which then serve no step, so the next enrolment shows new codes. Answers how many of the
 *  codes removed were unused. */
export async function forgetCodesIfLast(tx: EntityManager, applicationId: string, userId: string, held: readonly SecondStep[]): Promise<number> {
  if (held.length !== 1) return 0;
  const codes = await executeOwned<{ used_at: Date | null }[]>(tx, applicationId, `delete from mfa_recovery_code where @owner and user_id = ? returning used_at`, [userId]);
  await executeOwned(tx, applicationId, `delete from mfa_email_code where @owner and user_id = ?`, [userId]);
  return codes.filter((code) => code.used_at === null).length;
}

/** `record`: the audit record instead of `user.mfa.enrolled`, filed as `filing` says; `codes: false`: no recovery codes (a key where the policy
 *  uses none as a second step); `asStep`: the factors the MFA step saw; `password`: the passwordMark that proved the user (lockOwnSecondSteps). */
export interface Enrolment {
  readonly record?: (em: EntityManager, filing: Pick<AuditEntry, 'tenantId' | 'memberTenantIds'>) => void;
  readonly codes?: boolean;
  readonly asStep?: readonly string[];
  readonly password?: string | undefined;
}

/** The recovery codes to show (none when the user had some left); otherwise why nothing was written. */
export type Enrolled = string[] | 'not_added' | 'inactive' | 'password_replaced';

/** In one transaction, with the `mfa_enrolled` mail (a reset link in case it was not them, which also removes the
 *  factor: issueEnrolmentLink); recovery codes when the user had none left. The user's standing is judged under their
 *  row's lock, so a suspension (a lock, a deletion, the organization's deactivation) committed before it leaves nothing
 *  added. */
export async function enrolFactor(target: SignInTarget, user: SignInUser, factor: NewFactor, enrolment: Enrolment = {}): Promise<Enrolled> {
  const { services } = target.scope;
  const applicationId = target.application.id;
  const sender = userSender(target, user);
  // Under the tenancy switches' lock, taken before the user's row: a split into pools copies the factor, a merge's
  // check of keys two pools hold sees it (isolation.ts).
  const codes = await underTenancyConfig(target.applicationScope, async ({ em }): Promise<Enrolled> => {
    const held = await lockOwnSecondSteps(em, target, user.id, enrolment.password);
    if (!Array.isArray(held)) return held;
    // A factor enrolled meanwhile (another tab, the owner) is to be proven, not passed by enrolling another beside it.
    if (enrolment.asStep !== undefined && held.some((step) => !enrolment.asStep!.includes(step.id))) return 'not_added';
    const factorId = await addFactor(em, services.storedSecrets, applicationId, user.id, factor);
    if (factorId === null) return 'not_added';
    const filing = await auditFilingOfRow(em, sender, user.id);
    if (enrolment.record === undefined) recordAudit(em, sender, { action: 'user.mfa.enrolled', targetType: 'user', targetId: user.id, ...filing, after: { factor: factor.kind } });
    else enrolment.record(em, filing);
    const at = { em, sender, tenantId: sender.tenantId };
    const reset = await issueEnrolmentLink(em, await linkUserOf(target, at, user), factorId, services.config.publicUrl);
    await mfaEnrolledMail(at, user, { link: reset.link, factor: factor.kind });
    return enrolment.codes === false ? [] : issueRecoveryCodesIfNone(em, applicationId, user.id);
  });
  if (Array.isArray(codes)) services.outbox.wake();
  return codes;
}

export async function recoveryCodesLeft(em: EntityManager, applicationId: string, userId: string): Promise<number> {
  const [left] = await executeOwned<{ n: number }[]>(
    em,
    applicationId,
    `select count(*)::int as n from mfa_recovery_code where @owner and user_id = ? and used_at is null`,
    [userId],
  );
  return left?.n ?? 0;
}

async function issueRecoveryCodesIfNone(em: EntityManager, applicationId: string, userId: string): Promise<string[]> {
  if ((await recoveryCodesLeft(em, applicationId, userId)) > 0) return [];
  return replaceRecoveryCodes(em, applicationId, userId);
}

/** The others stop working; returned to be shown once. */
export async function replaceRecoveryCodes(em: EntityManager, applicationId: string, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await executeOwned(em, applicationId, `delete from mfa_recovery_code where @owner and user_id = ?`, [userId]);
  await em.execute(
    `insert into mfa_recovery_code (application_id, user_id, code_hash)
     select ?, ?, h from jsonb_array_elements_text(?::jsonb) as h`,
    [applicationId, userId, JSON.stringify(codes.map(recoveryCodeHash))],
  );
  return codes;
}

/** For the audit record. */
export type CodeRefusal = 'wrong_code' | 'code_replayed' | 'unknown_credential' | 'invalid_passkey' | 'cloned_passkey';

/**
 * A TOTP code only for a step after the last accepted one. Each use is one conditional statement, so of two requests
 * racing with one code exactly one succeeds. A step or a recovery code is spent in every account holding a copy of its
 * secret (`secret_id`, `code_id`: the isolation switch's copies), else it would be good once more in the other tenant.
 */
export async function useSecondProof(
  em: EntityManager,
  box: SecretBox,
  user: { applicationId: string; id: string },
  proof: CodeProof,
  code: string,
): Promise<{ ok: true } | { ok: false; reason: CodeRefusal }> {
  const connection = em.getConnection();
  const wrong = { ok: false, reason: 'wrong_code' } as const;
  if (proof === 'recovery_code') {
    const used = await executeOwned<{ user_id: string }[]>(
      connection,
      user.applicationId,
      `update mfa_recovery_code set used_at = now()
        where @owner and used_at is null
          and code_id = (select code_id from mfa_recovery_code where @owner and user_id = ? and code_hash = ? and used_at is null)
        returning user_id`,
      [user.id, recoveryCodeHash(code)],
    );
    return used.some((row) => row.user_id === user.id) ? { ok: true } : wrong;
  }
  if (proof === 'email_otp') {
    // Counted on the code, whatever the lockout policy, and before the comparison: guesses sent at once take an attempt each.
    const [taken] = await executeOwned<{ code_hash: string }[]>(
      connection,
      user.applicationId,
      'update mfa_email_code set attempts = attempts + 1 where @owner and user_id = ? and expires_at > now() and attempts < ? returning code_hash',
      [user.id, CODE_ATTEMPTS],
    );
    const hash = emailCodeHash(user.id, code);
    if (taken === undefined || !timingSafeEqual(Buffer.from(hash), Buffer.from(taken.code_hash))) return wrong;
    // Of two right guesses at once (or one racing a new code), the one that deletes this code's row passes.
    const used = await executeOwned<unknown[]>(connection, user.applicationId, 'delete from mfa_email_code where @owner and user_id = ? and code_hash = ? returning 1', [
      user.id,
      hash,
    ]);
    return used.length > 0 ? { ok: true } : wrong;
  }
  const [factor] = await executeOwned<{ secret_encrypted: string }[]>(
    connection,
    user.applicationId,
    `select secret_encrypted from mfa_factor where @owner and user_id = ? and kind = 'totp'`,
    [user.id],
  );
  const step = factor === undefined ? null : totpStep(box.decrypt(factor.secret_encrypted), code);
  if (step === null) return wrong;
  const accepted = await executeOwned<{ user_id: string }[]>(
    connection,
    user.applicationId,
    `update mfa_factor set last_step = ?
      where @owner and (last_step is null or last_step < ?)
        and secret_id = (select secret_id from mfa_factor where @owner and user_id = ? and kind = 'totp')
      returning user_id`,
    [step, step, user.id],
  );
  return accepted.some((row) => row.user_id === user.id) ? { ok: true } : { ok: false, reason: 'code_replayed' };
}

/** Replacing any earlier one. `inactive`: the user, judged under their row as an enrolment is (holdActingUser), may no
 *  longer act: nothing is stored or mailed. `sent` also where the address's limit held the mail back (answered alike). */
export async function sendEmailCode(target: SignInTarget, user: SignInUser): Promise<'sent' | 'inactive'> {
  const code = newEmailCode();
  const sender = userSender(target, user);
  const sent = await target.applicationScope.transactional(async (em) => {
    if ((await holdActingUser(em, target.application.id, user.id, target.poolId)) === null) return 'inactive';
    const at = { em, sender, tenantId: sender.tenantId };
    const admitted = await AskedForMail.admit(at, user.email);
    if (admitted === null) return 'held';
    await em.execute(
      `insert into mfa_email_code (application_id, user_id, code_hash, expires_at) values (?, ?, ?, now() + make_interval(mins => ?::int))
       on conflict (application_id, user_id) do update set code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0`,
      [target.application.id, user.id, emailCodeHash(user.id, code), EMAIL_CODE_MINUTES],
    );
    await emailOtpMail(admitted, user, { code, expiresInMinutes: EMAIL_CODE_MINUTES });
    return 'sent';
  }, askedForLock(sender.applicationId, user.email));
  if (sent === 'sent') target.scope.services.outbox.wake();
  return sent === 'inactive' ? sent : 'sent';
}
