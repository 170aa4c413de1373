import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { endUsersSessions } from '../sessions/end-sessions.ts';
import type { Services } from '../../services.ts';
import type { SamlIdentity, SamlProvider } from './saml.ts';

/**
 * SAML single logout started at the IdP: a LogoutRequest (saml.ts checks it) names a NameID, which each SAML sign-in
 * recorded with its user for as long as the session it began may live; the IdP's logout then ends every browser
 * session of that user in the application, as its administrator's "sign out everywhere" would.
 */

/** `sessionMinutes`: the session policy's absolute timeout, past which no session of this sign-in stands. */
export async function rememberSamlSubject(em: EntityManager, applicationId: string, identity: SamlIdentity, userId: string, sessionMinutes: number): Promise<void> {
  if (identity.nameId === null) return;
  await executeOwned(em, applicationId, 'delete from saml_subject where @owner and expires_at < now()');
  await em.getConnection().execute(
    `insert into saml_subject (application_id, provider_id, name_id, user_id, expires_at) values (?, ?, ?, ?, now() + make_interval(mins => ?::int))
     on conflict (application_id, provider_id, name_id) do update set user_id = excluded.user_id, expires_at = excluded.expires_at`,
    [applicationId, identity.providerId, identity.nameId, userId, sessionMinutes],
  );
}

const SAML_LOGOUT_ACTOR = { actor: { type: 'system', id: 'saml-logout' } } as const;

/** False when no sign-in of `nameId` through the provider is known (the IdP is answered UnknownPrincipal). */
export async function endSamlSubjectSessions(services: Services, provider: SamlProvider, nameId: string, requestId: string): Promise<boolean> {
  const ended = await services.orm.em.fork().transactional(async (em) => {
    const subjects = await executeOwned<{ user_id: string }[]>(
      em,
      provider.applicationId,
      'select user_id from saml_subject where @owner and provider_id = ? and name_id = ? and expires_at > now()',
      [provider.id, nameId],
    );
    if (subjects.length === 0) return null;
    const actor = { applicationId: provider.applicationId, tenantId: provider.tenantId, requestId, principal: SAML_LOGOUT_ACTOR };
    return endUsersSessions(em, actor, subjects.map((subject) => subject.user_id));
  });
  if (ended === null) return false;
  await Promise.all(ended.map((id) => services.invalidations.publish({ kind: 'grant', id })));
  return true;
}
