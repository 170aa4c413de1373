import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import type { PageOpener } from '../../context.ts';
import { GatehouseError } from '../../errors.ts';
import { isUuid, newId } from '../../ids.ts';
import { servesClientsSql } from '../organizations/status.ts';
import { mayActNowSql, type SignInUser } from './sign-in-user.ts';
import { normalizeEmail } from './email-key.ts';

/** 32 random bytes shown once, stored as SHA-256 only, used once; `{applicationId}.{secret}`, so the lookup key leads with
 *  its application. The page refuses a token brought to another surface than the user's pool's. */
export type LinkPurpose = 'verify_email' | 'password_reset' | 'email_change';

export const LINK_MINUTES: Readonly<Record<LinkPurpose, number>> = { verify_email: 24 * 60, password_reset: 30, email_change: 60 };

/** A restore link's (issueRestoreLink): its owner may read the notice only after a weekend. */
export const RESTORE_LINK_MINUTES = 72 * 60;

/** Passwords replaced within RESTORE_LINK_MINUTES before a change of address that its restore link also takes
 *  (password-history.ts keeps them). */
export const RESTORE_EARLIER_PASSWORDS = 5;

export const LINK_PATHS: Readonly<Record<LinkPurpose, string>> = {
  verify_email: '/account/verify-email',
  password_reset: '/account/reset-password',
  email_change: '/account/confirm-email',
};

/** How a link's secret is stored (the sign-in links' too: email-methods.ts). */
export const linkSecretHash = (secret: string) => createHash('sha256').update(secret).digest('base64url');

export interface LinkUser {
  readonly applicationId: string;
  readonly userId: string;
  readonly poolId: string;
  /** The page it was asked from: a sign-in's OAuth client (whose account page its done page links) or an invitation's. */
  readonly opener: PageOpener;
  /** The tenant the link's mail went out in (flow-mail.ts's `tenantOf`): a shared pool's page takes its look, and the mails
   *  that follow go out in it where that rule still allows. Null: the application's. */
  readonly tenantId: string | null;
}

/** A link as its page finds it: `newEmail`, the address an `email_change` link moves its user to; `removesFactor`, the
 *  factor an `mfa_enrolled` mail's reset link removes and the password hash its user proves it with (issueEnrolmentLink);
 *  `restores`, the address a restore link gives back (issueRestoreLink). */
export interface OpenedLinkUser extends LinkUser {
  readonly newEmail: string | null;
  readonly removesFactor: RemovedFactorProof | null;
  readonly restores: RestoredAddress | null;
}

export interface RemovedFactorProof {
  readonly factorId: string;
  readonly passwordHash: string;
}

/** The address an account left, the password hash it had then (and those it replaced within RESTORE_LINK_MINUTES before),
 *  and since when what was added to it goes with the change. */
export interface RestoredAddress {
  readonly email: string;
  readonly passwordHash: string;
  readonly earlierHashes: readonly string[];
  readonly addedSince: Date;
  readonly issuedAt: Date;
}

/** Wrong passwords an enrolment link takes before it stops working: its holder proves the mailbox already. */
export const LINK_PROOF_ATTEMPTS = 5;

interface IssuedLink {
  readonly link: string;
  readonly expiresInMinutes: number;
}

/** An administrator's account or invitation for an address a restore link holds (addressHeld): 409 on `email`. */
export async function refuseHeldAddress(runner: SqlRunner, applicationId: string, poolId: string, email: string, except?: string): Promise<void> {
  // No date: in a shared pool the caller may be another tenant's, to whom when that account left it is none of theirs.
  if (await addressHeld(runner, applicationId, poolId, normalizeEmail(email), except)) {
    throw new GatehouseError('already_exists', 'This e-mail is held for the owner of the account that left it, who may take it back for a while', { field: 'email' });
  }
}

/** Through the caller's transaction; the link is on the pool's pages (pagesOf). */
export const issueLink = (em: EntityManager, user: LinkUser, purpose: Exclude<LinkPurpose, 'email_change'>, base: string): Promise<IssuedLink> =>
  insertLink(em, user, purpose, {}, base);

