import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { ownSessions } from '../domain/sessions/own-sessions.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { activeUser, admitSignIn, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import type { SignInUser } from '../domain/users/sign-in-user.ts';
import { changeOwnName, changeOwnPassword, signOutElsewhere, type OwnChange } from '../domain/users/own-account.ts';
import { listCredentials } from '../domain/webauthn/credentials.ts';
import { newCredentialOptions } from '../domain/webauthn/factor.ts';
import { addOwnCredential, removeOwnCredential } from '../domain/webauthn/own-credentials.ts';
import { relyingPartyOf, type RelyingParty } from '../domain/webauthn/relying-party.ts';
import {
  accountPage,
  NAME_SECTION,
  PASSKEYS_SECTION,
  PASSWORD_SECTION,
  SESSIONS_SECTION,
  type AccountForm,
  type AccountSectionView,
  type AccountView,
} from '../pages/account.ts';
import type { CopyKey } from '../pages/pages.ts';
import { sendPage } from '../pages/reply.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';

/**
 * The hosted account page: `/account?client_id={client}[&tenant={tenant}]` on every sign-in surface (the service's
 * URL, a tenant's path `/t/{tenant}/account`, a custom domain), the address an application links to. The user is the
 * one signed in to the client's application on that surface, by the OP's browser session (services.oidc
 * .accountBrowser); nobody, or a user the surface does not sign in, is sent through the client's sign-in, which comes
 * back here (src/oidc/account-session.ts). Each form is CSRF-protected by a token bound to the OP session.
 */

interface SurfaceParams {
  tenantRef?: string;
}

/** Form fields by name (the hosted scope's parser: a field sent twice is null). */
type FormFields = Readonly<Record<string, string | null>>;

/** The page open in a browser with a signed-in user. */
interface OpenAccount {
  readonly target: SignInTarget;
  readonly user: SignInUser;
  readonly sessionUid: string;
  /** The page's own parameters, carried by its forms and its redirects. */
  readonly params: Readonly<Record<string, string>>;
  /** The page's address on its surface. */
  readonly path: string;
  /** The surface's WebAuthn relying party, where the user's new keys are registered. */
  readonly rp: RelyingParty;
}

/** A section of the page and, when it has a form, what posting it does: one entry per section. */
interface AccountSection {
  readonly view: AccountSectionView;
  /** Whether the surface offers the section (default: always); a form of one it does not offer is refused. */
  readonly offered?: (target: SignInTarget) => boolean;
  readonly action: { readonly path: string; readonly done: CopyKey; readonly run: (open: OpenAccount, fields: FormFields) => Promise<OwnChange> };
}

const SECTIONS: readonly AccountSection[] = [
  { view: NAME_SECTION, action: { path: 'name', done: 'account.nameDone', run: (open, fields) => changeOwnName(open.target, open.user.id, fields['name']) } },
  {
    view: PASSWORD_SECTION,
    action: {
      path: 'password',
      done: 'account.passwordDone',
      run: (open, fields) =>
        changeOwnPassword(open.target, open.user.id, { current: fields['current_password'], password: fields['new_password'], keepSessionUid: open.sessionUid, reason: 'account' }),
    },
  },
  {
    view: PASSKEYS_SECTION,
    offered: (target) => passkeysOffered(target),
    action: {
      path: 'passkeys',
      done: 'account.passkeysDone',
      run: (open, fields) =>
        fields['remove'] === undefined
          ? addOwnCredential(open.target, open.rp, open.user.id, fields['credential'], fields['passkey_name'])
          : removeOwnCredential(open.target, open.user.id, fields['remove']),
    },
  },
  { view: SESSIONS_SECTION, action: { path: 'sign-out-others', done: 'account.signOutOthersDone', run: (open) => signOutElsewhere(open.target, open.user.id, open.sessionUid) } },
];

/** Keys are offered where they work: to sign in (a passkey provider), or as a second factor the MFA policy asks for. */
const passkeysOffered = (target: SignInTarget) => target.passkey !== null || (target.mfa.enforcement !== 'off' && target.mfa.factors.includes('webauthn'));

const offeredSections = (target: SignInTarget) => SECTIONS.filter((section) => section.offered?.(target) ?? true);

/** The CSRF purpose of the account page's forms (the token is bound to the OP session's uid). */
const CSRF_PURPOSE = 'account';

/** The account page's address on a surface (`tenantRef`: a tenant path's), for the client `clientId`. */
export const accountPagePath = (tenantRef: string | undefined, clientId: string) =>
  `${tenantRef === undefined ? '' : `/t/${encodeURIComponent(tenantRef)}`}/account?${new URLSearchParams({ client_id: clientId })}`;

