import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashPassword } from '../auth/password-hash.ts';
import { endUserScope } from '../context.ts';
import type { Invitation } from '../db/entities/index.ts';
import { TENANT_PATH_PREFIX, type Surface } from '../domain/domains/surfaces.ts';
import { acceptInvitation, accountStanding, findInvitationByToken, refusedPassword, type AcceptOutcome } from '../domain/invitations/accept.ts';
import { holdsPasskey, invitationPasskeyOptions, passkeyOnly, provenInvitationPasskey } from '../domain/invitations/passkey.ts';
import { INVITATION_PAGE_PATH, invitationLanding, invitationLink, invitationPool, invitationStatus } from '../domain/invitations/invitations.ts';
import type { PasswordPolicy } from '../domain/policies/definitions.ts';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { readSignInUser, type SignInUser } from '../domain/users/sign-in-user.ts';
import { typedName } from '../domain/typed-fields.ts';
import { englishCopy } from '../domain/branding/copy/index.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';
import { refuseDeactivated, SignInRefusal } from '../domain/sign-in/refusals.ts';
import { type InvitationTarget } from '../domain/sign-in/sign-in.ts';
import { INVITATION_CODE_MINUTES, mailInvitationCode, proveInvitationCode, proveInvitationPassword } from '../domain/invitations/proof.ts';
import { mailPasswordReset } from '../domain/sign-in/account-links.ts';
import { surfaceSettings } from '../domain/sign-in/surface-settings.ts';
import { document, emailField, escapeHtml, field, formError, hidden, notice, onwardLink, passwordRules, plainText, said, text, type CopyKey, type CopyText, type PageLook, type RenderedPage } from '../pages/pages.ts';
import { browserLook, namedSurfaceLook, sendPage } from '../pages/reply.ts';
import { type SignInThrottle } from '../pages/throttle.ts';
import { guessingAddress } from '../http/request-origin.ts';
import { newId } from '../ids.ts';
import { webauthnForm } from '../pages/webauthn.ts';
import { relyingPartyFor } from './passkey.ts';

/**
 * The page an invitation's link opens (API.md, Invitation), on the surface of its tenant. The mailed link proves the
 * mailbox: the invitee makes an account, or an existing one proves its password where it has one (else only confirms),
 * and joins the tenant with the invitation's roles. A passkey-only surface makes a key as it accepts, for an existing
 * account only with a code mailed to it then, as links get forwarded. Nothing signs the browser in.
 */

const REFUSALS = {
  unknown: 'invitation.unknown',
  accepted: 'invitation.accepted',
  revoked: 'invitation.revoked',
  expired: 'invitation.expired',
  elsewhere: 'invitation.elsewhere',
  ownSurface: 'invitation.ownSurface',
  suspended: 'invitation.suspended',
  locked: 'invitation.locked',
} as const satisfies Record<string, CopyKey>;
type Refusal = keyof typeof REFUSALS;

interface SurfaceParams {
  tenantRef?: string;
}

/** An existing account's password is `required` where the surface and the account have one; else the link is the proof. */
interface FormKind {
  /** It joins instead of a new account. */
  readonly existing: boolean;
  readonly password: 'required' | 'optional' | 'none';
  /**
   * The existing account's address was never proven: its password was set by whoever typed the address. The page points
   * at "Forgot your password?", whose mailed link proves the mailbox.
   */
  readonly unverified: boolean;
  /** The surface's only way in, which the account has none of. */
  readonly passkey: boolean;
}

/** A forwarded link must not add a key to an existing account: a code mailed to it then does (proof.ts). */
const asksCode = (kind: FormKind) => kind.existing && kind.passkey;

/** Besides what the surface offers every account. */
interface Held {
  readonly password: boolean;
  readonly passkey: boolean;
}

interface Opened {
  readonly invitation: Invitation;
  readonly target: InvitationTarget;
  readonly account: SignInUser | null;
  /** Read where the surface offers passkeys. */
  readonly accountPasskey: boolean;
  readonly kind: FormKind;
  readonly issuer: string;
}