/** A link that moves `user` to `newEmail`: the last address asked for is the one. */
export const issueEmailChangeLink = (em: EntityManager, user: LinkUser, newEmail: string, base: string): Promise<IssuedLink> =>
  insertLink(em, user, 'email_change', { newEmail }, base);

/** An `mfa_enrolled` mail's reset link, which also removes `factorId` once its holder types the password the account
 *  had when it was issued: the mailbox alone removes no factor. No newer link or password ends it (the enroller knows
 *  the password); an account without one gets a plain reset link. */
export async function issueEnrolmentLink(em: EntityManager, user: LinkUser, factorId: string, base: string): Promise<IssuedLink> {
  const [account] = await executeOwned<{ password_hash: string | null }[]>(em, user.applicationId, 'select password_hash from app_user where @owner and id = ?', [user.userId]);
  const passwordHash = account?.password_hash ?? null;
  return insertLink(em, user, 'password_reset', passwordHash === null ? {} : { removesFactor: { factorId, passwordHash } }, base);
}

/** A reset link that makes `restores.email` the account's again (`email_change`'s notice to the address it left). Only
 *  the password the account had at the change, or one it replaced within RESTORE_LINK_MINUTES before (an intruder who
 *  knew the owner's changes it first), opens it: the old mailbox alone, perhaps no longer the owner's, takes nothing
 *  back. It outlives what the one who changed the address could do since (newer links, a new password, another change
 *  of address), as a factor's link does, and holds its address meanwhile (addressHeld). */
export async function issueRestoreLink(em: EntityManager, user: LinkUser, restores: Omit<RestoredAddress, 'issuedAt' | 'earlierHashes'>, base: string): Promise<IssuedLink> {
  const earlier = await executeOwned<{ password_hash: string }[]>(
    em,
    user.applicationId,
    'select password_hash from replaced_password where @owner and user_id = ? and expires_at > now() order by replaced_at, id limit ?',
    [user.userId, RESTORE_EARLIER_PASSWORDS],
  );
  const earlierHashes = earlier.map((row) => row.password_hash);
  return insertLink(em, user, 'password_reset', { restores: { ...restores, earlierHashes } }, base, RESTORE_LINK_MINUTES);
}

/** Whether a live restore link of another user of the pool than `except` holds the address (its normalized key): no
 *  other account takes it meanwhile, so that the link, once proven, gives it back. */
export async function addressHeld(runner: SqlRunner, applicationId: string, poolId: string, emailNormalized: string, except?: string): Promise<boolean> {
  const rows = await executeOwned<unknown[]>(
    runner,
    applicationId,
    `select 1 from email_link_token as t join app_user as u on u.application_id = t.application_id and u.id = t.user_id
      where @owner(t) and t.restores_email_normalized = ? and t.used_at is null and t.expires_at > now() and u.pool_id = ?${except === undefined ? '' : ' and t.user_id <> ?'}
      limit 1`,
    except === undefined ? [emailNormalized, poolId] : [emailNormalized, poolId, except],
  );
  return rows.length > 0;
}

/** One of a proof link's tries (a factor's or a restore link), taken before its password is checked, so that passwords
 *  sent at once are checked no more than LINK_PROOF_ATTEMPTS times in all; false when none is left (settleLinkProofTry
 *  gives a right one back). */
export async function takeLinkProofTry(em: EntityManager, token: unknown): Promise<boolean> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return false;
  const taken = await executeOwned<unknown[]>(
    em,
    parsed.applicationId,
    `update email_link_token set proof_failures = proof_failures + 1
      where @owner and token_hash = ? and used_at is null and proof_password_hash is not null and proof_failures < ? returning 1`,
    [parsed.hash, LINK_PROOF_ATTEMPTS],
  );
  return taken.length > 0;
}

/** A taken try's outcome: a right password gives it back; a wrong one keeps it, and ends the link once it was the last.
 *  False when the link no longer works. */
