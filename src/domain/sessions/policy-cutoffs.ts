import type { Scope } from '../../context.ts';
import { executeOwned, type SqlRunner } from '../../db/owned-sql.ts';
import { MODEL, PAYLOAD } from '../../db/oidc-model.ts';
import { poolSessionPolicies, standingSignInsSince } from '../sign-in/session.ts';
import type { PolicyCutoffs } from './grant-sign-ins.ts';

/** The session policy by pool, as it is now, for the statements that judge sign-ins by it (grant-sign-ins.ts). Read before
 *  any transaction: the policy is read on a connection of its own (one connection embedded). */

type PolicyReader = Pick<Scope, 'services' | 'requestId' | 'applicationId'>;

/** The policy of each of `poolIds` as it is now, in a constant number of statements whatever their number. */
export async function policyCutoffs(reader: PolicyReader, poolIds: readonly string[], now: Date): Promise<PolicyCutoffs> {
  const policies = await poolSessionPolicies(reader.services, reader.requestId, reader.applicationId, poolIds);
  return Object.fromEntries([...policies].map(([poolId, policy]) => [poolId, standingSignInsSince(policy, now.getTime() / 1000)]));
}

/** The cutoffs of every pool whose users (`userId`'s only, when given) have a grant not past its stored end: those a
 *  sign-in may be of (a browser session holds a grant of its user). `runner` outside any transaction. */
export async function grantHoldersCutoffs(reader: PolicyReader, runner: SqlRunner, now: Date, userId?: string): Promise<PolicyCutoffs> {
  const pools = await executeOwned<{ pool_id: string }[]>(
    runner,
    reader.applicationId,
    `select distinct u.pool_id from oidc_model as g join app_user as u on u.application_id = g.application_id and u.id::text = g.payload->>'${PAYLOAD.accountId}'
      where g.model = '${MODEL.Grant}' and @owner(g) and (g.expires_at is null or g.expires_at > ?::timestamptz)${userId === undefined ? '' : ` and g.payload->>'${PAYLOAD.accountId}' = ?`}`,
    [now, ...(userId === undefined ? [] : [userId])],
  );
  return policyCutoffs(
    reader,
    pools.map((row) => row.pool_id),
    now,
  );
}

/** A user's (those of their pool), for a caller about to open its transaction. */
export const userCutoffs = (scope: PolicyReader & Pick<Scope, 'em'>, userId: string): Promise<PolicyCutoffs> =>
  grantHoldersCutoffs(scope, scope.em, new Date(), userId);