const NOTHING_HELD: Held = { password: false, passkey: false };

function formKind(target: InvitationTarget, account: SignInUser | null, accountPasskey: boolean): FormKind {
  const passkey = passkeyOnly(target) && !accountPasskey;
  if (account !== null) {
    return { existing: true, password: target.password.signIn && account.passwordHash != null ? 'required' : 'none', unverified: account.emailVerified !== true, passkey };
  }
  if (!target.password.signIn) return { existing: false, password: 'none', unverified: false, passkey };
  return { existing: false, password: waysIn(target.look, target, NOTHING_HELD) === undefined ? 'required' : 'optional', unverified: false, passkey };
}

/** For the done page and the optional password's hint. */
function waysIn(look: PageLook, target: InvitationTarget, held: Held): string | undefined {
  const ways = [
    ...(held.password && target.password.signIn ? [plainText(look, 'invitation.byPassword')] : []),
    ...(held.passkey && target.passkey !== null ? [plainText(look, 'invitation.byPasskey')] : []),
    ...(target.email.link ? [plainText(look, 'invitation.byEmailLink')] : []),
    ...(target.email.code ? [plainText(look, 'invitation.byEmailCode')] : []),
    ...target.upstreams.map((upstream) => upstream.name),
    ...target.saml.map((provider) => provider.name),
  ];
  return ways.length === 0 ? undefined : new Intl.ListFormat(look.locale, { type: 'disjunction' }).format(ways);
}

function refusalPage(look: PageLook, nonce: string, refusal: Refusal): RenderedPage {
  return notice(look, nonce, text(look, 'invitation.errorTitle'), [text(look, REFUSALS[refusal])], true);
}

interface FormInput {
  readonly action: string;
  readonly token: string;
  readonly csrf: string;
  readonly email: string;
  readonly kind: FormKind;
  /** Said under an optional password. */
  readonly otherWays: string | undefined;
  readonly name?: string;
  readonly error?: CopyText;
  readonly notice?: CopyText;
  readonly passwordErrors?: readonly CopyText[];
  /** Stated under the field (WCAG 3.3.2). */
  readonly passwordPolicy: PasswordPolicy;
  /** A fresh challenge, and the user it is for. */
  readonly passkey?: { readonly options: unknown; readonly userId: string };
}

const INTRO: Readonly<Record<'new' | 'signIn' | 'signInUnverified' | 'confirm' | 'newPasskey' | 'addPasskey', CopyKey>> = {
  new: 'invitation.createText',
  signIn: 'invitation.signInText',
  signInUnverified: 'invitation.unverifiedText',
  confirm: 'invitation.confirmText',
  newPasskey: 'invitation.createPasskeyText',
  addPasskey: 'invitation.addPasskeyText',
};

function introOf(kind: FormKind): keyof typeof INTRO {
  if (kind.passkey) return kind.existing ? 'addPasskey' : 'newPasskey';
  if (!kind.existing) return 'new';
  if (kind.password === 'none') return 'confirm';
  return kind.unverified ? 'signInUnverified' : 'signIn';
}

function passwordField(look: PageLook, input: FormInput, invalid: boolean, describedBy: readonly string[]): string {
  const { existing, password } = input.kind;
  const messages = input.passwordErrors ?? [];
  const errors = messages.length === 0 ? '' : `<p id="password-error" class="field-error">${messages.map((message) => said(look, message)).join('<br>')}</p>\n`;
  const optional = password === 'optional' && input.otherWays !== undefined ? [{ id: 'password-optional', hint: text(look, 'invitation.passwordOptional', { methods: input.otherWays }) }] : [];
  const hints = existing ? [] : [...optional, { id: 'password-rules', hint: passwordRules(look, input.passwordPolicy) }];
  return field({
    id: 'password',
    label: text(look, 'login.password'),
    type: 'password',
    autocomplete: existing ? 'current-password' : 'new-password',
    required: password === 'required',
    describedBy: [...describedBy, ...hints.map(({ id }) => id)],
    invalid,
    focus: invalid,
    extra: `${hints.map(({ id, hint }) => `<p id="${id}" class="hint">${hint}</p>\n`).join('')}${errors}`,
  });
}

