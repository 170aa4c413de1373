import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UserStatus } from '../../db/entities/user.entity.ts';
import { executeOwned } from '../../db/owned-sql.ts';

/** Read in one plain statement (no identity map): a sign-in reads its user on every request of the flow and changes it
 *  only in single statements (sign-in/lockout.ts). */
export interface SignInUser {
  readonly id: string;
  readonly applicationId: string;
  /** SHARED_POOL, or an isolated tenant's id. */
  readonly poolId: string;
  readonly email: string;
  readonly name?: string | null | undefined;
  readonly status: UserStatus;
  readonly tenantIds: readonly string[];
  readonly passwordHash?: string | null | undefined;
  readonly lockedUntil?: Date | null | undefined;
  readonly failedSignIns: number;
  /** Absent: read as not proven. */
  readonly emailVerified?: boolean;
  /** Null: English. */
  readonly locale?: string | null;
  /** How often the user's sign-ins were ended (end-sessions.ts): a proof sealed with another count is void (stillProven). */
  readonly signInsEnded: number;
}

/** What a proof of the password keeps of it, sealed with the steps after it: one set since (a reset, a change, an
 *  administrator's) makes the proof stale, or whoever typed the old one would finish the sign-in the change locked out. */
export const passwordMark = (user: Pick<SignInUser, 'passwordHash'>): string | undefined =>
  user.passwordHash == null ? undefined : createHash('sha256').update(user.passwordHash).digest('base64url').slice(0, 22);

/** Active, or `locked` with the lock run out: the row reads `locked` until the next attempt lifts it, but what the user
 *  holds works as soon as the lock ends. */
export function mayActNow(user: Pick<SignInUser, 'status' | 'lockedUntil'>, now = new Date()): boolean {
  return user.status === 'active' || (user.status === 'locked' && user.lockedUntil != null && user.lockedUntil <= now);
}

/** The status the API shows and filters by: a lock that has run out is over (mayActNow), whatever the row reads. */
export const shownStatus = (user: Pick<SignInUser, 'status' | 'lockedUntil'>, now = new Date()): SignInUser['status'] => (mayActNow(user, now) ? 'active' : user.status);

/** shownStatus of a row, from its `status` and `locked_until` columns in SQL. */
export const shownStatusSql = (status: string, lockedUntil: string): string =>
  `(case when ${status} = 'locked' and ${lockedUntil} <= now() then 'active' else ${status} end)`;

export const mayActNowSql = (alias: string): string =>
  `(${alias}.status = 'active' or (${alias}.status = 'locked' and ${alias}.locked_until <= now()))`;

/** A user-bound API key (`key`: its alias) acts as its user: only while they may act now, as their Bearer tokens. */
export const keyUserMayActNowSql = (key: string): string =>
  `(${key}.user_id is null or exists (
     select 1 from app_user as ku where ku.application_id = ${key}.application_id and ku.id = ${key}.user_id and ${mayActNowSql('ku')}))`;

export type SignInUserKey = { readonly id: string; readonly poolId?: string } | { readonly poolId: string; readonly emailNormalized: string };

export interface SignInUserRow {
  id: string;
  application_id: string;
  pool_id: string;
  email: string;
  name: string | null;
  status: UserStatus;
  tenant_ids: string[];
  password_hash: string | null;
  /** timestamptz: the driver leaves it as PostgreSQL's text (MikroORM maps dates itself). */
  locked_until: string | null;
  failed_sign_ins: number;
  email_verified: boolean;
  locale: string | null;
  sign_ins_ended: number;
}

export const signInUserColumnsSql = (alias: string): string =>
  ['id', 'application_id', 'pool_id', 'email', 'name', 'status', 'tenant_ids', 'password_hash', 'locked_until', 'failed_sign_ins', 'email_verified', 'locale', 'sign_ins_ended']
    .map((column) => `${alias}.${column}`)
    .join(', ');

export function signInUserOf(row: SignInUserRow): SignInUser {
  return {
    id: row.id,
    applicationId: row.application_id,
    poolId: row.pool_id,
    email: row.email,
    name: row.name,
    status: row.status,
    tenantIds: row.tenant_ids,
    passwordHash: row.password_hash,
    lockedUntil: row.locked_until === null ? null : new Date(row.locked_until),
    failedSignIns: row.failed_sign_ins,
    emailVerified: row.email_verified,
    locale: row.locale,
    signInsEnded: row.sign_ins_ended,
  };
}

/** Plain SQL skips the tenancy filters: the statement is owned by the caller's application (executeOwned). */
export async function readSignInUser(em: EntityManager, applicationId: string, key: SignInUserKey): Promise<SignInUser | null> {
  const [column, value] = 'id' in key ? ['id', key.id] : ['email_normalized', key.emailNormalized];
  const pool = key.poolId === undefined ? '' : ' and u.pool_id = ?';
  const [row] = await executeOwned<SignInUserRow[]>(
    em.getConnection(),
    applicationId,
    `select ${signInUserColumnsSql('u')} from app_user as u where @owner(u) and u.${column} = ?${pool} limit 1`,
    key.poolId === undefined ? [value] : [value, key.poolId],
  );
  return row === undefined ? null : signInUserOf(row);
}