export async function settleLinkProofTry(em: EntityManager, token: unknown, right: boolean): Promise<boolean> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return false;
  const [row] = await executeOwned<{ used_at: Date | null }[]>(
    em,
    parsed.applicationId,
    right
      ? `update email_link_token set proof_failures = proof_failures - 1 where @owner and token_hash = ? and used_at is null returning used_at`
      : `update email_link_token set used_at = case when proof_failures >= ? then now() end where @owner and token_hash = ? and used_at is null returning used_at`,
    right ? [parsed.hash] : [LINK_PROOF_ATTEMPTS, parsed.hash],
  );
  return row !== undefined && row.used_at === null;
}

/** Held before a user's links, factors, keys or codes: changes of them take turns in one lock order. */
export async function holdUserRow(em: EntityManager, applicationId: string, userId: string): Promise<void> {
  await executeOwned(em, applicationId, 'select 1 from app_user where @owner and id = ? for no key update', [userId]);
}

/** holdUserRow, answering whether the user is still there and not suspended: a mail to them queued after it is either
 *  withdrawn by a suspension, which locks the row first and so waits for this transaction, or never queued, the
 *  suspension committed being read here (the page's read of the user came before the transaction). */
export async function holdUnsuspendedUser(em: EntityManager, applicationId: string, userId: string): Promise<boolean> {
  const [user] = await executeOwned<{ status: string }[]>(em, applicationId, 'select status from app_user where @owner and id = ? for no key update', [userId]);
  return user !== undefined && user.status !== 'suspended';
}

/** holdUserRow for what the user does themselves, judged on the row as it now is (null: they may no longer act); the
 *  organization's row is held shared, so a deactivation and this take turns. */
export async function holdActingUser(em: EntityManager, applicationId: string, userId: string, poolId: string): Promise<Pick<SignInUser, 'passwordHash'> | null> {
  const [user] = await executeOwned<{ acts: boolean; password_hash: string | null }[]>(
    em,
    applicationId,
    `select ${mayActNowSql('u')} and u.pool_id = ? as acts, u.password_hash from app_user as u where @owner(u) and u.id = ? for no key update`,
    [poolId, userId],
  );
  if (user?.acts !== true) return null;
  const [organization] = await em.execute<{ serves: boolean }[]>(
    `select ${servesClientsSql('a', 'o')} as serves from application as a join organization as o on o.id = a.organization_id where a.id = ? for share of o`,
    [applicationId],
  );
  return organization?.serves === true ? { passwordHash: user.password_hash } : null;
}

/** The user's earlier links of the purpose stop working (those proven by a password aside: issueEnrolmentLink,
 *  issueRestoreLink): a link left in an old mail (or a mailbox read since) is worth nothing once another is sent, one
 *  issued at once in another transaction too (holdUserRow). */
async function insertLink(
  em: EntityManager,
  user: LinkUser,
  purpose: LinkPurpose,
  { newEmail = null, removesFactor = null, restores = null }: { newEmail?: string | null; removesFactor?: RemovedFactorProof | null; restores?: Omit<RestoredAddress, 'issuedAt'> | null },
  base: string,
  minutes = LINK_MINUTES[purpose],
): Promise<IssuedLink> {
  await holdUserRow(em, user.applicationId, user.userId);
  await executeOwned(
    em,
    user.applicationId,
    'update email_link_token set used_at = now() where @owner and user_id = ? and purpose = ? and used_at is null and proof_password_hash is null',
    [user.userId, purpose],
  );
  const secret = randomBytes(32).toString('base64url');
  const { opener } = user;
  await em.execute(
    `insert into email_link_token (application_id, id, user_id, client_id, invitation_id, tenant_id, purpose, token_hash, expires_at, new_email,
                                   removes_factor_id, proof_password_hash, restores_email, restores_added_since, restores_earlier_hashes, restores_email_normalized)
     values (?, ?, ?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?::int), ?, ?, ?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?)`,
    [
      user.applicationId,
      newId(),
      user.userId,
      opener.type === 'oauth_client' ? opener.id : null,
      opener.type === 'invitation' ? opener.id : null,
      user.tenantId,
      purpose,
      linkSecretHash(secret),
      minutes,
      newEmail,
      removesFactor?.factorId ?? null,
      removesFactor?.passwordHash ?? restores?.passwordHash ?? null,
      restores?.email ?? null,
      restores?.addedSince ?? null,
      JSON.stringify(restores?.earlierHashes ?? []),
      restores === null ? null : normalizeEmail(restores.email),
    ],
  );
  const url = new URL(`${await pagesOf(em, user, base)}${LINK_PATHS[purpose]}`);
  url.searchParams.set('token', `${user.applicationId}.${secret}`);
  return { link: url.href, expiresInMinutes: minutes };
}

