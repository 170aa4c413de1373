import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { hashPassword, verifyPassword } from '../auth/password-hash.ts';
import { endUserScope, type PageOpener } from '../context.ts';
import { executeOwned } from '../db/owned-sql.ts';
import { SHARED_POOL } from '../db/entities/user.entity.ts';
import { askedForLock, AskedForMail, passwordChangedMail, tenantOf, welcomeMail, type MailContext } from '../domain/email/flow-mail.ts';
import type { MailSender } from '../domain/email/outbox.ts';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { refuseDeactivated } from '../domain/sign-in/refusals.ts';
import { surfaceSettings, type SurfaceSettings } from '../domain/sign-in/surface-settings.ts';
import { changeEmail, disownSignUp, resetPassword, restoreEmail, tellAddressLeft, verifyEmail } from '../domain/users/account-changes.ts';
import { findAnnouncedFactor, removeAnnouncedFactor } from '../domain/mfa/announced-factor.ts';
import { userCutoffs } from '../domain/sessions/policy-cutoffs.ts';
import { issueLink, parseLinkToken, peekLink, settleLinkProofTry, takeLinkProofTry, useLink, type LinkPurpose, type OpenedLinkUser } from '../domain/users/link-tokens.ts';
import { keepReplacedPassword, passwordViolations } from '../domain/users/password-history.ts';
import { passwordRefusals } from '../domain/policies/password.ts';
import { accountMade, donePage, errorPage, linkConfirmPage, newPasswordPage, type CopyKey, type CopyText, type LinkConfirmation, type Onward } from '../pages/pages.ts';
import { browserLook, namedSurfaceLook, sendPage } from '../pages/reply.ts';
import { doneWithAccountLink } from '../pages/account.ts';
import { accountPagePath } from './account.ts';
import { readClientHome } from '../domain/oauth-clients/client-home.ts';
import type { Services } from '../services.ts';

/**
 * The pages of the links e-mails carry (src/domain/sign-in/account-links.ts and the account page write them):
 * `/account/reset-password`, `/account/verify-email` and `/account/confirm-email` (an address change), under the surface
 * of the user's pool (the service's URL, an isolated tenant's `/t/{tenant}`, or the pool's custom domain).
 */
interface LinkParams {
  tenantRef?: string;
}

/**
 * A link opened on its surface: its user, the surface's settings and the user's e-mail; undefined when it does not work
 * here. Every page of a link (GET and POST) opens it here, so a deactivated organization's links are refused here alone.
 */
interface OpenedLink {
  readonly user: OpenedLinkUser;
  readonly settings: SurfaceSettings;
  readonly email: string;
  readonly name: string | null;
  readonly createdAt: Date;
  /** The issuer of the surface it was opened on. */
  readonly issuer: string;
}

async function openLink(services: Services, request: FastifyRequest<{ Params: LinkParams }>, token: unknown, purpose: LinkPurpose): Promise<OpenedLink | undefined> {
  const user = await peekLink(services.orm.em.fork(), token, purpose);
  if (user === undefined) return undefined;
  // A custom domain is the surface of its application (and tenant) alone, and has no tenant paths.
  const surface = await services.surfaces.forRequest(request.headers.host, request.params.tenantRef, request.raw.url);
  if (surface === null || (surface.kind === 'domain' && surface.applicationId !== user.applicationId)) return undefined;
  const surfaceTenant = surface.kind === 'domain' ? surface.tenantId : (request.params.tenantRef ?? null);
  // The shared pool's surfaces name no tenant: its links bring the tenant whose mail carried them.
  const tenantRef = surfaceTenant ?? (user.poolId === SHARED_POOL ? user.tenantId : null);
  const settings = await surfaceSettings(services, request.id, user.applicationId, tenantRef);
  // A link of one pool brought to another surface (another tenant's path, or the service's) works nowhere but its own.
  if (settings === undefined || settings.poolId !== user.poolId) return undefined;
  const look = browserLook(request, settings.look);
  await refuseDeactivated(services, user.applicationId, look);
  const [row] = await executeOwned<{ email: string; name: string | null; created_at: Date }[]>(
    services.orm.em.fork().getConnection(),
    user.applicationId,
    'select email, name, created_at from app_user where @owner and id = ?',
    [user.userId],
  );
  if (row === undefined) return undefined;
  return { user, settings: { ...settings, look }, email: row.email, name: row.name, createdAt: new Date(row.created_at), issuer: surface.issuer };
}

