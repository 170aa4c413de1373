import type { MikroORM } from '@mikro-orm/postgresql';
import Provider from 'oidc-provider';
import type { AuditActor } from '../domain/audit/audit.ts';
import { endOtherSessions } from '../domain/sessions/end-sessions.ts';
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
  if (sessionPolicyOf(Provider.ctx)?.singleSession !== true) return;
  const actor: AuditActor = {
    applicationId: signIn.applicationId,
    tenantId: signIn.tenantId,
    requestId: opRequestId(Provider.ctx),
    principal: { actor: { type: 'user', id: signIn.userId } },
  };
  const ended = await endOtherSessions(deps.orm.em.fork(), actor, signIn.userId, signIn.uid);
  if (ended.length > 0) await deps.invalidations.publish({ kind: 'user', id: signIn.userId });
}