/** As the pool's users know its sign-in: a verified custom domain of the pool (first by name), else the service's URL,
 *  under `/t/{id}` for an isolated tenant's pool. Every mailed link's base (invitations' too). */
export async function pagesOf(runner: SqlRunner, user: Pick<LinkUser, 'applicationId' | 'poolId'>, serviceUrl: string): Promise<string> {
  const shared = user.poolId === SHARED_POOL;
  const [domain] = await executeOwned<{ hostname: string }[]>(
    runner,
    user.applicationId,
    `select hostname from domain where @owner and ${shared ? 'tenant_id is null' : 'tenant_id = ?'} and verified_at is not null
      order by hostname limit 1`,
    shared ? [] : [user.poolId],
  );
  if (domain !== undefined) return `${new URL(serviceUrl).protocol}//${domain.hostname}`;
  return shared ? serviceUrl : `${serviceUrl}/t/${user.poolId}`;
}

/** The account links' and the sign-in links' alike: the application it names, unverified until its row is found by the
 *  hash. Undefined when it is not `{applicationId}.{secret}`. */
export function parseLinkToken(token: unknown): { applicationId: string; hash: string } | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const [applicationId, secret, ...rest] = token.split('.');
  if (applicationId === undefined || secret === undefined || rest.length > 0 || !isUuid(applicationId) || secret.length === 0) return undefined;
  return { applicationId, hash: linkSecretHash(secret) };
}

/** One of `client_id` and `invitation_id` (migration 0058). */
interface TokenRow {
  user_id: string;
  client_id: string | null;
  invitation_id: string | null;
  tenant_id: string | null;
  pool_id: string;
  new_email: string | null;
  removes_factor_id: string | null;
  proof_password_hash: string | null;
  restores_email: string | null;
  restores_added_since: Date | null;
  restores_earlier_hashes: string[];
  created_at: Date;
}

const toLinkUser = (applicationId: string, row: TokenRow | undefined): OpenedLinkUser | undefined =>
  row === undefined
    ? undefined
    : {
        applicationId,
        userId: row.user_id,
        poolId: row.pool_id,
        opener: row.client_id === null ? { type: 'invitation', id: row.invitation_id! } : { type: 'oauth_client', id: row.client_id },
        tenantId: row.tenant_id,
        newEmail: row.new_email,
        removesFactor: row.removes_factor_id === null || row.proof_password_hash === null ? null : { factorId: row.removes_factor_id, passwordHash: row.proof_password_hash },
        restores:
          row.restores_email === null || row.restores_added_since === null || row.proof_password_hash === null
            ? null
            : {
                email: row.restores_email,
                passwordHash: row.proof_password_hash,
                earlierHashes: row.restores_earlier_hashes,
                addedSince: new Date(row.restores_added_since),
                issuedAt: new Date(row.created_at),
              },
      };

/** A link naming a factor outlives a new password only while that factor stands (its removal then asks the password it
 *  was sent under); once the factor is gone it is a plain reset link, which a password set since has ended. `t`: the
 *  link's row, holding application_id and user_id. */
const liveFactorLink = (t: string) => `(${t}.removes_factor_id is null
  or ${t}.proof_password_hash = (select u.password_hash from app_user as u where u.application_id = ${t}.application_id and u.id = ${t}.user_id)
  or exists (select 1 from mfa_factor as f where f.application_id = ${t}.application_id and f.user_id = ${t}.user_id and f.id = ${t}.removes_factor_id)
  or exists (select 1 from webauthn_credential as w where w.application_id = ${t}.application_id and w.user_id = ${t}.user_id and w.id = ${t}.removes_factor_id))`;

