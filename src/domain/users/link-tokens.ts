import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { isUuid, newId } from '../../ids.ts';

/**
 * The tokens of the links that e-mails carry (verification, password reset): 32 random bytes shown once in the link,
 * stored as their SHA-256 only, used once, with an expiry. A token reads `{applicationId}.{secret}`, so that it is
 * looked up by a key led by its application. The link names the surface of the user's pool (the service's, or an
 * isolated tenant's path), and the page refuses a token brought to any other.
 */
export type LinkPurpose = 'verify_email' | 'password_reset';

/** How long each link works. */
export const LINK_MINUTES: Readonly<Record<LinkPurpose, number>> = { verify_email: 24 * 60, password_reset: 30 };

/** The page of the service that each link opens, under the pool's surface. */
export const LINK_PATHS: Readonly<Record<LinkPurpose, string>> = { verify_email: '/account/verify-email', password_reset: '/account/reset-password' };

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** The user a link is for, and the OAuth client of the sign-in it was asked from (whose look its pages take). */
export interface LinkUser {
  readonly applicationId: string;
  readonly userId: string;
  readonly poolId: string;
  readonly clientId: string;
}

/**
 * A new token for `user`, written through `em` (the caller's transaction), and the absolute link carrying it, on the
 * pool's pages (pagesOf; `base` is the service's URL).
 */
export async function issueLink(em: EntityManager, user: LinkUser, purpose: LinkPurpose, base: string): Promise<{ link: string; expiresInMinutes: number }> {
  const secret = randomBytes(32).toString('base64url');
  const minutes = LINK_MINUTES[purpose];
  await em.execute(
    `insert into email_link_token (application_id, id, user_id, client_id, purpose, token_hash, expires_at)
     values (?, ?, ?, ?, ?, ?, now() + make_interval(mins => ?::int))`,
    [user.applicationId, newId(), user.userId, user.clientId, purpose, hashOf(secret), minutes],
  );
  const url = new URL(`${await pagesOf(em, user, base)}${LINK_PATHS[purpose]}`);
  url.searchParams.set('token', `${user.applicationId}.${secret}`);
  return { link: url.href, expiresInMinutes: minutes };
}

/**
 * Where the pool's link pages are, as its users know its sign-in: a verified custom domain of the pool (an isolated
 * tenant's own; for the shared pool the application's), else the service's URL, under the tenant's path (`/t/{id}`)
 * for an isolated tenant's pool. Of several domains, the first by name.
 */
async function pagesOf(em: EntityManager, user: LinkUser, serviceUrl: string): Promise<string> {
  const shared = user.poolId === SHARED_POOL;
  const [domain] = await executeOwned<{ hostname: string }[]>(
    em,
    user.applicationId,
    `select hostname from domain where @owner and ${shared ? 'tenant_id is null' : 'tenant_id = ?'} and verified_at is not null
      order by hostname limit 1`,
    shared ? [] : [user.poolId],
  );
  if (domain !== undefined) return `${new URL(serviceUrl).protocol}//${domain.hostname}`;
  return shared ? serviceUrl : `${serviceUrl}/t/${user.poolId}`;
}

/** A token as the link carries it, split; undefined when it cannot be one. */
function parse(token: unknown): { applicationId: string; hash: string } | undefined {
  if (typeof token !== 'string' || token.length > 200) return undefined;
  const [applicationId, secret, ...rest] = token.split('.');
  if (applicationId === undefined || secret === undefined || rest.length > 0 || !isUuid(applicationId) || secret.length === 0) return undefined;
  return { applicationId, hash: hashOf(secret) };
}

interface TokenRow {
  user_id: string;
  client_id: string;
  pool_id: string;
}

const toLinkUser = (applicationId: string, row: TokenRow | undefined): LinkUser | undefined =>
  row === undefined ? undefined : { applicationId, userId: row.user_id, poolId: row.pool_id, clientId: row.client_id };

/** The user of a link that still works (unused, unexpired, for `purpose`), without using it: the page that asks. */
export async function peekLink(em: EntityManager, token: unknown, purpose: LinkPurpose): Promise<LinkUser | undefined> {
  const parsed = parse(token);
  if (parsed === undefined) return undefined;
  const [row] = await executeOwned<TokenRow[]>(
    em.getConnection(),
    parsed.applicationId,
    `select t.user_id, t.client_id, u.pool_id from email_link_token as t join app_user as u on u.application_id = t.application_id and u.id = t.user_id
      where @owner(t) and t.token_hash = ? and t.purpose = ? and t.used_at is null and t.expires_at > now()`,
    [parsed.hash, purpose],
  );
  return toLinkUser(parsed.applicationId, row);
}

/**
 * Uses a link through `em` (the caller's transaction): of two requests racing with one token, one gets its user and
 * the other undefined, as for an unknown, used or expired token. The user's other unused links of that purpose end
 * with it: one reset, one verification.
 */
export async function useLink(em: EntityManager, token: unknown, purpose: LinkPurpose): Promise<LinkUser | undefined> {
  const parsed = parse(token);
  if (parsed === undefined) return undefined;
  const [row] = await executeOwned<TokenRow[]>(
    em,
    parsed.applicationId,
    `with used as (
       update email_link_token set used_at = now()
        where @owner and token_hash = ? and purpose = ? and used_at is null and expires_at > now()
       returning application_id, id, user_id, client_id),
     others as (
       update email_link_token as t set used_at = now() from used
        where t.application_id = used.application_id and t.user_id = used.user_id and t.purpose = ? and t.used_at is null and t.id <> used.id)
     select used.user_id, used.client_id, u.pool_id from used join app_user as u on u.application_id = used.application_id and u.id = used.user_id`,
    [parsed.hash, purpose, purpose],
  );
  return toLinkUser(parsed.applicationId, row);
}
