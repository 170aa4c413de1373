import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { ownSignIns } from '../domain/sessions/own-sessions.ts';
import {
  addOwnEmailFactor,
  addOwnTotp,
  confirmOwnCode,
  ownFactors,
  removeOwnFactor,
  renewOwnRecoveryCodes,
  sendOwnConfirmation,
  sendOwnEmailCode,
} from '../domain/mfa/own-factors.ts';
import { sessionOwesStep } from '../domain/mfa/requirement.ts';
import { newTotpSecret, totpUri } from '../domain/mfa/totp.ts';
import { summarizeUserAgent } from '../domain/sign-in/device.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { signInEnded } from '../domain/sign-in/session.ts';
import { activeUser, admitSignIn, revokedSignIn, suspended, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import type { SignInUser } from '../domain/users/sign-in-user.ts';
import {
  changeOwnName,
  changeOwnPassword,
  confirmationDue,
  RECENT_SIGN_IN_SECONDS,
  requestOwnEmailChange,
  signOutElsewhere,
  type OwnChange,
  type OwnProof,
} from '../domain/users/own-account.ts';
import { listCredentials } from '../domain/webauthn/credentials.ts';
import { newCredentialOptions } from '../domain/webauthn/factor.ts';
import { addOwnCredential, removeOwnCredential } from '../domain/webauthn/own-credentials.ts';
import { relyingPartyOf, type RelyingParty } from '../domain/webauthn/relying-party.ts';
import {
  accountPage,
  CONFIRM_SECTION,
  EMAIL_SECTION,
  MFA_SECTION,
  NAME_SECTION,
  PASSKEYS_SECTION,
  PASSWORD_SECTION,
  SESSIONS_SECTION,
  type AccountForm,
  type AccountSectionView,
  type AccountView,
} from '../pages/account.ts';
import type { CopyKey } from '../pages/pages.ts';
import { browserLook, sendPage } from '../pages/reply.ts';
import type { Services } from '../services.ts';
import { hostedCookie, secureCookiesFor } from './cookies.ts';
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
  readonly signedInAt: number | undefined;
  /** How it signed in (the OP session's methods), and when this session typed the page's mailed code, if lately. */
  readonly methods: readonly string[];
  readonly confirmedAt: number | undefined;
  /** The client's sign-in, where a change asks for a recent one. */
  readonly signInUrl: string;
  /** The page's own parameters, carried by its forms and its redirects. */
  readonly params: Readonly<Record<string, string>>;
  /** The page's address on its surface. */
  readonly path: string;
  /** The surface's WebAuthn relying party, where the user's new keys are registered. */
  readonly rp: RelyingParty;
}

/** What posting one of a section's forms does: its address under the page's, and its notice once done. */
interface AccountAction {
  readonly path: string;
  readonly done: CopyKey;
  readonly run: (open: OpenAccount, fields: FormFields) => Promise<OwnChange>;
  /** Done, it proves the user to this browser session for a while (the page's mailed code). */
  readonly confirms?: true;
}

/** A section of the page and what its forms do: one entry per section. */
interface AccountSection {
  readonly view: AccountSectionView;
  /** Whether the surface offers the section (default: always); a form of one it does not offer is refused. */
  readonly offered?: (target: SignInTarget) => boolean;
  readonly actions: readonly AccountAction[];
}

/** How long a TOTP secret the page shows may be added with: the page open that long. */
const TOTP_SETUP_SECONDS = 3600;
/** The seal of the TOTP secret the page offers: the page's session and its user. */
const totpSealPurpose = (open: OpenAccount) => `${open.sessionUid}:account-totp:${open.user.id}`;

/** A change to the password, address, keys and factors is proven by the password typed in `field`, or a recent sign-in,
 *  or the page's mailed code (ownProofRefusal). */
const proofOf = (open: OpenAccount, fields: FormFields, field: string): OwnProof => ({
  password: fields[field],
  signedInAt: open.signedInAt,
  methods: open.methods,
  confirmedAt: open.confirmedAt,
});

/** The seal of the page's mailed code typed back: the page's session and its user. */
const confirmedPurpose = (sessionUid: string, userId: string) => `${sessionUid}:account-confirmed:${userId}`;

/** Keys are offered where they work: to sign in (a passkey provider), or as a second factor the MFA policy asks for. */
const passkeysOffered = (target: SignInTarget) => target.passkey !== null || (target.mfa.enforcement !== 'off' && target.mfa.factors.includes('webauthn'));