/** The kind of form posted: one for an account the pool no longer holds is shown again as opening the link shows it now. */
const FORM_EXISTING = 'existing';
const FORM_NEW = 'new';

/** Where it makes a passkey, the button runs the browser's ceremony and posts its answer with the rest. */
function invitationPage(look: PageLook, nonce: string, input: FormInput): RenderedPage {
  const { existing, password } = input.kind;
  const messages = input.passwordErrors ?? [];
  const invalid = input.error !== undefined || messages.length > 0;
  const describedBy = [...(input.error === undefined ? [] : ['form-error']), ...(messages.length === 0 ? [] : ['password-error'])];
  const fields =
    hidden('token', input.token) +
    hidden('form', existing ? FORM_EXISTING : FORM_NEW) +
    (input.passkey === undefined ? '' : hidden('user', input.passkey.userId)) +
    emailField({ label: text(look, 'login.email'), value: input.email, describedBy: [], invalid: false, extra: '' }).replace('<input ', '<input readonly ') +
    (existing
      ? ''
      : field({ id: 'name', label: text(look, 'signup.name'), type: 'text', autocomplete: 'name', value: input.name ?? '', required: false, describedBy: [], invalid: false })) +
    (password === 'none' ? '' : passwordField(look, input, invalid, describedBy)) +
    (asksCode(input.kind)
      ? field({ id: 'code', label: text(look, 'invitation.code'), type: 'text', autocomplete: 'one-time-code', attributes: ' inputmode="numeric" maxlength="6"', describedBy, invalid, focus: invalid })
      : '');
  const formStart = `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}`;
  // Sent on a click only: a page load (a mail scanner's) sends nothing.
  const sendCode = asksCode(input.kind)
    ? `${formStart}${hidden('token', input.token)}${hidden('sendCode', '1')}<button type="submit" class="secondary">${text(look, 'invitation.sendCode')}</button>\n</form>\n`
    : '';
  const form =
    input.passkey === undefined
      ? `${formStart}${fields}<button type="submit">${text(look, 'invitation.submit')}</button>\n</form>\n`
      : webauthnForm({ action: input.action, csrf: input.csrf, ceremony: 'create', options: input.passkey.options, fields, label: text(look, 'invitation.passkeySubmit') });
  // A reset link to the invited address is the way on for whoever does not know the password.
  const forgot =
    existing && password === 'required'
      ? `${formStart}${hidden('token', input.token)}${hidden('forgot', '1')}<button type="submit" class="secondary">${text(look, 'login.forgot')}</button>\n</form>\n`
      : '';
  const body =
    `<h1>${text(look, 'invitation.title')}</h1>\n<p class="subtitle">${text(look, INTRO[introOf(input.kind)])}</p>\n` +
    (input.notice === undefined ? '' : `<p class="notice" role="status">${said(look, input.notice)}</p>\n`) +
    formError('form-error', input.error === undefined ? undefined : said(look, input.error)) +
    sendCode +
    form +
    forgot;
  return document(look, nonce, text(look, 'invitation.title'), body, invalid);
}

/** Landing: the client's own registered address, none the request could choose. */
function donePage(look: PageLook, nonce: string, ways: string | undefined, landing: { name: string; url: string } | null): RenderedPage {
  const signIn = ways === undefined ? [] : [text(look, 'invitation.signInWith', { methods: ways })];
  const onward = landing === null ? [] : [onwardLink(look, landing, 'invitation.continueTo')];
  return notice(look, nonce, text(look, 'invitation.doneTitle'), [text(look, 'invitation.doneText'), ...signIn, ...onward], false);
}

/** As a suspended user's own pages: the invitation stands, the account may not use it. */
const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = { unknown: 404, accepted: 410, revoked: 410, expired: 410, elsewhere: 403, ownSurface: 403, suspended: 403, locked: 403 };