/** The user acts on their own account through the link (the audit's actor); mails go out in the surface's tenant. */
const linkActor = (services: Services, request: FastifyRequest, opened: OpenedLink): MailSender => ({
  applicationId: opened.user.applicationId,
  tenantId: opened.settings.policyTenantId,
  requestId: request.id,
  principal: { actor: { type: 'user', id: opened.user.userId } },
  services,
});

/** A mail that follows a link goes out in its page's tenant, which flow-mail.ts narrows to the account's as ever, and,
 *  to a user whose language is not known yet, in its page's language (as mailAt's). */
const pageMail = (em: MailContext['em'], sender: MailSender, opened: OpenedLink): MailContext => ({
  em,
  sender,
  tenantId: opened.settings.tenant?.id ?? null,
  pageLocale: opened.settings.look.locale,
});

const formField = (request: FastifyRequest, name: string): string | null | undefined => (request.body as Record<string, string | null> | undefined)?.[name];
const queryToken = (request: FastifyRequest) => (request.query as Record<string, unknown>)['token'];

/** The link pages: on the service's URL and under each tenant path (`/t/{tenant}`), each refusing the other's links. */
/** `throttled`: the sign-in's throttle, for the reset, whose refusals cost its history's Argon2 verifications. */
export function accountLinkRoutes(app: FastifyInstance, services: Services, throttled: RouteShorthandOptions): void {
  /** One page for an unknown, used, expired or misplaced link, in the look of the surface it was opened on. */
  async function invalidLink(request: FastifyRequest<{ Params: LinkParams }>, reply: FastifyReply, token: unknown) {
    const look = await namedSurfaceLook(services, request, parseLinkToken(token)?.applicationId, request.params.tenantRef ?? null);
    return sendPage(reply, 400, (nonce) => errorPage(look, nonce, { key: 'refusal.linkInvalid' }));
  }
  /** A done page links on to the application the link was asked from, where its client has a page. */
  const done = async (reply: FastifyReply, opened: OpenedLink, title: CopyKey, text: CopyKey) => {
    const onward = await clientHome(services, opened);
    return sendPage(reply, 200, (nonce) => donePage(opened.settings.look, nonce, title, text, {}, onward));
  };
  /** A change's done page: it links the account page of the OAuth client the link was asked from; an invitation's, none. */
  const changeDone = async (request: FastifyRequest<{ Params: LinkParams }>, reply: FastifyReply, opened: OpenedLink, title: CopyKey, texts: Readonly<Record<PageOpener['type'], CopyKey>>) => {
    const { opener } = opened.user;
    if (opener.type === 'invitation') return done(reply, opened, title, texts.invitation);
    const accountUrl = accountPagePath(request.params.tenantRef, opener.id);
    const onward = await clientHome(services, opened);
    return sendPage(reply, 200, (nonce) => doneWithAccountLink(opened.settings.look, nonce, title, texts.oauth_client, accountUrl, onward));
  };
  const scopeOf = (request: FastifyRequest, opened: OpenedLink) =>
    endUserScope(services, request.id, { opener: opened.user.opener, applicationId: opened.user.applicationId, tenantId: opened.settings.policyTenantId });

  /** A link's page before it acts: its one button posts the token back to the same address. */
  const confirmPage = (request: FastifyRequest, reply: FastifyReply, opened: OpenedLink, token: string, confirms: LinkConfirmation, values: Record<string, string>) => {
    // A verification names the account it confirms, whose maker may have typed someone else's address: its owner may refuse it.
    const refusable = confirms === 'verify' ? { details: accountMade(opened.settings.look, opened), refuse: 'verify.disown' as const } : {};
    return sendPage(reply, 200, (nonce) => linkConfirmPage(opened.settings.look, nonce, { action: request.url.split('?')[0]!, token, confirms, values, ...refusable }));
  };

  /** An mfa_enrolled mail's link's factor, while the user holds it: then the page says it goes, and asks the password. */
  const announcedFactor = (opened: OpenedLink) => {
    const { applicationId, userId, removesFactor } = opened.user;
    return removesFactor === null ? Promise.resolve(null) : findAnnouncedFactor(services.orm.em.fork().getConnection(), applicationId, userId, removesFactor.factorId);
  };

  /** The passwords a proof link (a factor's while the factor stands, a restore link) takes: the one it was sent under, and
   *  for a restore link those the account replaced shortly before; null: none asked. */
  const proofOf = async (opened: OpenedLink): Promise<readonly string[] | null> => {
    const { removesFactor, restores } = opened.user;
    if (restores !== null) return [restores.passwordHash, ...restores.earlierHashes];
    return removesFactor !== null && (await announcedFactor(opened)) !== null ? [removesFactor.passwordHash] : null;
  };

  async function showReset(request: FastifyRequest, reply: FastifyReply, opened: OpenedLink, token: string, refusal: { errors?: readonly CopyText[]; currentRefused?: boolean } = {}) {
    const passwordPolicy = await effectivePasswordPolicy(scopeOf(request, opened), opened.settings.policyTenantId);
    const removes = await announcedFactor(opened);
    const { restores } = opened.user;
    // A restore link's page sets the password of the address it gives back.
    const shown = restores === null ? { email: opened.email } : { email: restores.email, restores: { email: restores.email, current: opened.email, since: restores.addedSince } };
    const input = { action: request.url.split('?')[0]!, proof: { name: 'token' as const, value: token }, passwordPolicy, removes, ...shown, ...refusal };
    const refused = refusal.errors !== undefined || refusal.currentRefused === true;
    return sendPage(reply, refused ? 400 : 200, (nonce) => newPasswordPage(opened.settings.look, nonce, 'reset', input));
  }

  /** "I did not sign up" (disownSignUp); an address confirmed meanwhile is refused as a used link is. */
  async function disown(request: FastifyRequest<{ Params: LinkParams }>, reply: FastifyReply, opened: OpenedLink, token: unknown) {
    const actor = linkActor(services, request, opened);
    const cutoffs = await userCutoffs(scopeOf(request, opened), opened.user.userId);
    const disowned = await scopeOf(request, opened).transactional(async (em) => {
      if ((await useLink(em, token, 'verify_email')) === undefined) return false;
      const tenants = await disownSignUp(em, actor, opened.user.userId, { keepVouchingTenant: false }, cutoffs);
      // Nothing changes unless it was still unconfirmed: the link's use goes back with the rest.
      if (tenants === false) throw new LinkRefused();
      return true;
    }).catch((error: unknown) => {
      if (error instanceof LinkRefused) return false;
      throw error;
    });
    if (!disowned) return invalidLink(request, reply, token);
    return sendPage(reply, 200, (nonce) => donePage(opened.settings.look, nonce, 'verify.disownedTitle', 'verify.disownedText', { email: opened.email }));
  }

  for (const prefix of ['', '/t/:tenantRef']) {
    app.get<{ Params: LinkParams }>(`${prefix}/account/reset-password`, async (request, reply) => {
      const token = queryToken(request);
      const opened = await openLink(services, request, token, 'password_reset');
      if (opened === undefined) return invalidLink(request, reply, token);
      return showReset(request, reply, opened, token as string);
    });

    app.post<{ Params: LinkParams }>(`${prefix}/account/reset-password`, throttled, async (request, reply) => {
      const token = formField(request, 'token');
      const opened = await openLink(services, request, token, 'password_reset');
      if (opened === undefined) return invalidLink(request, reply, token);
      // The mailbox alone removes no factor and takes back no address: the password the account had when the link was
      // issued proves its owner.
      const proof = await proofOf(opened);
      if (proof !== null) {
        // A try taken first: passwords sent at once are checked no more times than the link has tries.
        if (!(await services.orm.em.fork().transactional((em) => takeLinkProofTry(em, token)))) return invalidLink(request, reply, token);
        const right = await verifiesAny(proof, formField(request, 'current') ?? '');
        const open = await services.orm.em.fork().transactional((em) => settleLinkProofTry(em, token, right));
        if (!right) return open ? showReset(request, reply, opened, token!, { currentRefused: true }) : invalidLink(request, reply, token);
      }
      const password = formField(request, 'password') ?? '';
      const policy = await effectivePasswordPolicy(scopeOf(request, opened), opened.settings.policyTenantId);
      const of = { applicationId: opened.user.applicationId, userId: opened.user.userId };
      const refused = passwordRefusals(await passwordViolations(services.orm.em.fork(), policy, password, of));
      if (refused.length > 0) return showReset(request, reply, opened, token!, { errors: refused });
      const passwordHash = await hashPassword(password);
      const actor = linkActor(services, request, opened);
      const cutoffs = await userCutoffs(scopeOf(request, opened), opened.user.userId);
      const changed = await changedEmail(() => scopeOf(request, opened).transactional(async (em) => {
        // Used here, in the transaction of the change: of two posts of one link, one changes the password.
        const used = await useLink(em, token, 'password_reset');
        if (used === undefined) return undefined;
        // Taken meanwhile by another account: the link's use goes back with the rest, for when the address is free again.
        const moved = used.restores === null ? undefined : await restoreEmail(em, actor, used.userId, used.restores);
        if (moved === 'taken') throw new AddressTaken();
        await keepReplacedPassword(em, of.applicationId, of.userId, policy.historyCount);
        const account = await resetPassword(em, actor, opened.user.userId, passwordHash, cutoffs);
        if (account === undefined) return undefined;
        if (used.removesFactor !== null) await removeAnnouncedFactor(em, actor, used.userId, used.removesFactor.factorId);
        // Its link is a new reset link: the owner's way back if the change was not theirs.
        const at = pageMail(em, actor, opened);
        const owner = { ...account, id: opened.user.userId };
        const again = await issueLink(em, { ...opened.user, tenantId: await tenantOf(at, owner) }, 'password_reset', services.config.publicUrl);
        await passwordChangedMail(at, owner, { link: again.link, changedAt: new Date() });
        if (moved !== undefined) await tellAddressLeft(at, used.userId, moved);
        return { restored: moved !== undefined };
      })).catch((error: unknown) => {
        if (error instanceof AddressTaken) return 'taken' as const;
        throw error;
      });
      if (changed === 'taken') return sendPage(reply, 409, (nonce) => errorPage(opened.settings.look, nonce, { key: 'refusal.emailTaken' }));
      if (changed === undefined) return invalidLink(request, reply, token);
      services.outbox.wake();
      if (changed.restored) return changeDone(request, reply, opened, 'reset.restoredTitle', { oauth_client: 'reset.restoredText', invitation: 'reset.restoredText' });
      return changeDone(request, reply, opened, 'reset.doneTitle', { oauth_client: 'reset.doneText', invitation: 'reset.doneInvitation' });
    });

    app.get<{ Params: LinkParams }>(`${prefix}/account/verify-email`, async (request, reply) => {
      const token = queryToken(request);
      const opened = await openLink(services, request, token, 'verify_email');
      if (opened === undefined) return invalidLink(request, reply, token);
      return confirmPage(request, reply, opened, token as string, 'verify', { email: opened.email });
    });

    app.post<{ Params: LinkParams }>(`${prefix}/account/verify-email`, async (request, reply) => {
      const token = formField(request, 'token');
      const opened = await openLink(services, request, token, 'verify_email');
      if (opened === undefined) return invalidLink(request, reply, token);
      if (formField(request, 'disown') !== undefined) return disown(request, reply, opened, token);
      const actor = linkActor(services, request, opened);
      const welcome = { link: await applicationLink(services, opened) };
      const verified = await scopeOf(request, opened).transactional(async (em) => {
        if ((await useLink(em, token, 'verify_email')) === undefined) return false;
        // The address the page showed, whose mail lock the transaction holds: one changed since is not proven by this link.
        const account = await verifyEmail(em, actor, opened.user.userId, opened.email);
        // The account is ready once its address is proven: welcome, pointing at the application the user came from.
        if (account !== undefined) {
          const admitted = await AskedForMail.admit(pageMail(em, actor, opened), account.email);
          if (admitted !== null) await welcomeMail(admitted, { ...account, id: opened.user.userId }, welcome);
        }
        return true;
      }, askedForLock(opened.user.applicationId, opened.email));
      if (!verified) return invalidLink(request, reply, token);
      services.outbox.wake();
      return done(reply, opened, 'verify.doneTitle', 'verify.doneText');
    });

    app.get<{ Params: LinkParams }>(`${prefix}/account/confirm-email`, async (request, reply) => {
      const token = queryToken(request);
      const opened = await openLink(services, request, token, 'email_change');
      if (opened?.user.newEmail == null) return invalidLink(request, reply, token);
      return confirmPage(request, reply, opened, token as string, 'emailChange', { email: opened.email, newEmail: opened.user.newEmail });
    });

    app.post<{ Params: LinkParams }>(`${prefix}/account/confirm-email`, async (request, reply) => {
      const token = formField(request, 'token');
      const opened = await openLink(services, request, token, 'email_change');
      if (opened === undefined) return invalidLink(request, reply, token);
      const actor = linkActor(services, request, opened);
      const changed = await changedEmail(() =>
        scopeOf(request, opened).transactional(async (em) => {
          // The address of the link used, in the transaction of the change: of two posts of one link, one changes it.
          const used = await useLink(em, token, 'email_change');
          if (used?.newEmail == null) return undefined;
          const moved = await changeEmail(em, actor, opened.user.userId, used.newEmail);
          if (moved === undefined || moved === 'taken') return moved;
          // The old address is told, with its owner's way back should the change not be theirs.
          await tellAddressLeft(pageMail(em, actor, opened), used.userId, moved, { user: used, addedSince: moved.addedSince });
          return moved;
        }),
      );
      if (changed === 'taken') return sendPage(reply, 409, (nonce) => errorPage(opened.settings.look, nonce, { key: 'refusal.emailTaken' }));
      if (changed === undefined) return invalidLink(request, reply, token);
      services.outbox.wake();
      return changeDone(request, reply, opened, 'emailChange.doneTitle', { oauth_client: 'emailChange.doneText', invitation: 'emailChange.doneText' });
    });
  }
}

