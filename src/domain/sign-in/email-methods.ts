import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../../db/entities/index.ts';
import { executeOwned, ownedSql, type SqlRunner } from '../../db/owned-sql.ts';
import { GatehouseError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { recordSignIn, type SignInFailureReason } from '../audit/auth-events.ts';
import { askedForLock, AskedForMail, emailOtpMail, magicLinkMail, type MailContext, type Recipient } from '../email/flow-mail.ts';
import { underTenancyConfig } from '../tenancy/config-lock.ts';
import { CODE_ATTEMPTS } from '../mfa/codes.ts';
import { normalizeEmail } from '../users/email-key.ts';
import { holdUnsuspendedUser, linkSecretHash, parseLinkToken } from '../users/link-tokens.ts';
import { readSignInUser, type SignInUser } from '../users/sign-in-user.ts';
import { email as emailAddress } from '../validate.ts';
import { mailAt, userByEmail } from './account-links.ts';
import { recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted, standingRefusal } from './lockout.ts';
import { createSignedUpUser } from './new-account.ts';
import { takeOverByMailbox, unprovenPassword } from './mailbox-proof.ts';
import { RefusalTiming } from './refusal-timing.ts';
import { attemptTenant, recordAttempt, type CredentialCheck, type PageTarget, type Proof, type SignInTarget } from './sign-in.ts';

/** Sign-in by e-mail (`magic_link` provider): a single-use link or a one-time code bound to the asking interaction; a wrong
 *  code counts under the lockout policy, and asking answers alike for any address, after as long as a mail takes. A link
 *  opened elsewhere names the asking device, then shows a code for it (revealLinkCode) or ends it (refuseEmailLink). */
export type EmailMethod = 'magic_link' | 'email_code';

/** RFC 8176's single-use secret sent out of band, link and code alike; the `magic_link` provider offers both. */
export const EMAIL_PROOF: Proof = { amr: ['otp'], methods: ['magic_link'] };

const askTiming = new RefusalTiming();

const sha256 = (value: string) => createHash('sha256').update(value).digest();
/** Salted with its row: the same code of two rows hashes apart. */
export const codeHash = (rowId: string, code: string) => sha256(`${rowId}:${code}`).toString('base64url');
export const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

function validAddress(email: unknown): string | undefined {
  try {
    return typeof email === 'string' ? emailAddress('email', email) : undefined;
  } catch (error) {
    if (error instanceof GatehouseError) return undefined;
    throw error;
  }
}

/** Also a passkey sign-up's row (webauthn/sign-up.ts) and an invitation page's code (invitations/proof.ts), which only
 *  their own pages read. */
export type EmailSignInMethod = EmailMethod | 'passkey_signup' | 'invitation_code';

export interface NewEmailSignIn {
  readonly id: string;
  readonly interactionId: string;
  readonly userId: string | null;
  readonly email: string;
  readonly method: EmailSignInMethod;
  readonly tokenHash: string | null;
  readonly codeHash: string | null;
  readonly minutes: number;
  /** The asking browser's User-Agent (request-origin.ts cuts it), for a link opened elsewhere to name. */
  readonly askedUserAgent?: string | null;
}

/** Only the latest mail of an interaction works: its earlier rows end. */
export async function endEmailSignIns(em: EntityManager, target: PageTarget, interactionId: string): Promise<void> {
  await executeOwned(em, target.application.id, `update email_sign_in set used_at = now() where @owner and interaction_id = ? and used_at is null`, [interactionId]);
}

export async function insertEmailSignIn(em: EntityManager, target: PageTarget, row: NewEmailSignIn): Promise<void> {
  await endEmailSignIns(em, target, row.interactionId);
  await em.execute(
    `insert into email_sign_in (application_id, id, interaction_id, client_id, invitation_id, tenant_id, pool_id, user_id, email, method, token_hash, code_hash, asked_user_agent, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?::int))`,
    [
      target.application.id,
      row.id,
      row.interactionId,
      target.opener.type === 'oauth_client' ? target.opener.id : null,
      target.opener.type === 'invitation' ? target.opener.id : null,
      target.tenant?.id ?? null,
      target.poolId,
      row.userId,
      row.email,
      row.method,
      row.tokenHash,
      row.codeHash,
      row.askedUserAgent ?? null,
      row.minutes,
    ],
  );
}

/** A row of a code to type, mailed (`email_otp`) in `em`'s transaction; the interaction's earlier rows end. */
export async function mailCode(
  em: EntityManager,
  target: PageTarget,
  at: MailContext,
  row: Omit<NewEmailSignIn, 'id' | 'tokenHash' | 'codeHash'>,
  to: Recipient,
  addsPasskey = false,
): Promise<void> {
  const admitted = await AskedForMail.admit(at, to.email);
  if (admitted === null) return;
  const id = newId();
  const code = newCode();
  await insertEmailSignIn(em, target, { ...row, id, tokenHash: null, codeHash: codeHash(id, code) });
  await emailOtpMail(admitted, to, { code, expiresInMinutes: row.minutes, addsPasskey });
}

export interface CodeRow {
  readonly id: string;
  readonly pool_id: string;
  readonly user_id: string | null;
  readonly email: string;
  readonly method: EmailSignInMethod;
  readonly code_hash: string;
}

/** The interaction's latest live code among `methods`: only the latest mail of an interaction works. */
export async function liveCodeRow<M extends EmailSignInMethod>(
  em: EntityManager,
  applicationId: string,
  interactionId: string,
  methods: readonly M[],
): Promise<(CodeRow & { readonly method: M }) | undefined> {
  const [row] = await executeOwned<(CodeRow & { readonly method: M })[]>(
    em.getConnection(),
    applicationId,
    `select id, pool_id, user_id, email, method, code_hash from email_sign_in
      where @owner and interaction_id = ? and method in (${methods.map(() => '?').join(', ')}) and used_at is null and expires_at > now() and code_hash is not null
      order by created_at desc limit 1`,
    [interactionId, ...methods],
  );
  return row;
}

/** `spent`: no attempt was left on the row (used, void or expired meanwhile), so nothing was compared. */
export type CodeGuess = 'right' | 'wrong' | 'spent';

/** Each guess takes one of the row's attempts before it is compared, so guesses sent at once get no more than in turn. */
export async function rowCodeMatches(em: EntityManager, applicationId: string, row: { id: string; code_hash: string }, code: unknown): Promise<CodeGuess> {
  const connection = em.getConnection();
  const [taken] = await executeOwned<{ attempts: number }[]>(
    connection,
    applicationId,
    `update email_sign_in set attempts = attempts + 1 where @owner and id = ? and used_at is null and expires_at > now() and attempts < ? returning attempts`,
    [row.id, CODE_ATTEMPTS],
  );
  if (taken === undefined) return 'spent';
  const typed = typeof code === 'string' ? code.replaceAll(/\s/g, '') : '';
  if (/^\d{6}$/.test(typed) && timingSafeEqual(Buffer.from(codeHash(row.id, typed)), Buffer.from(row.code_hash))) return 'right';
  if (taken.attempts >= CODE_ATTEMPTS) {
    await executeOwned(connection, applicationId, `update email_sign_in set used_at = now() where @owner and id = ? and used_at is null`, [row.id]);
  }
  return 'wrong';
}

/** The asking request: its interaction, the origin its pages are on (where the link leads) and its User-Agent. */
export interface EmailSignInAsker {
  readonly interactionId: string;
  readonly pagesBase: string;
  readonly userAgent: string | null;
}

export async function askEmailSignIn(target: SignInTarget, method: EmailMethod, email: unknown, asker: EmailSignInAsker): Promise<void> {
  const { interactionId, pagesBase } = asker;
  const user = await userByEmail(target, email);
  const address = user === null && target.email.signUp ? validAddress(email) : undefined;
  if (user === null ? address === undefined : user.status === 'suspended') return askTiming.pad();
  // An address without an account has no language of its own: mailAt's page language stands in.
  const to = user ?? { id: null, email: address!, name: null, tenantIds: null };
  const minutes = target.email.minutes;
  await askTiming.measure(() =>
    target.applicationScope.transactional(async (em) => {
      // Read before its turn at the address: a suspension since is seen here, or waits for this transaction (holdUnsuspendedUser).
      if (user !== null && !(await holdUnsuspendedUser(em, target.application.id, user.id))) return;
      const row = { interactionId, userId: user?.id ?? null, email: to.email, method, minutes, askedUserAgent: asker.userAgent };
      const at = mailAt(target, em, user);
      if (method === 'email_code') return mailCode(em, target, at, row, to);
      const admitted = await AskedForMail.admit(at, to.email);
      if (admitted === null) return;
      const secret = randomBytes(32).toString('base64url');
      await insertEmailSignIn(em, target, { ...row, id: newId(), tokenHash: linkSecretHash(secret), codeHash: null });
      const link = new URL(`${pagesBase}/interaction/${encodeURIComponent(interactionId)}/email-link`);
      link.searchParams.set('token', `${target.application.id}.${secret}`);
      await magicLinkMail(admitted, to, { link: link.href, expiresInMinutes: minutes });
    }, askedForLock(target.application.id, to.email)),
  );
  target.scope.services.outbox.wake();
}

/** A live link seen from a browser that is not the asking one, with what its reader needs to tell whether they asked. */
export interface OpenedEmailLink {
  readonly applicationId: string;
  /** The name of the client it was asked from; null: the client is gone. */
  readonly clientName: string | null;
  readonly tenantId: string | null;
  readonly interactionId: string;
  readonly askedAt: Date;
  readonly askedUserAgent: string | null;
}

interface OpenedRow {
  client_name: string | null;
  tenant_id: string | null;
  interaction_id: string;
  created_at: Date | string;
  asked_user_agent: string | null;
}

/** Without using it. */
export async function peekEmailLink(em: EntityManager, token: unknown): Promise<OpenedEmailLink | undefined> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return undefined;
  const [row] = await executeOwned<OpenedRow[]>(
    em.getConnection(),
    parsed.applicationId,
    `select c.name as client_name, s.tenant_id, s.interaction_id, s.created_at, s.asked_user_agent
       from email_sign_in s left join oauth_client c on c.application_id = s.application_id and c.id = s.client_id
      where @owner(s) and s.token_hash = ? and s.used_at is null and s.expires_at > now()`,
    [parsed.hash],
  );
  if (row === undefined) return undefined;
  return {
    applicationId: parsed.applicationId,
    clientName: row.client_name,
    tenantId: row.tenant_id,
    interactionId: row.interaction_id,
    askedAt: new Date(row.created_at),
    askedUserAgent: row.asked_user_agent,
  };
}