class InvitationRefused extends Error {
  readonly refusal: Refusal;
  /** Absent before the invitation's tenant is known: the host's look. */
  readonly look: PageLook | undefined;

  constructor(refusal: Refusal, look?: PageLook) {
    super(englishCopy(REFUSALS[refusal], { name: look?.name ?? '' }));
    this.refusal = refusal;
    this.look = look;
  }
}

/** Its link under the current tenancy configuration (303): see `misplaced`. */
class InvitationMoved extends Error {
  readonly location: string;
  readonly look: PageLook;

  constructor(location: string, look: PageLook) {
    super('The invitation opens at its link as the tenancy configuration has it now');
    this.location = location;
    this.look = look;
  }
}

type InvitationApplication = Parameters<typeof invitationLink>[2];

export function registerInvitationPage(app: FastifyInstance, services: Services, csrf: CsrfTokens, throttle: SignInThrottle): void {
  /** Null for a tenant path that is none. */
  const surfaceOf = (request: FastifyRequest): Promise<Surface | null> =>
    services.surfaces.forRequest(request.headers.host, (request.params as SurfaceParams).tenantRef, request.raw.url);

  /** A change of `authIsolation` leaves mailed links working: one on its tenant's former surface moves to the current
   *  one with the same token. Another tenant's or application's surface is refused. */
  async function misplaced(request: FastifyRequest, invitation: Invitation, application: InvitationApplication, refusal: Refusal, look: PageLook): Promise<Error> {
    const { applicationId, tenantId } = invitation;
    const tenantRef = (request.params as SurfaceParams).tenantRef;
    const ownTenant = refusal === 'ownSurface' || (tenantRef !== undefined && (await services.surfaces.findTenantId(applicationId, tenantRef)) === tenantId);
    if (!ownTenant || invitationStatus(invitation) !== 'pending') return new InvitationRefused(refusal, look);
    const link = new URL(await invitationLink(services.orm.em.getConnection(), services.config.publicUrl, application, tenantId, String(tokenOf(request))));
    // Where it would move to itself, the page's surface is not the tenant's for another reason (a tenant path under a domain).
    const here = link.host === request.headers.host && link.pathname === request.url.split('?')[0];
    return here ? new InvitationRefused(refusal, look) : new InvitationMoved(link.href, look);
  }

  /** Checked against the surface and the organization. */
  async function open(request: FastifyRequest, token: unknown): Promise<Opened> {
    const invitation = await findInvitationByToken(services.orm, token);
    if (invitation === null) throw new InvitationRefused('unknown');
    const { applicationId, tenantId } = invitation;
    const settings = await surfaceSettings(services, request.id, applicationId, tenantId);
    if (settings === undefined) throw new InvitationRefused('unknown');
    const look = browserLook(request, settings.look);
    const surface = await surfaceOf(request);
    if (surface === null || !(await services.surfaces.admits(surface, { applicationId, tenantId }))) {
      throw await misplaced(request, invitation, settings.application, 'elsewhere', look);
    }
    // The same organization, on the service's address rather than its isolated tenant's own.
    if (surface.kind === 'service' && settings.poolId === tenantId) throw await misplaced(request, invitation, settings.application, 'ownSurface', look);
    // As its other mailed links: the console's stay served.
    await refuseDeactivated(services, applicationId, look);
    const status = invitationStatus(invitation);
    if (status !== 'pending') throw new InvitationRefused(status, look);
    // No OAuth client opened the page: its records name the invitation.
    const opener = { type: 'invitation', id: invitation.id } as const;
    const applicationScope = endUserScope(services, request.id, { opener, applicationId, tenantId: null });
    const scope = endUserScope(services, request.id, { opener, applicationId, tenantId });
    const target: InvitationTarget = { ...settings, look, opener, scope, applicationScope };
    const pool = invitationPool(settings.application, tenantId);
    const account = await readSignInUser(applicationScope.em, applicationId, { poolId: pool, emailNormalized: invitation.emailNormalized });
    // Before any form or password check: a locked account's password is not tried here either.
    const standing = account === null ? null : accountStanding(account);
    if (standing !== null) throw new InvitationRefused(standing, look);
    // A never-confirmed account's keys are whoever set its address's, which the acceptance takes: the invitee makes their own.
    const accountPasskey =
      account !== null && account.emailVerified === true && target.passkey !== null && (await holdsPasskey(target, await relyingPartyFor(services, request), account.id));
    return { invitation, target, account, accountPasskey, kind: formKind(target, account, accountPasskey), issuer: surface.issuer };
  }

  const rawNameOf = (fields: Record<string, string | null>) => (typeof fields['name'] === 'string' ? fields['name'] : '');
  const action = (request: FastifyRequest) => request.url.split('?')[0]!;
  const csrfOf = (invitation: Invitation) => csrf.issue(invitation.id, 'invitation');
  const tokenOf = (request: FastifyRequest): unknown => {
    const fields = (request.body ?? {}) as Record<string, string | null>;
    return request.method === 'POST' ? fields['token'] : (request.query as Record<string, unknown>)['token'];
  };

  type FormExtra = Partial<Pick<FormInput, 'name' | 'error' | 'notice' | 'passwordErrors'>>;
  type Accepted =
    | Exclude<AcceptOutcome, { ok: true } | { keyHeld: true } | { codeSpent: true }>
    | { readonly ok: true; readonly held: Held }
    | { readonly ok: false; readonly again: FormExtra };
  const passkeyRefused = (rawName = ''): Accepted => ({ ok: false, again: { name: rawName, error: { key: 'invitation.passkeyError' } } });
  const codeRefused: Accepted = { ok: false, again: { error: { key: 'invitation.codeError' } } };
  // A key stored for an account already is refused as one that did not verify: the browser may make another.
  const succeeded = (outcome: AcceptOutcome, held: Held, rawName = ''): Accepted =>
    outcome.ok ? { ok: true, held } : 'keyHeld' in outcome ? passkeyRefused(rawName) : 'codeSpent' in outcome ? codeRefused : outcome;

  /** For the account, or a new one's id drawn now. */
  async function passkeyOf(request: FastifyRequest, opened: Opened): Promise<FormInput['passkey']> {
    const { invitation, target, account, kind } = opened;
    if (!kind.passkey) return undefined;
    const registrant = account ?? { id: newId(), email: invitation.email, name: null };
    const options = await invitationPasskeyOptions(target, await relyingPartyFor(services, request), invitation.id, registrant, account !== null);
    return { options, userId: registrant.id };
  }

  async function showForm(request: FastifyRequest, reply: FastifyReply, opened: Opened, status: number, extra: FormExtra = {}) {
    const { invitation, target, kind } = opened;
    const passwordPolicy = await effectivePasswordPolicy(target.scope, target.policyTenantId);
    const otherWays = waysIn(target.look, target, NOTHING_HELD);
    const passkey = await passkeyOf(request, opened);
    const input = {
      action: action(request),
      token: String(tokenOf(request)),
      csrf: csrfOf(invitation),
      email: invitation.email,
      kind,
      otherWays,
      passwordPolicy,
      ...(passkey === undefined ? {} : { passkey }),
      ...extra,
    };
    return sendPage(reply, status, (nonce) => invitationPage(target.look, nonce, input));
  }

  /** Before the invitation's tenant is known: the host's look, a custom domain's own, else the plain one. */
  const hostLook = (request: FastifyRequest) => namedSurfaceLook(services, request, undefined, null);

  const refuse = (reply: FastifyReply, refusal: Refusal, look: PageLook) => sendPage(reply, REFUSAL_STATUS[refusal], (nonce) => refusalPage(look, nonce, refusal));

  /** The other failures go to the hosted error page. */
  const refusing = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof InvitationRefused) return refuse(reply, error.refusal, error.look ?? (await hostLook(request)));
      if (error instanceof InvitationMoved) return reply.redirect(error.location, 303);
      throw error;
    }
  };

  async function accept(request: FastifyRequest, reply: FastifyReply) {
    const opened = await open(request, tokenOf(request));
    const { invitation, target, account } = opened;
    const fields = (request.body ?? {}) as Record<string, string | null>;
    if (!csrf.verify(invitation.id, fields['csrf'], 'invitation')) {
      throw new SignInRefusal('invitation_form_forged', target.look);
    }
    // Its account deleted since the form was shown: what it asked proves nothing of a new account, which this form asks for.
    if (fields['form'] === FORM_EXISTING && account === null) return showForm(request, reply, opened, 200);
    // An account made since: a password typed to make one is no sign-in to it, checked or counted.
    if (fields['form'] === FORM_NEW && account !== null) return accountMadeMeanwhile(request, reply, opened);
    if (fields['forgot'] !== undefined) return forgotPassword(request, reply, opened);
    if (fields['sendCode'] !== undefined) return sendCode(request, reply, opened);
    const password = typeof fields['password'] === 'string' ? fields['password'] : '';
    const rawName = rawNameOf(fields);
    // What is asked follows what the pool holds now, never the form's fields: leaving the password out proves nothing.
    const outcome = account === null ? await acceptNew(request, opened, rawName, password, fields) : await acceptExisting(request, opened, account, password, fields);
    if (outcome.ok) {
      const landing = await invitationLanding(target.applicationScope.em, invitation, opened.issuer);
      return sendPage(reply, 200, (nonce) => donePage(target.look, nonce, waysIn(target.look, target, outcome.held), landing));
    }
    if ('again' in outcome) return showForm(request, reply, opened, 400, outcome.again);
    if ('closed' in outcome) return refuse(reply, outcome.closed, target.look);
    // Deleted while this post was under way: the invitation stands, and the form now makes a new account.
    if ('accountGone' in outcome) return showForm(request, reply, await open(request, tokenOf(request)), 200);
    // The address got an account while this post was under way.
    if ('taken' in outcome) return accountMadeMeanwhile(request, reply, await open(request, tokenOf(request)));
    // As the other hosted ways to make an account answer it, to whoever proved the mailbox (the link did).
    if ('addressHeld' in outcome) throw new SignInRefusal('signup_address_held', target.look);
    return showForm(request, reply, opened, 400, { name: rawName, passwordErrors: outcome.passwordErrors });
  }

  /** A new account's form posted once the address has one: the form for that account, saying so (409). */
  const accountMadeMeanwhile = (request: FastifyRequest, reply: FastifyReply, opened: Opened) =>
    showForm(request, reply, opened, 409, { error: { key: opened.kind.password === 'none' ? 'invitation.existsConfirm' : 'invitation.exists' } });

  /**
   * The sign-in page's reset link, mailed to the invited address: a fresh 30-minute proof of the mailbox, which the
   * forwardable invitation link is not; its reset also verifies the address and ends sessions (account-changes.ts).
   */
  async function forgotPassword(request: FastifyRequest, reply: FastifyReply, opened: Opened) {
    const { invitation, target, account, kind } = opened;
    if (account === null || kind.password !== 'required') return showForm(request, reply, opened, 400);
    await mailPasswordReset(target, account);
    return showForm(request, reply, opened, 200, { notice: { key: 'invitation.resetSent', values: { email: invitation.email } } });
  }

  async function sendCode(request: FastifyRequest, reply: FastifyReply, opened: Opened) {
    const { invitation, target, account, kind } = opened;
    if (account === null || !asksCode(kind)) return showForm(request, reply, opened, 400);
    await mailInvitationCode(target, invitation, account);
    return showForm(request, reply, opened, 200, { notice: { key: 'invitation.codeSent', values: { email: invitation.email, minutes: String(INVITATION_CODE_MINUTES) } } });
  }

  /**
   * Proven against a challenge shown for this invitation and `userId`; undefined where the form makes none, null when
   * it does not verify.
   */
  async function formPasskey(request: FastifyRequest, opened: Opened, userId: unknown, fields: Record<string, string | null>) {
    const { invitation, target, account, kind } = opened;
    if (!kind.passkey) return undefined;
    return provenInvitationPasskey(target, await relyingPartyFor(services, request), invitation.id, userId, account !== null, fields['credential']);
  }

  /** Else the link is the proof. */
  async function acceptExisting(request: FastifyRequest, opened: Opened, account: SignInUser, password: string, fields: Record<string, string | null>): Promise<Accepted> {
    const { invitation, target, kind } = opened;
    let userId = account.id;
    if (kind.password === 'required') {
      const check = await proveInvitationPassword(target, invitation, account, password, guessingAddress(request), (await relyingPartyFor(services, request)).id);
      if (!check.ok && 'gone' in check) return { ok: false, accountGone: true };
      // Held by the lockout: the sign-in form's answer, which does not say the password is wrong.
      if (!check.ok) return { ok: false, again: { error: { key: check.held ? 'login.error' : 'invitation.passwordError' } } };
      userId = check.user.id;
    }
    const code = asksCode(kind) ? await proveInvitationCode(target, invitation, account, fields['code'], guessingAddress(request)) : undefined;
    if (code?.ok === false) return { ok: false, again: { error: { key: code.held ? 'login.error' : 'invitation.codeError' } } };
    const passkey = await formPasskey(request, opened, account.id, fields);
    if (passkey === null) return passkeyRefused();
    const held = { password: kind.password === 'required', passkey: opened.accountPasskey || passkey !== undefined };
    const key = passkey === undefined || code === undefined ? {} : { passkey: { credential: passkey, codeId: code.codeId } };
    return succeeded(await acceptInvitation(target.applicationScope, invitation, { kind: 'existing', userId, byPassword: held.password, ...key }), held);
  }

  /** A password left out where optional leaves the account with none; a passkey's user id is the account's. */
  async function acceptNew(request: FastifyRequest, opened: Opened, rawName: string, password: string, fields: Record<string, string | null>): Promise<Accepted> {
    const { invitation, target, kind } = opened;
    const typed = typedName(rawName);
    if ('refusal' in typed) return { ok: false, again: { name: rawName, error: typed.refusal } };
    const withOne = kind.password === 'required' || (kind.password === 'optional' && password !== '');
    if (withOne) {
      const refused = await refusedPassword(target.scope, target.policyTenantId, password);
      if (refused.length > 0) return { ok: false, again: { name: rawName, passwordErrors: refused } };
    }
    const passkey = await formPasskey(request, opened, fields['user'], fields);
    if (passkey === null) return passkeyRefused(rawName);
    const chosen = withOne ? { plain: password, hash: await hashPassword(password) } : null;
    const account = { kind: 'new' as const, name: typed.name, password: chosen, locale: target.look.locale, ...(passkey === undefined ? {} : { id: fields['user']!, passkey }) };
    return succeeded(await acceptInvitation(target.applicationScope, invitation, account), { password: withOne, passkey: passkey !== undefined }, rawName);
  }

  async function refusalLook(request: FastifyRequest): Promise<PageLook> {
    try {
      return (await open(request, tokenOf(request))).target.look;
    } catch (error) {
      if (error instanceof InvitationRefused) return error.look ?? hostLook(request);
      if (error instanceof InvitationMoved) return error.look;
      throw error;
    }
  }
  // Counted once the form is parsed (its token names the 429's look), still before any Argon2 work.
  const throttled = { preHandler: throttle.hook(refusalLook) };
  for (const prefix of ['', `${TENANT_PATH_PREFIX}/:tenantRef`]) {
    const url = `${prefix}${INVITATION_PAGE_PATH}`;
    app.get(url, refusing(async (request, reply) => showForm(request, reply, await open(request, tokenOf(request)), 200)));
    app.post(url, throttled, refusing(accept));
  }
}
