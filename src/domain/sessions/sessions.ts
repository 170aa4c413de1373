import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import type { Scope } from '../../context.ts';
import { executeOwned, ownedSql, type OwnedStatement } from '../../db/owned-sql.ts';
import { invalid, notFound } from '../../errors.ts';
import { changed } from '../../events/changes.ts';
import { grantsEnded } from '../../events/invalidations.ts';
import { isUuid, uuidOrNullSql } from '../../ids.ts';
import { pageSize, scopedList, type Page, type PageArgs } from '../pagination.ts';
import { poolSessionPolicy, signInEnd, signInEnded, standingSignInsSince } from '../sign-in/session.ts';
import type { SessionPolicy } from '../policies/definitions.ts';
import { mayActNowSql } from '../users/sign-in-user.ts';
import { getUser } from '../users/users.ts';
import { SHARED_POOL } from '../../db/entities/user.entity.ts';
import { endProvenSignIns, endSignIns, ofUser } from './end-sessions.ts';
import { LIVE } from './browser-sessions.ts';
import { cutoffsParams, grantSignInsSql, LOGIN_TS, SIGN_IN_ID_IS, STANDING_CLIENT, standsUnderPolicy, USED_AT, type PolicyCutoffs } from './grant-sign-ins.ts';
import type { KnownValidToken } from './validation-cache.ts';
import { grantHoldersCutoffs, policyCutoffs } from './policy-cutoffs.ts';
import { ISSUER_KEY, MODEL, PAYLOAD } from '../../db/oidc-model.ts';
import type { SigningKeyStore } from '../../auth/signing-keys.ts';

/** A tenant's (or the application's) part of the OP's browser session. `user_session` is only its index: a row counts
 *  while the OP session it names (by `uid`, which outlives id rotations) stands for the same account and holds a grant of
 *  its tenant (LIVE), so sign-out, account switch or expiry ends it with no write here. A grant no browser session holds
 *  (grant-sign-ins.ts) is a sign-in of its own, with no address, user agent or methods. */
export interface SessionView {
  readonly id: string;
  readonly userId: string;
  readonly tenantId: string | null;
  readonly clientId: string;
  readonly createdAt: Date;
  readonly lastActiveAt: Date;
  readonly expiresAt: Date;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly methods: string[];
}

interface SessionRow {
  id: string;
  user_id: string;
  tenant_id: string | null;
  client_id: string;
  created_at: Date;
  last_active_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
  methods: string[];
  op_session_uid: string;
}

/** A sign-in of grantSignInsSql's. */
interface GrantSignInRow {
  id: string;
  grant_id: string;
  user_id: string;
  tenant_id: string | null;
  client_id: string;
  created_at: Date;
  last_active_at: Date;
  expires_at: Date;
}

const COLUMNS = 's.id, s.user_id, s.tenant_id, s.client_id, s.created_at, s.last_active_at, s.expires_at, s.ip, s.user_agent, s.methods, s.op_session_uid';

const view = (row: SessionRow): SessionView => ({
  id: row.id,
  userId: row.user_id,
  tenantId: row.tenant_id,
  clientId: row.client_id,
  createdAt: new Date(row.created_at),
  lastActiveAt: new Date(row.last_active_at),
  expiresAt: new Date(row.expires_at),
  ip: row.ip,
  userAgent: row.user_agent,
  methods: row.methods,
});

const grantView = (row: Omit<GrantSignInRow, 'grant_id'>): SessionView => view({ ...row, ip: null, user_agent: null, methods: [], op_session_uid: '' });

/**
 * Every read's rule for the user `u` of a sign-in to `tenant` (text, null: the application's), as the OP's for its tokens
 * (findAccount): while they may not act (locked), their sign-ins are none, and stand again once the lock ends; nor is one
 * to a tenant they have left (the shared → isolated split moves them out). Ending them (endSignIns) asks nothing of it.
 */
const userStands = (tenant: string) => `${mayActNowSql('u')} and (${tenant} is null or ${tenant} = any(u.tenant_ids::text[]))`;
const GRANT_TENANT = `gt.payload->>'${PAYLOAD.tenantId}'`;