const single = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function accountPageRoutes(app: FastifyInstance, services: Services, csrf: CsrfTokens): void {
  /**
   * The browser's account on the page's surface for the client the page names (`values`: its query, or its form): the
   * open page, or where to sign in first (undefined when the client cannot sign in from a browser).
   */
  async function open(request: FastifyRequest<{ Params: SurfaceParams }>, reply: FastifyReply, values: Record<string, unknown>) {
    const { tenantRef } = request.params;
    const surface = await services.surfaces.forRequest(request.headers.host, tenantRef, request.raw.url);
    if (surface === null) throw new SignInRefusal('no_such_page');
    const clientId = single(values['client_id']) ?? '';
    const tenant = single(values['tenant']);
    const browser = await services.oidc.accountBrowser(surface, { clientId, tenant }, request.raw, reply.raw);
    if (browser === undefined) throw new SignInRefusal('account_unavailable');
    const target = await admitSignIn(services, request.id, surface, browser.client, tenant === undefined ? [] : [tenant]);
    if (target === undefined) throw new SignInRefusal('account_unavailable');
    const signedIn = browser.session === undefined ? null : await activeUser(target, browser.session.accountId);
    // A page asked for a tenant is its members' (in its look): anyone else signs in as one of them first.
    const user = signedIn !== null && (target.tenant === null || signedIn.tenantIds.includes(target.tenant.id)) ? signedIn : null;
    if (user === null || browser.session === undefined) return { signIn: browser.signInUrl, target } as const;
    const path = tenantRef === undefined ? '/account' : `/t/${encodeURIComponent(tenantRef)}/account`;
    const params = { client_id: clientId, ...(tenant === undefined ? {} : { tenant }) };
    return { target, account: { target, user, sessionUid: browser.session.uid, params, path, rp: relyingPartyOf(surface) } satisfies OpenAccount } as const;
  }

  async function show(reply: FastifyReply, account: OpenAccount, status: number, outcome: Pick<AccountView, 'done' | 'refused'>) {
    const { target, user } = account;
    const [passwordPolicy, { sessions, currentId }] = await Promise.all([
      effectivePasswordPolicy(target.scope, target.policyTenantId),
      ownSessions(target.applicationScope, user.id, account.sessionUid),
    ]);
    const sections = offeredSections(target);
    const passkeys = sections.some((section) => section.view === PASSKEYS_SECTION)
      ? {
          passkeys: {
            keys: await listCredentials(target.applicationScope.em, target.application.id, user.id),
            options: await newCredentialOptions(target, account.rp, user),
          },
        }
      : {};
    const view: AccountView = {
      email: user.email,
      name: user.name ?? null,
      passwordPolicy,
      sessions: sessions.map((session) => ({
        current: session.id === currentId,
        device: session.userAgent,
        ip: session.ip,
        createdAt: session.createdAt,
        lastActiveAt: session.lastActiveAt,
      })),
      ...passkeys,
      ...outcome,
    };
    const form = (action: string): AccountForm => ({ action: `${account.path}/${action}`, csrf: csrf.issue(account.sessionUid, CSRF_PURPOSE), params: account.params });
    return sendPage(reply, status, (nonce) => accountPage(target.look, nonce, view, sections.map((section) => section.view), form));
  }

  for (const prefix of ['', '/t/:tenantRef']) {
    app.get<{ Params: SurfaceParams }>(`${prefix}/account`, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const opened = await open(request, reply, query);
      if (opened.account === undefined) {
        // Back from a sign-in that did not complete: said, not started again.
        if (query['error'] !== undefined) throw new SignInRefusal('account_sign_in_failed', opened.target.look);
        if (opened.signIn === undefined) throw new SignInRefusal('account_unavailable', opened.target.look);
        return reply.status(303).header('location', opened.signIn).send();
      }
      const done = SECTIONS.find((section) => section.action.path === query['done'])?.action.done;
      return show(reply, opened.account, 200, { done });
    });

    for (const { view, action, offered } of SECTIONS) {
      app.post<{ Params: SurfaceParams }>(`${prefix}/account/${action.path}`, async (request, reply) => {
        const fields = (request.body ?? {}) as FormFields;
        const opened = await open(request, reply, fields);
        // Signed out meanwhile (or never signed in): the form's token is bound to a session that is gone.
        if (opened.account === undefined || !csrf.verify(opened.account.sessionUid, fields['csrf'], CSRF_PURPOSE)) {
          throw new SignInRefusal('account_form_forged', opened.target.look);
        }
        const { account } = opened;
        if (offered?.(account.target) === false) throw new SignInRefusal('passkey_unavailable', account.target.look);
        const outcome = await action.run(account, fields);
        if (!outcome.ok) {
          const refused = outcome.reason === 'wrong_current' ? { copy: 'account.wrongPassword' as const, errors: [] } : { errors: outcome.errors };
          return show(reply, account, 400, { refused: { section: view.id, ...refused, name: fields['name'] ?? '' } });
        }
        const query = new URLSearchParams({ ...account.params, done: action.path });
        return reply.status(303).header('location', `${account.path}?${query}`).send();
      });
    }
  }
}