/** "It was not me": the link is spent and the asking interaction's e-mail sign-ins end, so no code of theirs works; the
 *  attempt is recorded as declined. False when the link was not live (used, confirmed, expired). */
export async function refuseEmailLink(services: Parameters<typeof recordSignIn>[0], requestId: string, token: unknown): Promise<boolean> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return false;
  const [asked] = await executeOwned<DeclinedRow[]>(
    services.orm.em.fork().getConnection(),
    parsed.applicationId,
    `with asked as (
       select interaction_id, user_id, email, method, client_id, tenant_id from email_sign_in
        where @owner and token_hash = ? and used_at is null and expires_at > now()),
     ended as (
       update email_sign_in set used_at = now(), token_hash = null
        where @owner and used_at is null and interaction_id = (select interaction_id from asked) returning 1)
     select a.user_id, a.email, a.method, a.client_id, a.tenant_id, u.tenant_ids
       from asked a left join app_user u on @owner(u) and u.id = a.user_id
      where exists (select 1 from ended)`,
    [parsed.hash],
  );
  if (asked === undefined) return false;
  const user = asked.user_id === null || asked.tenant_ids === null ? null : { id: asked.user_id, email: asked.email, tenantIds: asked.tenant_ids };
  await recordSignIn(services, {
    applicationId: parsed.applicationId,
    tenantId: attemptTenant(asked.tenant_id, user),
    clientId: asked.client_id,
    requestId,
    method: asked.method,
    outcome: { ok: false, reason: 'declined_by_user', user, email: asked.email },
  });
  return true;
}