function sections(csrf: CsrfTokens): readonly AccountSection[] {
  const totpOf = (open: OpenAccount, fields: FormFields) => csrf.unseal(totpSealPurpose(open), fields['enrol']);
  return [
    {
      view: CONFIRM_SECTION,
      actions: [
        { path: 'confirm-send', done: 'account.confirmSent', run: (open) => sendOwnConfirmation(open.target, open.user) },
        { path: 'confirm', done: 'account.confirmed', confirms: true, run: (open, fields) => confirmOwnCode(open.target, open.user, fields['confirm_code']) },
      ],
    },
    { view: NAME_SECTION, actions: [{ path: 'name', done: 'account.nameDone', run: (open, fields) => changeOwnName(open.target, open.user.id, fields['name']) }] },
    {
      view: EMAIL_SECTION,
      actions: [
        {
          path: 'email',
          done: 'account.emailChangeSent',
          run: (open, fields) => requestOwnEmailChange(open.target, open.user, fields['new_email'], proofOf(open, fields, 'email_password')),
        },
      ],
    },
    {
      view: PASSWORD_SECTION,
      actions: [
        {
          path: 'password',
          done: 'account.passwordDone',
          run: (open, fields) =>
            changeOwnPassword(open.target, open.user, {
              proof: proofOf(open, fields, 'current_password'),
              password: fields['new_password'],
              keepSessionUid: open.sessionUid,
              reason: 'account',
            }),
        },
      ],
    },
    {
      view: MFA_SECTION,
      actions: [
        { path: 'mfa-remove', done: 'account.removeDone', run: (open, fields) => removeOwnFactor(open.target, open.user, fields['factor'], proofOf(open, fields, 'remove_password')) },
        { path: 'mfa-recovery-codes', done: 'account.codesShown', run: (open, fields) => renewOwnRecoveryCodes(open.target, open.user, proofOf(open, fields, 'codes_password')) },
        {
          path: 'mfa-totp',
          done: 'account.factorAdded',
          run: async (open, fields) => {
            const secret = totpOf(open, fields);
            if (secret === undefined) throw new SignInRefusal('account_form_forged', open.target.look);
            return addOwnTotp(open.target, open.user, open.rp.id, secret, fields['totp_code'], proofOf(open, fields, 'totp_password'));
          },
        },
        {
          path: 'mfa-email-send',
          done: 'account.emailSent',
          run: (open) => sendOwnEmailCode(open.target, open.user, open.rp.id),
        },
        {
          path: 'mfa-email',
          done: 'account.factorAdded',
          run: (open, fields) => addOwnEmailFactor(open.target, open.user, open.rp.id, fields['email_code'], proofOf(open, fields, 'email_factor_password')),
        },
      ],
    },
    {
      view: PASSKEYS_SECTION,
      offered: passkeysOffered,
      actions: [
        {
          path: 'passkeys',
          done: 'account.passkeysDone',
          run: (open, fields) =>
            fields['remove'] === undefined
              ? addOwnCredential(open.target, open.rp, open.sessionUid, open.user, fields['credential'], fields['passkey_name'], proofOf(open, fields, 'passkey_add_password'))
              : removeOwnCredential(open.target, open.user, fields['remove'], proofOf(open, fields, 'passkey_password')),
        },
      ],
    },
    { view: SESSIONS_SECTION, actions: [{ path: 'sign-out-others', done: 'account.signOutOthersDone', run: (open) => signOutElsewhere(open.target, open.user.id, open.sessionUid) }] },
  ];
}

const refusalErrors = (outcome: Extract<OwnChange, { ok: false; reason: 'wrong_current' | 'invalid' }>) =>
  outcome.reason === 'wrong_current' ? [{ key: 'account.wrongPassword' } as const] : outcome.errors;

/** The CSRF purpose of the account page's forms (the token is bound to the OP session's uid). */
const CSRF_PURPOSE = 'account';

/** The seal of the page's user in its forms, which outlives their session: how long a page stays open. */
const HOLDER_PURPOSE = 'account-holder';
const HOLDER_SECONDS = 12 * 3600;

/** The account page's address on a surface (`tenantRef`: a tenant path's), for the client `clientId`. */
export const accountPagePath = (tenantRef: string | undefined, clientId: string) =>
  `${tenantRef === undefined ? '' : `/t/${encodeURIComponent(tenantRef)}`}/account?${new URLSearchParams({ client_id: clientId })}`;