/** `time` (LOGIN_TS, USED_AT) of the OP session a row of `user_session` as `alias` names. */
const opSessionTime = (alias: string, time: string) =>
  `(select ${time} from oidc_model as o where o.model = '${MODEL.Session}' and o.uid = ${alias}.op_session_uid limit 1)`;

/** A tenant scope: those signed in to its tenant. `more`: columns and joins beside the row's. */
function scoped(scope: Scope, extra: string, params: unknown[], more: { columns: string; joins: string } = { columns: '', joins: '' }): OwnedStatement {
  const tenant = scope.tenantId === null ? '' : ' and s.tenant_id = ?';
  return ownedSql(
    scope.applicationId,
    `select ${COLUMNS}${more.columns} from user_session as s${more.joins} where @owner(s)${tenant}${extra} and ${LIVE}
        and exists (select 1 from app_user as u where u.application_id = s.application_id and u.id = s.user_id and ${userStands('s.tenant_id::text')})`,
    [...(scope.tenantId === null ? [] : [scope.tenantId]), ...params, ...Array<Date>(2).fill(new Date())],
  );
}

/** The scope's grant sign-ins (in a tenant scope, those of its tenant) matching `where` (on grantSignInsSql's `g`, `u`). */
function scopedGrantSignIns(scope: Scope, where: string, params: unknown[], cutoffs: PolicyCutoffs): OwnedStatement {
  const tenant = scope.tenantId === null ? '' : ` and ${GRANT_TENANT} = ?`;
  const { sql, params: all } = grantSignInsSql(` and ${userStands(GRANT_TENANT)}${tenant}${where}`, [...(scope.tenantId === null ? [] : [scope.tenantId]), ...params], new Date(), {
    cutoffs,
  });
  return ownedSql(scope.applicationId, sql, all);
}

/** With what the session policy judges a browser session by: its user's pool, its sign-in and its last use. */
type ListedRow = SessionRow & { grant_id: string | null; pool_id: string; login_ts: number | null; used_at: number | null };

/** Keyset on the id (UUIDv7: the sign-in's time), browser sessions' and grants' alike; `userId`: 404 when not in the scope.
 *  Rows the policy has ended since their last save are skipped (underPolicy). */
export async function listSessions(scope: Scope, args: PageArgs & { userId?: string }): Promise<Page<SessionView>> {
  // The parent first, as every list under a record: an absent user is 404 whatever the page arguments.
  if (args.userId !== undefined) await getUser(scope, args.userId);
  const size = pageSize(args);
  const list = `${scopedList(scope, 'sessions')}:${args.userId ?? ''}`;
  let after = args.cursor == null ? undefined : scope.services.cursors.decode(list, args.cursor);
  const now = new Date();
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, now, args.userId);
  const standing: SessionView[] = [];
  for (;;) {
    const rows = await listedRows(scope, { userId: args.userId, after }, size + 1, cutoffs);
    for (const row of rows) {
      const listed = await underPolicy(scope, row, now);
      if (listed !== undefined) standing.push(listed);
    }
    if (rows.length <= size || standing.length > size) break;
    after = rows.at(-1)!.id;
  }
  const data = standing.slice(0, size);
  const last = data.at(-1);
  return { data, next: standing.length > size && last !== undefined ? scope.services.cursors.encode(list, last.id) : null };
}