interface DeclinedRow {
  user_id: string | null;
  email: string;
  method: string;
  /** Null for a row asked from an invitation's page (its `invitation_id`), which mails no link: never one refused here. */
  client_id: string | null;
  tenant_id: string | null;
  tenant_ids: string[] | null;
}

/** The link is spent and its row takes a fresh code (attempts from zero, expiry unchanged) for the asking browser; of two
 *  confirmations racing, one gets the code. */
export async function revealLinkCode(em: EntityManager, token: unknown): Promise<string | undefined> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return undefined;
  const [row] = await executeOwned<{ id: string }[]>(
    em.getConnection(),
    parsed.applicationId,
    `select id from email_sign_in where @owner and token_hash = ? and used_at is null and expires_at > now()`,
    [parsed.hash],
  );
  if (row === undefined) return undefined;
  const code = newCode();
  const renew = ownedSql(
    parsed.applicationId,
    `update email_sign_in set token_hash = null, code_hash = ?, attempts = 0
      where @owner and id = ? and token_hash = ? and used_at is null and expires_at > now()`,
    [codeHash(row.id, code), row.id, parsed.hash],
  );
  const updated = await em.getConnection().execute(renew.sql, renew.params, 'run');
  return (updated as { affectedRows?: number }).affectedRows === 1 ? code : undefined;
}

