import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashPassword } from '../auth/password-hash.ts';
import { endUserScope } from '../context.ts';
import type { Invitation } from '../db/entities/index.ts';
import { TENANT_PATH_PREFIX, type Surface } from '../domain/domains/surfaces.ts';
import { acceptInvitation, accountStanding, findInvitationByToken, refusedPassword, type AcceptOutcome } from '../domain/invitations/accept.ts';
import { INVITATION_PAGE_PATH, invitationPool, invitationStatus } from '../domain/invitations/invitations.ts';
import type { PasswordPolicy } from '../domain/policies/definitions.ts';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { readSignInUser, type SignInUser } from '../domain/users/sign-in-user.ts';
import { typedName } from '../domain/typed-fields.ts';
import { englishCopy } from '../domain/branding/copy/index.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { verifyCredentials, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { surfaceSettings } from '../domain/sign-in/surface-settings.ts';
import { document, emailField, escapeHtml, field, formError, hidden, notice, passwordRules, plainText, said, text, type CopyKey, type CopyText, type PageLook, type RenderedPage } from '../pages/pages.ts';
import { browserLook, sendPage } from '../pages/reply.ts';
import { type SignInThrottle } from '../pages/throttle.ts';
import { guessingAddress } from '../request-origin.ts';
import { relyingPartyFor } from './passkey.ts';

/**
 * The hosted page an invitation's link opens (API.md, Invitation): on the surface of the invitation's tenant (the
 * service's, or the tenant's own path when the application's auth is isolated), in the tenant's branding. The link
 * was mailed to the address, so it proves the mailbox: the invitee creates an account (with a password where the
 * surface signs in with one), or, when the address has one in the pool, proves its password where the surface and the
 * account have one, else only confirms; either way they become a member of the tenant with the invitation's roles,
 * and the link is spent. Nothing signs the browser in. Every refusal is a page that says why.
 */

/** Why a link does not open the form: what its page says. */
const REFUSALS = {
  unknown: 'invitation.unknown',
  accepted: 'invitation.accepted',
  revoked: 'invitation.revoked',
  expired: 'invitation.expired',
  elsewhere: 'invitation.elsewhere',
  deactivated: 'invitation.deactivated',
  suspended: 'invitation.suspended',
  locked: 'invitation.locked',
} as const satisfies Record<string, CopyKey>;
type Refusal = keyof typeof REFUSALS;

interface SurfaceParams {
  tenantRef?: string;
}

/**
 * What the form asks: a new account's password `required` (the surface signs in with passwords only), `optional` (it
 * has another way in too) or `none` (no password sign-in); an existing account's `required` when the surface signs in
 * with passwords and the account has one, else `none`, the link being the proof.
 */
interface FormKind {
  /** The pool has an account of the invited address: it joins instead of a new one. */
  readonly existing: boolean;
  readonly password: 'required' | 'optional' | 'none';
}

/** What a page of a found invitation needs: its tenant's sign-in target (acting as the invitation) and what the pool holds. */
interface Opened {
  readonly invitation: Invitation;
  readonly target: SignInTarget;
  /** The pool's account of the invited address, if any. */
  readonly account: SignInUser | null;
  readonly kind: FormKind;
}

function formKind(target: SignInTarget, account: SignInUser | null): FormKind {
  if (account !== null) return { existing: true, password: target.password.signIn && account.passwordHash != null ? 'required' : 'none' };
  if (!target.password.signIn) return { existing: false, password: 'none' };
  return { existing: false, password: waysIn(target.look, target, false) === undefined ? 'required' : 'optional' };
}

/**
 * How the invitee's account signs in on the surface, in the page's language, for the done page and the optional
 * password's hint: a password (when it has one), an e-mail link or code, each upstream and SAML provider. Passkeys are
 * left out: an account the link made has none, and a page cannot tell whether an existing one does.
 */
function waysIn(look: PageLook, target: SignInTarget, withPassword: boolean): string | undefined {
  const ways = [
    ...(withPassword && target.password.signIn ? [plainText(look, 'invitation.byPassword')] : []),
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
  /** waysIn without a password: said under an optional password. */
  readonly otherWays: string | undefined;
  readonly name?: string;
  readonly error?: CopyText;
  readonly passwordErrors?: readonly CopyText[];
  /** The pool's password policy, stated under a new account's password field (WCAG 3.3.2). */
  readonly passwordPolicy: PasswordPolicy;
}

const INTRO: Readonly<Record<'new' | 'signIn' | 'confirm', CopyKey>> = { new: 'invitation.createText', signIn: 'invitation.signInText', confirm: 'invitation.confirmText' };

/** The password field: a new one (the policy's rules under it, and whether it may be left out), or the account's. */
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

/**
 * The acceptance form: the invited address (fixed), and a name and new password (when the surface signs in with
 * one), or the account's password, or for an account with nothing to prove only the button.
 */
function invitationPage(look: PageLook, nonce: string, input: FormInput): RenderedPage {
  const { existing, password } = input.kind;
  const messages = input.passwordErrors ?? [];
  const invalid = input.error !== undefined || messages.length > 0;
  const describedBy = [...(input.error === undefined ? [] : ['form-error']), ...(messages.length === 0 ? [] : ['password-error'])];
  const intro = text(look, INTRO[!existing ? 'new' : password === 'none' ? 'confirm' : 'signIn']);
  const body =
    `<h1>${text(look, 'invitation.title')}</h1>\n<p class="subtitle">${intro}</p>\n` +
    formError('form-error', input.error === undefined ? undefined : said(look, input.error)) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('token', input.token)}` +
    emailField({ label: text(look, 'login.email'), value: input.email, describedBy: [], invalid: false, extra: '' }).replace('<input ', '<input readonly ') +
    (existing
      ? ''
      : field({ id: 'name', label: text(look, 'signup.name'), type: 'text', autocomplete: 'name', value: input.name ?? '', required: false, describedBy: [], invalid: false })) +
    (password === 'none' ? '' : passwordField(look, input, invalid, describedBy)) +
    `<button type="submit">${text(look, 'invitation.submit')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'invitation.title'), body, invalid);
}

