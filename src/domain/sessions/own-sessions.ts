import type { EntityManager } from '@mikro-orm/postgresql';
import type { Scope } from '../../context.ts';
import { executeOwned } from '../../db/owned-sql.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { PAGE_SIZE_MAX } from '../pagination.ts';
import { countsAcrossTenants, endUserSignIns } from './end-sessions.ts';
import { grantSignInsSql, type PolicyCutoffs } from './grant-sign-ins.ts';
import { currentAndNewestSessions, type OwnSessionView } from './sessions.ts';
import { policyCutoffs } from './policy-cutoffs.ts';

/** An app or device signed in by a grant no standing browser session holds (grant-sign-ins.ts), with its dates. */
export interface OwnGrantView {
  readonly id: string;
  readonly clientName: string;
  readonly tenantName: string | null;
  readonly createdAt: Date;
  readonly lastActiveAt: Date;
}

/** What the user's own page lists of their sign-ins, and what "sign out everywhere else" (endSignInsElsewhere) ends. */
export interface OwnSignIns {
  /** Those of the page's browser session (`current`, one per tenant) first, then the newest. */
  readonly sessions: readonly OwnSessionView[];
  /** Listed after the sessions, the newest first, within the same `limit`. */
  readonly grants: readonly OwnGrantView[];
  /** The sign-ins beyond `limit`, not listed. */
  readonly unlisted: number;
  /** Every sign-in that ends elsewhere: the other sessions and the grants. */
  readonly others: number;
}

interface GrantRow {
  id: string;
  client_name: string;
  tenant_name: string | null;
  created_at: Date;
  last_active_at: Date;
  total: number;
}

export async function ownSignIns(applicationScope: Scope, user: { id: string; poolId: string }, currentUid: string, limit = PAGE_SIZE_MAX): Promise<OwnSignIns> {
  const now = new Date();
  const [{ sessions, total }, grants] = await Promise.all([
    currentAndNewestSessions(applicationScope, user, currentUid, limit),
    grantsOutsideSessions(applicationScope, user.id, await policyCutoffs(applicationScope, [user.poolId], now), now, limit),
  ]);
  const listedGrants = grants.slice(0, Math.max(0, limit - sessions.length));
  const grantCount = grants[0]?.total ?? 0;
  return {
    sessions,
    grants: listedGrants.map((row) => ({
      id: row.id,
      clientName: row.client_name,
      tenantName: row.tenant_name,
      createdAt: new Date(row.created_at),
      lastActiveAt: new Date(row.last_active_at),
    })),
    unlisted: total + grantCount - sessions.length - listedGrants.length,
    others: total - sessions.filter((session) => session.current).length + grantCount,
  };
}

/** The user's grant sign-ins (grant-sign-ins.ts): the newest `limit`, each row with their count. */
function grantsOutsideSessions(scope: Scope, userId: string, cutoffs: PolicyCutoffs, now: Date, limit: number): Promise<GrantRow[]> {
  const signIns = grantSignInsSql(`and u.id = ?`, [userId], now, { cutoffs });
  return executeOwned<GrantRow[]>(
    scope.em,
    scope.applicationId,
    `select gs.grant_id as id, c.name as client_name, t.name as tenant_name, gs.created_at, gs.last_active_at, count(*) over ()::int as total
       from (${signIns.sql}) as gs
       join oauth_client as c on @owner(c) and c.id = gs.client_id
       left join tenant as t on @owner(t) and t.id = gs.tenant_id
      order by gs.created_at desc, gs.grant_id
      limit ?`,
    [...signIns.params, limit],
  );
}

/**
 * "Sign out everywhere else": every sign-in but those of OP session `currentUid` ends, each recorded, and the user's
 * act with its counts. Returns the grants revoked, whose cached Bearer tokens the caller forgets after the commit.
 */
export async function endSignInsElsewhere(em: EntityManager, actor: AuditActor, userId: string, currentUid: string, cutoffs: PolicyCutoffs): Promise<string[]> {
  const ended = await endUserSignIns(em, actor, userId, 'signed_out_elsewhere', cutoffs, currentUid);
  recordAudit(em, actor, {
    action: 'user.sessions.ended',
    targetType: 'user',
    targetId: userId,
    after: countsAcrossTenants(ended),
  });
  return ended.grants;
}