function listedRows(scope: Scope, only: { userId?: string | undefined; id?: string; after?: string | undefined }, limit: number, cutoffs: PolicyCutoffs): Promise<ListedRow[]> {
  const browsers = scoped(scope, '', []);
  const grants = scopedGrantSignIns(scope, '', [], cutoffs);
  const where = [
    ...(only.userId === undefined ? [] : [{ sql: 's.user_id = ?', param: only.userId }]),
    ...(only.id === undefined ? [] : [{ sql: 's.id = ?', param: only.id }]),
    ...(only.after === undefined ? [] : [{ sql: 's.id > ?', param: only.after }]),
  ];
  // Browser sessions the policy has ended are left out here, else a page reads on through them one statement a page.
  return executeOwned<ListedRow[]>(
    scope.em,
    scope.applicationId,
    `select * from (
       select s.*, (select u.pool_id from app_user as u where @owner(u) and u.id = s.user_id) as pool_id from (
         select b.*, null::text as grant_id,
           ${opSessionTime('b', LOGIN_TS)} as login_ts, ${opSessionTime('b', USED_AT)} as used_at
           from (${browsers.sql}) as b
         union all select g.id, g.user_id, g.tenant_id, g.client_id, g.created_at, g.last_active_at, g.expires_at, null::text, null::text, '{}'::text[], null::text, g.grant_id, null::float8, null::float8
           from (${grants.sql}) as g) as s) as s
      where ${BROWSER_SESSION_STANDS}${where.map((condition) => ` and ${condition.sql}`).join('')} order by s.id limit ?`,
    [...browsers.params, ...grants.params, ...cutoffsParams(cutoffs), ...where.map((condition) => condition.param), limit],
  );
}

/** A listed row `s` (its OP session's times read already) standing under the policy; a grant's sign-in is judged by
 *  grantSignInsSql itself. Two parameters (cutoffsParams). */
const BROWSER_SESSION_STANDS = `(s.grant_id is not null or (${standsUnderPolicy('s.pool_id::text', { loginTs: 's.login_ts', usedAt: 's.used_at' })}))`;

/** The OP judges each use by the policy as it is now (findAccount), so a stricter one ends a browser session before
 *  its stored end; undefined once ended. A grant's sign-in stands while a token of it does (one the policy's cutoffs
 *  freed from its ended browser session among them). */
async function underPolicy(scope: Scope, row: ListedRow, now: Date): Promise<SessionView | undefined> {
  if (row.grant_id !== null) return grantView(row);
  if (row.login_ts === null) return view(row);
  const listed = endUnderPolicy(await poolSessionPolicy(scope.services, scope.requestId, scope.applicationId, row.pool_id), view(row), row);
  return listed.expiresAt > now ? listed : undefined;
}

/** A browser session with the end the policy gives it now, when sooner than its stored one: its absolute end from the
 *  sign-in (`loginTs`), or its idle end from its last use when known. */
function endUnderPolicy(policy: SessionPolicy, session: SessionView, op: { login_ts: number | null; used_at: number | null }): SessionView {
  if (op.login_ts === null) return session;
  // Rounded: the last use is read from the row's end in floating seconds.
  return { ...session, expiresAt: new Date(Math.min(session.expiresAt.getTime(), Math.round(signInEnd(policy, op.login_ts, op.used_at ?? undefined) * 1000))) };
}

/** A browser session's sign-in (`lock`: its row, for the statement that ends it), else a grant's. */
async function findSession(
  scope: Scope,
  em: EntityManager,
  sessionId: string,
  cutoffs: PolicyCutoffs,
  lock = '',
): Promise<{ browser: SessionRow } | { grant: GrantSignInRow }> {
  const sessions = scoped(scope, ' and s.id = ?', [sessionId]);
  const [browser] = await em.execute<SessionRow[]>(`${sessions.sql}${lock}`, sessions.params);
  if (browser !== undefined) return { browser };
  const grants = scopedGrantSignIns(scope, SIGN_IN_ID_IS, [sessionId], cutoffs);
  const [grant] = await em.execute<GrantSignInRow[]>(grants.sql, grants.params);
  if (grant === undefined) throw notFound('Session', 'sessionId');
  return { grant };
}

export async function getSession(scope: Scope, sessionId: string): Promise<SessionView> {
  return listedSession(scope, sessionId, await grantHoldersCutoffs(scope, scope.em, new Date()));
}

async function listedSession(scope: Scope, sessionId: string, cutoffs: PolicyCutoffs): Promise<SessionView> {
  const [row] = isUuid(sessionId) ? await listedRows(scope, { id: sessionId }, 1, cutoffs) : [];
  const listed = row === undefined ? undefined : await underPolicy(scope, row, new Date());
  if (listed === undefined) throw notFound('Session', 'sessionId');
  return listed;
}