export async function peekLink(em: EntityManager, token: unknown, purpose: LinkPurpose): Promise<OpenedLinkUser | undefined> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return undefined;
  const [row] = await executeOwned<TokenRow[]>(
    em.getConnection(),
    parsed.applicationId,
    `select t.user_id, t.client_id, t.invitation_id, t.tenant_id, t.new_email, t.removes_factor_id, t.proof_password_hash, t.restores_email, t.restores_added_since,
            t.restores_earlier_hashes, t.created_at, u.pool_id
       from email_link_token as t join app_user as u on u.application_id = t.application_id and u.id = t.user_id
      where @owner(t) and t.token_hash = ? and t.purpose = ? and t.used_at is null and t.expires_at > now() and ${liveFactorLink('t')}`,
    [parsed.hash, purpose],
  );
  return toLinkUser(parsed.applicationId, row);
}

/** Of two requests racing with one token, one gets its user, the other undefined; the user's other unused links of that
 *  purpose end with it, those proven by a password aside (issueEnrolmentLink, issueRestoreLink). */
export async function useLink(em: EntityManager, token: unknown, purpose: LinkPurpose): Promise<OpenedLinkUser | undefined> {
  const parsed = parseLinkToken(token);
  if (parsed === undefined) return undefined;
  const [owner] = await executeOwned<{ user_id: string }[]>(em, parsed.applicationId, 'select user_id from email_link_token where @owner and token_hash = ?', [
    parsed.hash,
  ]);
  if (owner === undefined) return undefined;
  await holdUserRow(em, parsed.applicationId, owner.user_id);
  const [row] = await executeOwned<TokenRow[]>(
    em,
    parsed.applicationId,
    `with used as (
       update email_link_token set used_at = now()
        where @owner and token_hash = ? and purpose = ? and used_at is null and expires_at > now() and ${liveFactorLink('email_link_token')}
       returning application_id, id, user_id, client_id, invitation_id, tenant_id, new_email, removes_factor_id, proof_password_hash, restores_email,
                 restores_added_since, restores_earlier_hashes, created_at),
     others as (
       update email_link_token as t set used_at = now() from used
        where t.application_id = used.application_id and t.user_id = used.user_id and t.purpose = ? and t.used_at is null and t.id <> used.id
          and t.proof_password_hash is null)
     select used.user_id, used.client_id, used.invitation_id, used.tenant_id, used.new_email, used.removes_factor_id, used.proof_password_hash, used.restores_email,
            used.restores_added_since, used.restores_earlier_hashes, used.created_at, u.pool_id
       from used join app_user as u on u.application_id = used.application_id and u.id = used.user_id`,
    [parsed.hash, purpose, purpose],
  );
  return toLinkUser(parsed.applicationId, row);
}

/** A deleted tenant's outbox: its administrators read those links, of accounts now no tenant's (a pool's went with it). */
export async function endLinksOfTenantOutbox(em: EntityManager, applicationId: string, tenantId: string): Promise<void> {
  await executeOwned(em, applicationId, 'update email_link_token set used_at = now() where @owner and tenant_id = ? and used_at is null', [tenantId]);
}

/** A link mailed in a tenant's outbox, which its administrators read, acts on the whole account: it ends once the
 *  account is no longer that tenant's alone (flow-mail.ts tenantOf): a member of other tenants too, or holding a role
 *  application-wide (`tenantIds` empty: every tenant's links end). */
export async function endLinksOfOtherOutboxes(em: EntityManager, applicationId: string, userId: string, tenantIds: readonly string[]): Promise<void> {
  const [alone] = tenantIds.length === 1 ? tenantIds : [];
  await executeOwned(
    em,
    applicationId,
    `update email_link_token set used_at = now() where @owner and user_id = ? and used_at is null and tenant_id is not null${alone === undefined ? '' : ' and tenant_id <> ?'}`,
    alone === undefined ? [userId] : [userId, alone],
  );
}
