import type { EntityManager } from '@mikro-orm/postgresql';
import { executeOwned } from '../../db/owned-sql.ts';
import { forgetGrants } from '../../events/invalidations.ts';
import { endUserSignIns } from '../sessions/end-sessions.ts';
import { grantHoldersCutoffs } from '../sessions/policy-cutoffs.ts';
import type { DomainServices } from '../../services.ts';
import { findSamlProvider, samlLogoutUrl, samlUrls, type SamlDeps, type SamlIdentity, type SamlProvider } from './saml.ts';

/** SAML single logout both ways, for providers with an `sloUrl`; each SAML sign-in records its NameID for its session's
 *  life. The IdP's LogoutRequest ends every sign-in (grant sign-ins included) of each user that NameID signed in as
 *  through the provider, as "sign out everywhere" would; ours goes out after the OP's logout, for the last NameID. */

/** `sessionMinutes`: the session policy's absolute timeout, past which no session of this sign-in stands. */
export async function rememberSamlSubject(em: EntityManager, applicationId: string, identity: SamlIdentity, userId: string, sessionMinutes: number): Promise<void> {
  // An older instance's sealed proof carries no NameID.
  if (typeof identity.nameId !== 'string' || identity.nameId === '') return;
  await em.getConnection().execute(
    `insert into saml_subject (application_id, provider_id, name_id, name_id_format, user_id, expires_at) values (?, ?, ?, ?, ?, now() + make_interval(mins => ?::int))
     on conflict (application_id, provider_id, name_id, user_id) do update set name_id_format = excluded.name_id_format, expires_at = excluded.expires_at`,
    [applicationId, identity.providerId, identity.nameId, identity.nameIdFormat ?? null, userId, sessionMinutes],
  );
}

/** A provider moved to another IdP: its NameIDs are that IdP's to speak of, and the new one's same NameID is someone else. */
export async function forgetSamlSubjects(em: EntityManager, applicationId: string, providerId: string): Promise<void> {
  await executeOwned(em, applicationId, 'delete from saml_subject where @owner and provider_id = ?', [providerId]);
}

const SAML_LOGOUT_ACTOR = { actor: { type: 'system', id: 'saml-logout' } } as const;

/** False when no sign-in of `nameId` through the provider is known (the IdP is answered UnknownPrincipal). */
export async function endSamlSubjectSessions(
  services: DomainServices,
  provider: SamlProvider,
  nameId: string,
  requestId: string,
): Promise<boolean> {
  // Read before the transaction: a grant of a browser session the policy ended is recorded as the list shows it.
  const cutoffs = await grantHoldersCutoffs({ services, requestId, applicationId: provider.applicationId }, services.orm.em.fork(), new Date());
  const grants = await services.orm.em.fork().transactional(async (em) => {
    const subjects = await executeOwned<{ user_id: string }[]>(
      em,
      provider.applicationId,
      'select user_id from saml_subject where @owner and provider_id = ? and name_id = ? and expires_at > now()',
      [provider.id, nameId],
    );
    if (subjects.length === 0) return null;
    const actor = { applicationId: provider.applicationId, tenantId: provider.tenantId, requestId, principal: SAML_LOGOUT_ACTOR };
    const grants: string[] = [];
    for (const { user_id: userId } of subjects) grants.push(...(await endUserSignIns(em, actor, userId, 'saml_logout', cutoffs)).grants);
    return grants;
  });
  if (grants === null) return false;
  await forgetGrants(services.invalidations, grants);
  return true;
}

/** The logout's way through the IdP, for the OP (src/oidc/saml-sign-out.ts). */
export interface SamlSignOut {
  /** The origins a logout passes through after its confirmation (the IdP's, then our SLO endpoint's), which the form's CSP
   *  must allow: browsers check form-action on each redirect after it. */
  formTargets(applicationId: string, userId: string): Promise<string[]>;
  /** The IdP's URL with a LogoutRequest for the user, whose answer sends the browser to `returnTo`; undefined: none applies. */
  start(applicationId: string, userId: string, returnTo: string): Promise<string | undefined>;
}

interface Subject {
  readonly provider: SamlProvider;
  readonly nameId: string;
  readonly nameIdFormat: string | null;
}

/** The NameID the user last signed in as through a provider with single logout, still within its session's life. */
async function lastSubject(deps: SamlDeps, applicationId: string, userId: string): Promise<Subject | undefined> {
  const [row] = await executeOwned<{ provider_id: string; name_id: string; name_id_format: string | null }[]>(
    deps.orm.em.getConnection(),
    applicationId,
    `select s.provider_id, s.name_id, s.name_id_format from saml_subject as s
       join auth_provider as p on p.application_id = s.application_id and p.id = s.provider_id
      where @owner(s) and s.user_id = ? and s.expires_at > now() and p.config->>'sloUrl' is not null
      order by s.expires_at desc limit 1`,
    [userId],
  );
  const provider = row === undefined ? null : await findSamlProvider(deps.orm, row.provider_id);
  return provider === null ? undefined : { provider, nameId: row!.name_id, nameIdFormat: row!.name_id_format };
}

export function samlSignOut(deps: SamlDeps): SamlSignOut {
  return {
    async formTargets(applicationId, userId) {
      const provider = (await lastSubject(deps, applicationId, userId))?.provider;
      const idp = provider?.config.sloUrl;
      return provider === undefined || idp === undefined || idp === null ? [] : [new URL(idp).origin, new URL(samlUrls(deps.publicUrl, provider).sloUrl).origin];
    },
    async start(applicationId, userId, returnTo) {
      const subject = await lastSubject(deps, applicationId, userId);
      return subject === undefined ? undefined : samlLogoutUrl(deps, subject.provider, subject, returnTo);
    },
  };
}