/** One of a user's sessions on their own page: whether it is of the browser session they see it in, and its tenant's name. */
export interface OwnSessionView extends SessionView {
  readonly current: boolean;
  readonly tenantName: string | null;
}

/** The user's sessions, those of the browser session `currentUid` first, then the newest (`limit` at most); `total`: all of them.
 *  None the policy has ended since its last save, as listSessions. */
export async function currentAndNewestSessions(scope: Scope, user: { id: string; poolId: string }, currentUid: string, limit: number): Promise<{ sessions: OwnSessionView[]; total: number }> {
  const policy = await poolSessionPolicy(scope.services, scope.requestId, scope.applicationId, user.poolId);
  const since = standingSignInsSince(policy, Date.now() / 1000);
  const standing = ` and coalesce(${opSessionTime('s', LOGIN_TS)} > ?, true) and coalesce(${opSessionTime('s', USED_AT)} > ?, true)`;
  const { sql, params } = scoped(scope, ` and s.user_id = ?${standing}`, [user.id, since.signedInAfter, since.usedAfter], {
    columns: ', t.name as tenant_name, count(*) over ()::int as total',
    joins: ' left join tenant as t on @owner(t) and t.id = s.tenant_id',
  });
  const rows = await scope.em.execute<(SessionRow & { tenant_name: string | null; total: number })[]>(`${sql} order by s.op_session_uid = ? desc, s.id desc limit ?`, [
    ...params,
    currentUid,
    limit,
  ]);
  return { sessions: rows.map((row) => ({ ...view(row), current: row.op_session_uid === currentUid, tenantName: row.tenant_name })), total: rows[0]?.total ?? 0 };
}

/** On a tenant's path: the grants made for it in the browser session end with their tokens, the session only if it signed
 *  the user in to nothing else (else a credential is needed again: revoked-sign-ins.ts). On the application's path the
 *  whole browser session ends, each sign-in audited. A grant's sign-in ends with its tokens. One statement; instances
 *  forget the Bearer tokens at once. */
export async function revokeSession(scope: Scope, sessionId: string): Promise<boolean> {
  // 404 for one the policy has ended, as its GET; the policy is read outside the transaction (one connection embedded).
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date());
  await listedSession(scope, sessionId, cutoffs);
  await scope.transactional(async (em) => {
    const found = await findSession(scope, em, sessionId, cutoffs, ' for update of s');
    if ('grant' in found) {
      const grant = { sql: 'select ?::text as id', params: [found.grant.grant_id] };
      const { grants } = await endSignIns(em, scope, { where: 'false', params: [], ends: 'sign_in', grants: grant, cutoffs }, null);
      return changed(em, ...grantsEnded(grants));
    }
    const row = found.browser;
    const ended = await endSignIns(
      em,
      scope,
      scope.tenantId === null
        ? { where: 's.op_session_uid = ? and s.user_id = ?', params: [row.op_session_uid, row.user_id], ends: 'browser_session', cutoffs }
        : { where: 's.id = ?', params: [row.id], ends: 'sign_in', credentialAgain: true, cutoffs },
      null,
    );
    changed(em, ...grantsEnded(ended.grants));
  });
  return true;
}

/**
 * Signs a user out everywhere in the scope: their sign-ins end as revokeSession ends one, and so do the grants no
 * session lists (an offline grant that outlived its browser session, a device's). On a tenant's path, that tenant's.
 */