type SignInRow = Omit<CodeRow, 'code_hash' | 'method'> & { readonly method: EmailMethod };

async function answered(target: SignInTarget, method: EmailMethod, check: Checked, email: string | null): Promise<CredentialCheck> {
  if (check.ok) return { ...check, record: { method } };
  await recordAttempt(target, { method, outcome: { ok: false, reason: check.reason, user: check.user, email } });
  return check.reason === 'email_unverified' ? { ok: false, unverified: true } : { ok: false };
}

type Checked = Omit<Extract<CredentialCheck, { ok: true }>, 'record'> | { ok: false; reason: SignInFailureReason; user: SignInUser | null };

/** A wrong code counts on the row (void at CODE_ATTEMPTS) and, for an account, under the lockout policy; no live code is
 *  refused alike, as long as counting takes. */
export async function verifyEmailCode(target: SignInTarget, interactionId: string, code: unknown, address: string): Promise<CredentialCheck> {
  const em = target.applicationScope.em;
  const row = await liveCodeRow(em, target.application.id, interactionId, ['magic_link', 'email_code']);
  const noLiveCode = () => answered(target, 'email_code', { ok: false, reason: 'wrong_code', user: null }, null);
  if (row === undefined) {
    await refuseUncounted(target);
    return noLiveCode();
  }
  const { user, refused } = await rowUser(target, row, address);
  if (refused !== undefined) return answered(target, row.method, refused, row.email);
  const guess = await codeMatchesCounted(target, row, user, code, address);
  if (guess === 'spent') return noLiveCode();
  if (guess === 'wrong') return answered(target, row.method, { ok: false, reason: 'wrong_code', user }, row.email);
  if (!(await useRow(em, target.application.id, `id = ?`, [row.id]))) return answered(target, row.method, { ok: false, reason: 'wrong_code', user }, row.email);
  return answered(target, row.method, await proven(target, row, user, address), row.email);
}

/** Whether the code is the row's; a wrong one counts on the row and, for an account, under the lockout policy; a spent row
 *  is refused uncounted, as no live code is. */
export async function codeMatchesCounted(target: PageTarget, row: CodeRow, user: SignInUser | null, code: unknown, address: string): Promise<CodeGuess> {
  const guess = await rowCodeMatches(target.applicationScope.em, target.application.id, row, code);
  if (guess === 'spent') await refuseUncounted(target);
  if (guess === 'wrong' && user !== null) await recordFailedSignIn(target, user, target.lockout, address);
  return guess;
}

/** A link of another interaction, unknown, used or expired is refused and uses nothing. */
export async function useEmailLink(target: SignInTarget, interactionId: string, token: unknown, address: string): Promise<CredentialCheck> {
  const parsed = parseLinkToken(token);
  const em = target.applicationScope.em;
  const [row] =
    parsed === undefined || parsed.applicationId !== target.application.id
      ? []
      : await executeOwned<SignInRow[]>(
          em.getConnection(),
          target.application.id,
          `select id, pool_id, user_id, email, method from email_sign_in
            where @owner and token_hash = ? and interaction_id = ? and used_at is null and expires_at > now()`,
          [parsed.hash, interactionId],
        );
  if (row === undefined) {
    await refuseUncounted(target);
    return answered(target, 'magic_link', { ok: false, reason: 'invalid_link', user: null }, null);
  }
  const { user, refused } = await rowUser(target, row, address);
  if (refused !== undefined) return answered(target, 'magic_link', refused, row.email);
  if (!(await useRow(em, target.application.id, `id = ? and token_hash is not null`, [row.id]))) {
    return answered(target, 'magic_link', { ok: false, reason: 'invalid_link', user }, row.email);
  }
  return answered(target, 'magic_link', await proven(target, row, user, address), row.email);
}