/** The page of the OAuth client the link was asked from, where it has one (an invitation's link: none). */
async function clientHome(services: Services, opened: OpenedLink): Promise<Onward | undefined> {
  const { opener } = opened.user;
  if (opener.type !== 'oauth_client') return undefined;
  return readClientHome(services.orm.em.fork().getConnection(), opened.user.applicationId, opener.id, opened.issuer);
}

/** Where the welcome mail's "Sign in" leads: the application of the client the user signed up with, else the service. */
async function applicationLink(services: Services, opened: OpenedLink): Promise<string> {
  return (await clientHome(services, opened))?.url ?? services.config.publicUrl;
}

/** Each hash costs an Argon2 verification: checked in turn until one matches. */
async function verifiesAny(hashes: readonly string[], password: string): Promise<boolean> {
  for (const hash of hashes) {
    if (await verifyPassword(hash, password)) return true;
  }
  return false;
}

/** A link that turned out not to apply, after it was used in the transaction: the transaction rolls back. */
class LinkRefused extends Error {}

/** A restore link's address another account of the pool holds: the transaction rolls back, the link kept. */
class AddressTaken extends Error {}

/** An address taken between the check and the write, as the pool's unique key refuses it, is taken too. */
async function changedEmail<T>(change: () => Promise<T>): Promise<T | 'taken'> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return 'taken';
    throw error;
  }
}