export async function revokeUserSessions(scope: Scope, userId: string): Promise<boolean> {
  await getUser(scope, userId);
  // Read outside the transaction, as for the list: a grant of a browser session the policy ended is recorded as listed.
  const cutoffs = await grantHoldersCutoffs(scope, scope.em, new Date(), userId);
  await scope.transactional(async (em) => {
    const { grants } = await endSignIns(
      em,
      scope,
      scope.tenantId === null
        ? ofUser(userId, cutoffs)
        : {
            where: 's.user_id = ? and s.tenant_id = ?',
            params: [userId, scope.tenantId],
            ends: 'sign_in',
            credentialAgain: true,
            grants: {
              sql: `select g.id from oidc_model as g join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id
                where g.model = '${MODEL.Grant}' and @owner(g) and g.payload->>'${PAYLOAD.accountId}' = ? and gt.payload->>'${PAYLOAD.tenantId}' = ?`,
              params: [userId, scope.tenantId],
            },
            cutoffs,
          },
      null,
    );
    if (scope.tenantId === null) await endProvenSignIns(em, scope.applicationId, userId);
    changed(em, ...grantsEnded(grants));
  });
  return true;
}

interface ValidationFacts {
  grant_tenant: string | null;
  grant_sign_in: GrantSignInRow | null;
  token_user_id: string;
  token_client_id: string;
  token_grant_id: string;
  token_model: string;
  token_issuer: string | null;
  valid_until: Date | string | null;
  pool_id: string;
  /** A refresh token's issue (its chain's last use) and its chain's first, epoch seconds. */
  token_iat: number | null;
  token_iiat: number | null;
  /** The browser session's sign-in and last use, epoch seconds. */
  login_ts: number | null;
  used_at: number | null;
}

export interface SessionValidation {
  readonly valid: boolean;
  readonly session: SessionView | null;
}

const INVALID: SessionValidation = { valid: false, session: null };

/** A JWT with its claims is well under this. */
const TOKEN_MAX = 8192;

type VerifiedClaims = Awaited<ReturnType<SigningKeyStore['verifyOwnAccessToken']>>;

const isJwt = (token: string): boolean => token.split('.').length === 3;

/** Null when not signed with one of the service's keys as they are now (a revoked one is none), or expired. */
async function verifiedClaims(scope: Scope, token: string): Promise<VerifiedClaims | null> {
  try {
    return await scope.services.signingKeys.verifyOwnAccessToken(token);
  } catch {
    return null;
  }
}

/**
 * A JWT access token's verified claims (as parameters), or an opaque token the OP stores, unexpired and unconsumed.
 * Undefined when it cannot be one of ours (a client-credentials token names no session).
 */
function tokenSource(scope: Scope, token: string, claims: VerifiedClaims | undefined, now: Date): { cte: string; params: unknown[] } | undefined {
  if (claims !== undefined) {
    const { iss: issuer, app_id: applicationId, sub: userId, client_id: clientId, grant_id: grantId, exp, aud } = claims;
    if (typeof applicationId !== 'string' || typeof userId !== 'string' || typeof clientId !== 'string' || typeof grantId !== 'string') return undefined;
    if (typeof issuer !== 'string' || applicationId !== scope.applicationId || !isUuid(userId) || !isUuid(clientId)) return undefined;
    return {
      cte: `select ?::text as application_id, ?::text as user_id, ?::text as client_id, ?::text as grant_id, '${MODEL.AccessToken}' as model, ?::timestamptz as expires_at,
        ?::text as issuer, null::bigint as iat, null::bigint as iiat, ?::boolean as management_api`,
      params: [applicationId, userId, clientId, grantId, exp === undefined ? null : new Date(exp * 1000), issuer, aud === scope.services.signingKeys.managementAudience],
    };
  }
  // Opaque tokens are the OP's base64url ids.
  if (!/^[\w-]+$/.test(token)) return undefined;
  return {
    cte: `select application_id::text, payload->>'${PAYLOAD.accountId}' as user_id, payload->>'${PAYLOAD.clientId}' as client_id, grant_id, model, expires_at, payload->>? as issuer,
        (payload->>'${PAYLOAD.iat}')::bigint as iat, (payload->>'${PAYLOAD.iiat}')::bigint as iiat, false as management_api
      from oidc_model where model in ('${MODEL.AccessToken}', '${MODEL.RefreshToken}') and id = ? and consumed_at is null and (expires_at is null or expires_at > ?::timestamptz)`,
    params: [ISSUER_KEY, token, now],
  };
}