/** The row's account (null: a sign-up's row), and the refusal when it may not sign in now: a row of another pool
 *  (authIsolation switched since), a user gone, locked or suspended. */
async function rowUser(target: SignInTarget, row: SignInRow, address: string): Promise<{ user: SignInUser | null; refused?: Checked }> {
  if (row.pool_id !== target.poolId) return { user: null, refused: (await refuseUncounted(target), { ok: false, reason: 'user_inactive', user: null }) };
  if (row.user_id === null) return { user: null };
  const user = await readSignInUser(target.applicationScope.em, target.application.id, { id: row.user_id, poolId: target.poolId });
  if (user === null) return { user: null, refused: (await refuseUncounted(target), { ok: false, reason: 'unknown_user', user: null }) };
  const refused = await standingRefusal(target, user, address);
  return refused === undefined ? { user } : { user, refused };
}

/** Of two requests racing, one uses the row; in `runner`'s transaction when it is a transaction's EntityManager. */
export async function useRow(runner: SqlRunner, applicationId: string, where: string, params: readonly unknown[]): Promise<boolean> {
  const used = await executeOwned<unknown[]>(runner, applicationId, `update email_sign_in set used_at = now() where @owner and ${where} and used_at is null and expires_at > now() returning 1`, params);
  return used.length > 0;
}

async function proven(target: SignInTarget, row: SignInRow, asked: SignInUser | null, address: string): Promise<Checked> {
  let user = asked;
  if (user === null) {
    const signedUp = await signUpByEmail(target, row.email);
    if (signedUp === undefined) return { ok: false, reason: 'signup_unavailable', user: null };
    if (signedUp === null) return { ok: false, reason: 'user_inactive', user: null };
    if (signedUp.created) return { ok: true, user: signedUp.user, verified: signedUp.user };
    // An account made for the address since the mail was asked (an administrator's, another sign-up's) is judged as one
    // there when it was asked: its standing, then the unproven password and the takeover below.
    const refused = await standingRefusal(target, signedUp.user, address);
    if (refused !== undefined) return refused;
    user = signedUp.user;
  }
  // Refused as an upstream's word is; the owner resets the password.
  if (unprovenPassword(user)) return { ok: false, reason: 'email_unverified', user };
  const owned = user.emailVerified === false ? await takeOverByMailbox(target, user) : user;
  if (owned === null) return { ok: false, reason: 'user_inactive', user };
  const tenantIds = await recordSuccessfulSignIn(target, owned, address);
  if (tenantIds === null) return { ok: false, reason: 'user_inactive', user: owned };
  return { ok: true, user: owned, verified: { ...owned, tenantIds } };
}

/** No password, e-mail verified, recorded `user.signed_up` as a password sign-up is; or the account made for the address
 *  meanwhile (`created` false), made before this one or at the same moment. Null: that account is gone again; undefined:
 *  none, with sign-up closed now. */
async function signUpByEmail(target: SignInTarget, email: string): Promise<{ readonly user: SignInUser; readonly created: boolean } | null | undefined> {
  const emailNormalized = normalizeEmail(email);
  const existing = async () => {
    const user = await readSignInUser(target.applicationScope.em, target.application.id, { poolId: target.poolId, emailNormalized });
    return user === null ? null : { user, created: false };
  };
  // Sign-up as the surface has it now, not as it was when the mail went out.
  if (!target.email.signUp) return (await existing()) ?? undefined;
  try {
    const created = await underTenancyConfig(target.applicationScope, async (tx) => {
      if ((await tx.em.findOne(User, { applicationId: target.application.id, poolId: target.poolId, emailNormalized }, { filters: false })) !== null) return null;
      const user = await createSignedUpUser(tx, target, { email, emailVerified: true });
      await tx.em.flush();
      return user;
    });
    if (created !== null) return { user: created, created: true };
  } catch (error) {
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
  }
  return existing();
}
