import type { MikroORM } from '@mikro-orm/postgresql';
import Provider from 'oidc-provider';
import type { AuditActor } from '../domain/audit/audit.ts';
import { endOtherSessions } from '../domain/sessions/end-sessions.ts';
import { standingSignInsSince } from '../domain/sign-in/session.ts';
import { executeOwned } from '../db/owned-sql.ts';
import type { InvalidationBus } from '../events/invalidations.ts';
import { opRequestId } from './op-request-id.ts';
import { sessionPolicyOf } from './session-lifetime.ts';

interface NewSignIn {
  readonly applicationId: string;
  readonly tenantId: string | null;
  readonly userId: string;
  /** The OP session's. */
  readonly uid: string;
}

/** `singleSession` (src/domain/sessions/end-sessions.ts): a sign-in ends the user's other sessions, the user as the
 *  actor; instances then forget the user's tokens. */
export async function endSessionsBesides(deps: { readonly orm: MikroORM; readonly invalidations: InvalidationBus }, signIn: NewSignIn): Promise<void> {
  const policy = sessionPolicyOf(Provider.ctx);
  if (policy?.singleSession !== true) return;
  const actor: AuditActor = {
    applicationId: signIn.applicationId,
    tenantId: signIn.tenantId,
    requestId: opRequestId(Provider.ctx),
    principal: { actor: { type: 'user', id: signIn.userId } },
  };
  const em = deps.orm.em.fork();
  // The policy findAccount read for this sign-in is the user's pool's: a grant of a session it ended is recorded as listed.
  const [user] = await executeOwned<{ pool_id: string }[]>(em, signIn.applicationId, 'select pool_id from app_user where @owner and id = ?', [signIn.userId]);
  const cutoffs = user === undefined ? {} : { [user.pool_id]: standingSignInsSince(policy, Date.now() / 1000) };
  const ended = await endOtherSessions(em, actor, signIn.userId, signIn.uid, cutoffs);
  if (ended.length > 0) await deps.invalidations.publish({ kind: 'user', id: signIn.userId });
}