/** As the OP judges at the token's or session's next use (findAccount): a policy made stricter ends them before their save. */
function endedByPolicy(policy: SessionPolicy, row: ValidationFacts, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  if (browserSessionEnded(policy, row, seconds)) return true;
  return row.token_model === MODEL.RefreshToken && row.token_iat !== null && signInEnded(policy, row.token_iiat ?? row.token_iat, row.token_iat, seconds);
}

const browserSessionEnded = (policy: SessionPolicy, row: ValidationFacts, seconds: number): boolean =>
  row.login_ts !== null && signInEnded(policy, row.login_ts, row.used_at ?? undefined, seconds);

/** At most one write per minute per session (and per instance). */
const touched = new LRUCache<string, number>({ max: 100_000 });
const ACTIVITY_RESOLUTION_MS = 60_000;

/** None of the token, grant and session has one: the cache's lifetime alone bounds the answer. */
const NO_END = new Date(8.64e15);

/** Token, grant, user and browser session (if any) live and of the scope, and the token's issuer still a surface of its
 *  tenant (a deleted domain's tokens, or those of a tenant path whose slug passed on, are not). Anything else, another
 *  application's token included, is `valid: false`, which says nothing of why. Cached a few seconds (validation-cache.ts). */
export async function validateSession(scope: Scope, token: string): Promise<SessionValidation> {
  if (token.length === 0 || token.length > TOKEN_MAX) throw invalid('token', `token must be 1 to ${TOKEN_MAX} characters`);
  // This instance's clock, as for listing (LIVE).
  const now = new Date();
  // A JWT's signature on every validation, a remembered one's too: a revoked signing key ends its tokens at once.
  const claims = isJwt(token) ? await verifiedClaims(scope, token) : undefined;
  if (claims === null) return INVALID;
  const known = await scope.services.sessionValidations.find(scope.applicationId, token, now, () => readValidToken(scope, token, claims, now));
  if (known === undefined) return INVALID;
  if (scope.tenantId !== null && known.tenantId !== scope.tenantId) return INVALID;
  if (!(await scope.services.surfaces.issuerServesToken(known.issuer, known))) return INVALID;
  // A grant's sign-in is active when it refreshes (grant-sign-ins.ts), not when validated.
  return { valid: true, session: known.browserSession ? await markActive(scope, known.session) : known.session };
}

type ValidationRow = Partial<SessionRow> & ValidationFacts;

/** Undefined when not valid. A management API token only while its client may obtain one, as for a Bearer. */
async function readValidToken(scope: Scope, token: string, claims: VerifiedClaims | undefined, now: Date): Promise<KnownValidToken | undefined> {
  const source = tokenSource(scope, token, claims, now);
  if (source === undefined) return undefined;
  // Most users are of the shared pool: its cutoffs known, one statement reads what the policy stands.
  const shared = await policyCutoffs(scope, [SHARED_POOL], now);
  let row = await validationFacts(scope, source, now, shared);
  if (row === undefined) return undefined;
  const policy = await poolSessionPolicy(scope.services, scope.requestId, scope.applicationId, row.pool_id);
  // Of another pool, a browser session the policy has ended holds its grant no more, and a grant's own sign-in ends by
  // the policy too (grantSignInsSql): read again, its pool's cutoffs known. A second statement only then.
  if (!(row.pool_id in shared) && (row.id == null || browserSessionEnded(policy, row, Math.floor(now.getTime() / 1000)))) {
    row = await validationFacts(scope, source, now, { [row.pool_id]: standingSignInsSince(policy, now.getTime() / 1000) });
    if (row === undefined) return undefined;
  }
  if (endedByPolicy(policy, row, now)) return undefined;
  // The end the list and GET show, which also bounds how long the answer is kept.
  const session = row.id == null ? grantView(row.grant_sign_in!) : endUnderPolicy(policy, view(row as SessionRow), row);
  const validUntil = row.valid_until === null ? NO_END : new Date(row.valid_until);
  return {
    applicationId: scope.applicationId,
    userId: row.token_user_id,
    grantId: row.token_grant_id,
    clientId: row.token_client_id,
    tenantId: row.grant_tenant,
    issuer: row.token_issuer ?? scope.services.surfaces.service.issuer,
    session,
    browserSession: row.id != null,
    refreshToken: row.token_model === MODEL.RefreshToken,
    validUntil: row.id == null ? validUntil : new Date(Math.min(validUntil.getTime(), session.expiresAt.getTime())),
  };
}