/** The invitee is a member: they sign in from the application, with what the surface offers their account. */
function donePage(look: PageLook, nonce: string, ways: string | undefined): RenderedPage {
  const signIn = ways === undefined ? [] : [text(look, 'invitation.signInWith', { methods: ways })];
  return notice(look, nonce, text(look, 'invitation.doneTitle'), [text(look, 'invitation.doneText'), ...signIn], false);
}

/** An account that cannot act now is 403, as a suspended user's own pages are: the invitation stands, the account may not use it. */
const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = { unknown: 404, accepted: 410, revoked: 410, expired: 410, elsewhere: 403, deactivated: 403, suspended: 403, locked: 403 };

/** A refusal of the link, answered with its page (in the invitation's tenant's look, once that is known). */
class InvitationRefused extends Error {
  readonly refusal: Refusal;
  /** Absent before the invitation's tenant is known: the plain look. */
  readonly look: PageLook | undefined;

  constructor(refusal: Refusal, look?: PageLook) {
    super(englishCopy(REFUSALS[refusal], { name: look?.name ?? '' }));
    this.refusal = refusal;
    this.look = look;
  }
}

/** Registers `GET|POST /invitation` on the service's surface and each tenant path surface (`/t/{tenant}/invitation`). */
export function registerInvitationPage(app: FastifyInstance, services: Services, csrf: CsrfTokens, throttle: SignInThrottle): void {
  /** The surface the page was opened on, or null for a tenant path that is none. */
  const surfaceOf = (request: FastifyRequest): Promise<Surface | null> =>
    services.surfaces.forRequest(request.headers.host, (request.params as SurfaceParams).tenantRef, request.raw.url);

  /** The invitation of the link, checked against the surface and the organization, with its tenant's look. */
  async function open(request: FastifyRequest, token: unknown): Promise<Opened> {
    const invitation = await findInvitationByToken(services.orm, token);
    if (invitation === null) throw new InvitationRefused('unknown');
    const { applicationId, tenantId } = invitation;
    const actor = { type: 'invitation' as const, id: invitation.id };
    // Nothing of the settings depends on the client: the invitation stands in for the OAuth client of a sign-in.
    const settings = await surfaceSettings(services, request.id, { clientId: invitation.id, applicationId }, tenantId);
    if (settings === undefined) throw new InvitationRefused('unknown');
    const look = browserLook(request, settings.look);
    const surface = await surfaceOf(request);
    if (surface === null || !(await services.surfaces.admits(surface, { applicationId, tenantId }))) throw new InvitationRefused('elsewhere', look);
    if (surface.kind === 'service' && settings.poolId === tenantId) throw new InvitationRefused('elsewhere', look);
    if (await services.apiKeys.organizations.deactivated(services.orm, applicationId)) throw new InvitationRefused('deactivated', look);
    const status = invitationStatus(invitation);
    if (status !== 'pending') throw new InvitationRefused(status, look);
    const applicationScope = endUserScope(services, request.id, { clientId: invitation.id, applicationId, tenantId: null, actor });
    const scope = endUserScope(services, request.id, { clientId: invitation.id, applicationId, tenantId, actor });
    const target: SignInTarget = { ...settings, look, clientId: invitation.id, scope, applicationScope };
    const pool = invitationPool(settings.application, tenantId);
    const account = await readSignInUser(applicationScope.em, applicationId, { poolId: pool, emailNormalized: invitation.emailNormalized });
    // Before any form or password check: a locked account's password is not tried here either.
    const standing = account === null ? null : accountStanding(account);
    if (standing !== null) throw new InvitationRefused(standing, look);
    return { invitation, target, account, kind: formKind(target, account) };
  }

  const rawNameOf = (fields: Record<string, string | null>) => (typeof fields['name'] === 'string' ? fields['name'] : '');
  const action = (request: FastifyRequest) => request.url.split('?')[0]!;
  const csrfOf = (invitation: Invitation) => csrf.issue(invitation.id, 'invitation');
  const tokenOf = (request: FastifyRequest): unknown => {
    const fields = (request.body ?? {}) as Record<string, string | null>;
    return request.method === 'POST' ? fields['token'] : (request.query as Record<string, unknown>)['token'];
  };

  type FormExtra = Partial<Pick<FormInput, 'name' | 'error' | 'passwordErrors'>>;
  /** An acceptance, or the form again (400) with what to correct; a success says whether the account signs in with a password. */
  type Accepted = Exclude<AcceptOutcome, { ok: true }> | { readonly ok: true; readonly withPassword: boolean } | { readonly ok: false; readonly again: FormExtra };
  const succeeded = (outcome: AcceptOutcome, withPassword: boolean): Accepted => (outcome.ok ? { ok: true, withPassword } : outcome);

  async function showForm(request: FastifyRequest, reply: FastifyReply, opened: Opened, status: number, extra: FormExtra = {}) {
    const { invitation, target, kind } = opened;
    const passwordPolicy = await effectivePasswordPolicy(target.scope, target.policyTenantId);
    const otherWays = waysIn(target.look, target, false);
    const input = { action: action(request), token: String(tokenOf(request)), csrf: csrfOf(invitation), email: invitation.email, kind, otherWays, passwordPolicy, ...extra };
    return sendPage(reply, status, (nonce) => invitationPage(target.look, nonce, input));
  }

  const refuse = (reply: FastifyReply, refusal: Refusal, look: PageLook) => sendPage(reply, REFUSAL_STATUS[refusal], (nonce) => refusalPage(look, nonce, refusal));

  /** A handler whose refusals of the link are answered with their page (the others go to the hosted error page). */
  const refusing = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      return await handler(request, reply);
    } catch (error) {
      if (error instanceof InvitationRefused) return refuse(reply, error.refusal, error.look ?? browserLook(request));
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
    const password = typeof fields['password'] === 'string' ? fields['password'] : '';
    const rawName = rawNameOf(fields);
    // What is asked follows what the pool holds now, never the form's fields: leaving the password out proves nothing.
    const outcome = account === null ? await acceptNew(opened, rawName, password) : await acceptExisting(request, opened, account, password);
    if (outcome.ok) return sendPage(reply, 200, (nonce) => donePage(target.look, nonce, waysIn(target.look, target, outcome.withPassword)));
    if ('again' in outcome) return showForm(request, reply, opened, 400, outcome.again);
    if ('closed' in outcome) return refuse(reply, outcome.closed, target.look);
    if ('taken' in outcome) {
      // The address got an account meanwhile: the form for it, asking its password or only the button.
      const reopened = await open(request, tokenOf(request));
      return showForm(request, reply, reopened, 409, { error: { key: reopened.kind.password === 'none' ? 'invitation.existsConfirm' : 'invitation.exists' } });
    }
    return showForm(request, reply, opened, 400, { name: rawName, passwordErrors: outcome.passwordErrors });
  }

  /** The account's password where the form asks it, as the sign-in form checks it (lockout policy, constant time); else the link is the proof. */
  async function acceptExisting(request: FastifyRequest, opened: Opened, account: SignInUser, password: string): Promise<Accepted> {
    const { invitation, target, kind } = opened;
    let userId = account.id;
    if (kind.password === 'required') {
      const check = await verifyCredentials(target, invitation.email, password, guessingAddress(request), (await relyingPartyFor(services, request)).id);
      if (!check.ok) return { ok: false, again: { error: { key: 'invitation.passwordError' } } };
      userId = check.user.id;
    }
    return succeeded(await acceptInvitation(target.applicationScope, invitation.id, { kind: 'existing', userId }), kind.password === 'required');
  }

  /** A name, and a password where the surface signs in with one (left out where optional: the account then has none). */
  async function acceptNew(opened: Opened, rawName: string, password: string): Promise<Accepted> {
    const { invitation, target, kind } = opened;
    const typed = typedName(rawName);
    if ('refusal' in typed) return { ok: false, again: { name: rawName, error: typed.refusal } };
    const withOne = kind.password === 'required' || (kind.password === 'optional' && password !== '');
    if (withOne) {
      const refused = await refusedPassword(target.scope, target.policyTenantId, password);
      if (refused.length > 0) return { ok: false, again: { name: rawName, passwordErrors: refused } };
    }
    const chosen = withOne ? { plain: password, hash: await hashPassword(password) } : null;
    return succeeded(await acceptInvitation(target.applicationScope, invitation.id, { kind: 'new', name: typed.name, password: chosen, locale: target.look.locale }), withOne);
  }

  const throttled = { onRequest: throttle.hook(async (request) => browserLook(request)) };
  for (const prefix of ['', `${TENANT_PATH_PREFIX}/:tenantRef`]) {
    const url = `${prefix}${INVITATION_PAGE_PATH}`;
    app.get(url, refusing(async (request, reply) => showForm(request, reply, await open(request, tokenOf(request)), 200)));
    app.post(url, throttled, refusing(accept));
  }
}