const single = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function accountPageRoutes(app: FastifyInstance, services: Services, csrf: CsrfTokens, throttled: RouteShorthandOptions): void {
  const pageSections = sections(csrf);
  const confirmedCookie = hostedCookie(secureCookiesFor(services.config.publicUrl), 'gh_account_confirmed');
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
    // A client that signs no browser in (device, M2M) has no page, whoever the browser session holds.
    if (browser?.signInUrl === undefined) throw new SignInRefusal('account_unavailable');
    const signInUrl = browser.signInUrl;
    const admitted = await admitSignIn(services, request.id, surface, browser.client, tenant === undefined ? [] : [tenant]);
    if (admitted === undefined) throw new SignInRefusal('account_unavailable');
    const target = { ...admitted, look: browserLook(request, admitted.look) };
    // Judged as the OP judges it (findAccount, and the MFA policy's login check): a sign-in the session policy has ended
    // since, or one that owes the step to a policy made required since, holds nobody here either.
    const loginTs = browser.session?.loginTs;
    const ended =
      browser.session !== undefined &&
      ((loginTs !== undefined && signInEnded(target.session, loginTs, browser.session.usedAt, Math.floor(Date.now() / 1000))) ||
        sessionOwesStep({ policy: target.mfa, changedAt: target.mfaChangedAt }, { acr: browser.session.acr, loginTs, checkedAt: browser.session.mfaCheckedAt }));
    const signedIn = browser.session === undefined || ended ? null : await activeUser(target, browser.session.accountId);
    // A page asked for a tenant is its members' (in its look): anyone else signs in as one of them first. A member whose
    // sign-in to it was revoked in this browser session signs in again with a credential, as authorize asks. A page of
    // no tenant is the user's wherever the browser session stands (a revocation leaves it standing for another tenant).
    const member = signedIn !== null && (target.tenant === null || signedIn.tenantIds.includes(target.tenant.id)) ? signedIn : null;
    const revoked =
      member !== null &&
      browser.session !== undefined &&
      target.tenant !== null &&
      (await revokedSignIn(target, { applicationId: target.application.id, uid: browser.session.uid, userId: member.id }));
    const user = revoked ? null : member;
    if (user === null || browser.session === undefined) return { signIn: signInUrl, target } as const;
    const path = tenantRef === undefined ? '/account' : `/t/${encodeURIComponent(tenantRef)}/account`;
    const params = { client_id: clientId, ...(tenant === undefined ? {} : { tenant }) };
    const confirmed = csrf.unseal(confirmedPurpose(browser.session.uid, user.id), confirmedCookie.read(request));
    const confirmedAt = confirmed === undefined ? undefined : Number(confirmed);
    const { uid: sessionUid, methods } = browser.session;
    const account = { target, user, sessionUid, signedInAt: loginTs, methods, confirmedAt, signInUrl, params, path, rp: relyingPartyOf(surface) };
    return { target, account: account satisfies OpenAccount } as const;
  }

  /** The page, with the outcome of the last change; `shown`: the MFA section's secrets shown once (new recovery codes, the TOTP secret a refused code was for). */
  async function show(reply: FastifyReply, account: OpenAccount, status: number, outcome: Pick<AccountView, 'done' | 'refused'>, shown: { codes?: readonly string[]; totp?: string } = {}) {
    const { target, user } = account;
    const [passwordPolicy, signIns, factors] = await Promise.all([
      effectivePasswordPolicy(target.scope, target.policyTenantId),
      ownSignIns(target.applicationScope, user, account.sessionUid),
      ownFactors(target, user.id, account.rp.id),
    ]);
    const secret = factors.addable.includes('totp') ? (shown.totp ?? newTotpSecret()) : undefined;
    const totp = secret === undefined ? undefined : { secret, uri: totpUri(secret, target.look.name, user.email), sealed: csrf.seal(totpSealPurpose(account), secret, TOTP_SETUP_SECONDS) };
    const offered = pageSections.filter((section) => section.offered?.(target) ?? true);
    const passkeys = offered.some((section) => section.view === PASSKEYS_SECTION)
      ? {
          passkeys: {
            keys: await listCredentials(target.applicationScope.em, target.application.id, user.id),
            options: await newCredentialOptions(target, account.rp, account.sessionUid, user),
          },
        }
      : {};
    const view: AccountView = {
      email: user.email,
      name: user.name ?? null,
      hasPassword: user.passwordHash != null,
      confirmationDue: confirmationDue(user, account),
      passwordPolicy,
      signIns: {
        sessions: signIns.sessions.map((session) => ({
          current: session.current,
          device: summarizeUserAgent(session.userAgent),
          tenant: session.tenantName,
          ip: session.ip,
          createdAt: session.createdAt,
          lastActiveAt: session.lastActiveAt,
        })),
        apps: signIns.grants.map((grant) => ({ client: grant.clientName, tenant: grant.tenantName, createdAt: grant.createdAt, lastActiveAt: grant.lastActiveAt })),
        unlisted: signIns.unlisted,
        others: signIns.others,
        // The list and the button reach the user's other tenants too: said where they belong to any.
        reach: user.tenantIds.length < 2 ? 'page' : target.tenant === null ? 'every' : 'tenants',
      },
      mfa: { enforcement: target.mfa.enforcement, factors: factors.held, addable: factors.addable, unusedRecoveryCodes: factors.unusedRecoveryCodes, totp, codes: shown.codes },
      ...passkeys,
      ...outcome,
    };
    const form = (action: string): AccountForm => ({
      action: `${account.path}/${action}`,
      csrf: csrf.issue(account.sessionUid, CSRF_PURPOSE),
      holder: csrf.seal(HOLDER_PURPOSE, user.id, HOLDER_SECONDS),
      params: account.params,
    });
    return sendPage(reply, status, (nonce) => accountPage(target.look, nonce, view, offered.map((section) => section.view), form));
  }

  for (const prefix of ['', '/t/:tenantRef']) {
    app.get<{ Params: SurfaceParams }>(`${prefix}/account`, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const opened = await open(request, reply, query);
      if (opened.account === undefined) {
        // Back from a sign-in that did not complete: said, not started again.
        if (query['error'] !== undefined) throw new SignInRefusal('account_sign_in_failed', opened.target.look);
        return reply.status(303).header('location', opened.signIn).send();
      }
      const done = pageSections.flatMap((section) => section.actions).find((action) => action.path === query['done'])?.done;
      return show(reply, opened.account, 200, { done });
    });

    for (const { offered, actions } of pageSections) {
      for (const action of actions) {
        app.post<{ Params: SurfaceParams }>(`${prefix}/account/${action.path}`, throttled, async (request, reply) => {
          const fields = (request.body ?? {}) as FormFields;
          const opened = await open(request, reply, fields);
          if (opened.account === undefined) {
            // A suspension ends the user's sessions: the page's holder, sealed in its forms, is told why their form failed.
            const holder = csrf.unseal(HOLDER_PURPOSE, fields['holder']);
            if (holder !== undefined && (await suspended(opened.target, holder))) throw new SignInRefusal('account_suspended', opened.target.look);
          }
          // Signed out meanwhile (or never signed in): the form's token is bound to a session that is gone.
          if (opened.account === undefined || !csrf.verify(opened.account.sessionUid, fields['csrf'], CSRF_PURPOSE)) {
            throw new SignInRefusal('account_form_forged', opened.target.look);
          }
          const { account } = opened;
          if (offered?.(account.target) === false) throw new SignInRefusal('passkey_unavailable', account.target.look);
          const outcome = await action.run(account, fields);
          if (!outcome.ok) {
            if (outcome.reason === 'inactive') throw new SignInRefusal('account_suspended', account.target.look);
            const totp = action.path === 'mfa-totp' ? csrf.unseal(totpSealPurpose(account), fields['enrol']) : undefined;
            const typed = { name: fields['name'] ?? '', email: fields['new_email'] ?? '' };
            const said = outcome.reason === 'sign_in_again' ? { errors: [{ key: 'account.signInAgain' } as const], signInAgain: account.signInUrl } : { errors: refusalErrors(outcome) };
            return show(reply, account, 400, { refused: { section: action.path, ...said, ...typed } }, totp === undefined ? {} : { totp });
          }
          // Recovery codes are shown in the answer itself, once: never on a page a reload or a redirect shows again.
          if (outcome.shown !== undefined && outcome.shown.length > 0) {
            return show(reply, account, 200, action.path === 'mfa-recovery-codes' ? {} : { done: action.done }, { codes: outcome.shown });
          }
          if (action.confirms === true) {
            const sealed = csrf.seal(confirmedPurpose(account.sessionUid, account.user.id), String(Math.floor(Date.now() / 1000)), RECENT_SIGN_IN_SECONDS);
            reply.header('set-cookie', confirmedCookie.set(account.path, sealed, RECENT_SIGN_IN_SECONDS));
          }
          const query = new URLSearchParams({ ...account.params, done: action.path });
          return reply.status(303).header('location', `${account.path}?${query}`).send();
        });
      }
    }
  }
}