/** One statement: the token, its grant and user, and the sign-in that lists the grant (a browser session standing under
 *  `cutoffs`, else the grant's own). */
async function validationFacts(scope: Scope, source: { cte: string; params: unknown[] }, now: Date, cutoffs: PolicyCutoffs): Promise<ValidationRow | undefined> {
  const signIn = grantSignInsSql('and g.id = t.grant_id', [], now, { cutoffs });
  const [row] = await executeOwned<ValidationRow[]>(
    scope.em,
    scope.applicationId,
    `with t as (${source.cte})
     select ${COLUMNS}, gt.payload->>'${PAYLOAD.tenantId}' as grant_tenant, to_jsonb(gs) as grant_sign_in,
       t.user_id as token_user_id, t.client_id as token_client_id, t.grant_id as token_grant_id, t.model as token_model, t.issuer as token_issuer,
       u.pool_id, t.iat::float8 as token_iat, t.iiat::float8 as token_iiat, s.login_ts, s.used_at,
       least(t.expires_at, g.expires_at, s.expires_at, s.op_expires_at) as valid_until
       from t
       join app_user as u on @owner(u) and t.application_id = u.application_id::text and u.id = ${uuidOrNullSql('t.user_id')}
       join oidc_model as g on g.model = '${MODEL.Grant}' and g.id = t.grant_id and g.application_id = u.application_id
        and g.payload->>'${PAYLOAD.accountId}' = t.user_id and g.payload->>'${PAYLOAD.clientId}' = t.client_id and (g.expires_at is null or g.expires_at > ?::timestamptz)
        and ${STANDING_CLIENT}
        and (not t.management_api or exists (select 1 from oauth_client as c where c.application_id = g.application_id and c.id = ${uuidOrNullSql('t.client_id')} and c.management_api))
       left join oidc_model as gt on gt.model = '${MODEL.GrantTenant}' and gt.id = g.id
       -- The sign-in that lists the grant: of the browser session that holds it, else the grant's own (none: not valid).
       left join lateral (select ${COLUMNS}, o.expires_at as op_expires_at, ${LOGIN_TS} as login_ts, ${USED_AT} as used_at from user_session as s join oidc_model as o on o.model = '${MODEL.Session}' and o.uid = s.op_session_uid
          where s.application_id = u.application_id and s.user_id = u.id and s.tenant_id::text is not distinct from gt.payload->>'${PAYLOAD.tenantId}'
            and o.payload->'${PAYLOAD.authorizations}'->t.client_id->>'${PAYLOAD.grantId}' = g.id
            and s.expires_at > ?::timestamptz and (o.expires_at is null or o.expires_at > ?::timestamptz) and o.payload->>'${PAYLOAD.accountId}' = t.user_id
            and ${standsUnderPolicy('u.pool_id::text')}
          limit 1) as s on true
       left join lateral (${signIn.sql}) as gs on s.id is null
      where ${userStands(GRANT_TENANT)} and (s.id is not null or gs.id is not null)`,
    [...source.params, now, now, now, ...cutoffsParams(cutoffs), ...signIn.params],
  );
  return row;
}

/** Unless this instance did so less than a minute ago (nor another: the statement's guard). */
async function markActive(scope: Scope, session: SessionView): Promise<SessionView> {
  const now = Date.now();
  if (now - (touched.get(session.id) ?? 0) < ACTIVITY_RESOLUTION_MS) return session;
  touched.set(session.id, now);
  await executeOwned(
    scope.em,
    scope.applicationId,
    `update user_session set last_active_at = now() where @owner and id = ? and last_active_at < now() - interval '1 minute'`,
    [session.id],
  );
  return { ...session, lastActiveAt: new Date(Math.max(now, session.lastActiveAt.getTime())) };
}
