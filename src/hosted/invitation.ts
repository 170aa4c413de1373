import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hashPassword } from '../auth/password-hash.ts';
import { endUserScope } from '../context.ts';
import type { Invitation } from '../db/entities/index.ts';
import { TENANT_PATH_PREFIX, type Surface } from '../domain/domains/surfaces.ts';
import { acceptInvitation, findInvitationByToken, refusedPassword, type AcceptOutcome } from '../domain/invitations/accept.ts';
import { INVITATION_PAGE_PATH, invitationPool, invitationStatus } from '../domain/invitations/invitations.ts';
import type { PasswordPolicy } from '../domain/policies/definitions.ts';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { readSignInUser } from '../domain/users/sign-in-user.ts';
import { typedName } from '../domain/typed-fields.ts';
import { englishCopy } from '../domain/branding/copy/index.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { verifyCredentials, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { surfaceSettings } from '../domain/sign-in/surface-settings.ts';
import { document, emailField, escapeHtml, field, formError, hidden, notice, passwordRules, said, text, type CopyKey, type CopyText, type PageLook, type RenderedPage } from '../pages/pages.ts';
import { browserLook, sendPage } from '../pages/reply.ts';
import { type SignInThrottle } from '../pages/throttle.ts';
import { guessingAddress } from '../request-origin.ts';
import { relyingPartyFor } from './passkey.ts';

/**
 * The hosted page an invitation's link opens (API.md, Invitation): on the surface of the invitation's tenant (the
 * service's, or the tenant's own path when the application's auth is isolated), in the tenant's branding. The invitee
 * creates an account, or, when the address has one in the pool, proves its password; either way they become a member
 * of the tenant with the invitation's roles, and the link is spent. Every refusal is a page that says why.
 */

/** Why a link does not open the form: what its page says. */
const REFUSALS = {
  unknown: 'invitation.unknown',
  accepted: 'invitation.accepted',
  revoked: 'invitation.revoked',
  expired: 'invitation.expired',
  elsewhere: 'invitation.elsewhere',
  deactivated: 'invitation.deactivated',
} as const satisfies Record<string, CopyKey>;
type Refusal = keyof typeof REFUSALS;

interface SurfaceParams {
  tenantRef?: string;
}

/** What a page of a found invitation needs: its tenant's sign-in target (acting as the invitation) and what the pool holds. */
interface Opened {
  readonly invitation: Invitation;
  readonly target: SignInTarget;
  /** Whether the pool has an account of the invited address: it then signs in instead of signing up. */
  readonly hasAccount: boolean;
}

function refusalPage(look: PageLook, nonce: string, refusal: Refusal): RenderedPage {
  return notice(look, nonce, text(look, 'invitation.errorTitle'), [text(look, REFUSALS[refusal])], true);
}

interface FormInput {
  readonly action: string;
  readonly token: string;
  readonly csrf: string;
  readonly email: string;
  readonly existing: boolean;
  readonly name?: string;
  readonly error?: CopyText;
  readonly passwordErrors?: readonly CopyText[];
  /** The pool's password policy, stated under a new account's password field (WCAG 3.3.2). */
  readonly passwordPolicy: PasswordPolicy;
}

/** The acceptance form: the invited address (fixed), and a name and new password, or the account's password. */
function invitationPage(look: PageLook, nonce: string, input: FormInput): RenderedPage {
  const messages = input.passwordErrors ?? [];
  const invalid = input.error !== undefined || messages.length > 0;
  const describedBy = [...(input.error === undefined ? [] : ['form-error']), ...(messages.length === 0 ? [] : ['password-error'])];
  const errors = messages.length === 0 ? '' : `<p id="password-error" class="field-error">${messages.map((message) => said(look, message)).join('<br>')}</p>\n`;
  const rules = input.existing ? '' : `<p id="password-rules" class="hint">${passwordRules(look, input.passwordPolicy)}</p>\n`;
  const intro = text(look, input.existing ? 'invitation.signInText' : 'invitation.createText');
  const body =
    `<h1>${text(look, 'invitation.title')}</h1>\n<p class="subtitle">${intro}</p>\n` +
    formError('form-error', input.error === undefined ? undefined : said(look, input.error)) +
    `<form method="post" action="${escapeHtml(input.action)}">\n${hidden('csrf', input.csrf)}${hidden('token', input.token)}` +
    emailField({ label: text(look, 'login.email'), value: input.email, describedBy: [], invalid: false, extra: '' }).replace('<input ', '<input readonly ') +
    (input.existing
      ? ''
      : field({ id: 'name', label: text(look, 'signup.name'), type: 'text', autocomplete: 'name', value: input.name ?? '', required: false, describedBy: [], invalid: false })) +
    field({
      id: 'password',
      label: text(look, 'login.password'),
      type: 'password',
      autocomplete: input.existing ? 'current-password' : 'new-password',
      describedBy: input.existing ? describedBy : [...describedBy, 'password-rules'],
      invalid,
      focus: invalid,
      extra: `${rules}${errors}`,
    }) +
    `<button type="submit">${text(look, 'invitation.submit')}</button>\n</form>\n`;
  return document(look, nonce, text(look, 'invitation.title'), body, invalid);
}

const donePage = (look: PageLook, nonce: string) => notice(look, nonce, text(look, 'invitation.doneTitle'), [text(look, 'invitation.doneText')], false);

const REFUSAL_STATUS: Readonly<Record<Refusal, number>> = { unknown: 404, accepted: 410, revoked: 410, expired: 410, elsewhere: 403, deactivated: 403 };

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
    const existing = await readSignInUser(applicationScope.em, applicationId, { poolId: pool, emailNormalized: invitation.emailNormalized });
    if (!target.password.signIn) throw new SignInRefusal('password_unavailable', look);
    return { invitation, target, hasAccount: existing !== null };
  }

  const rawNameOf = (fields: Record<string, string | null>) => (typeof fields['name'] === 'string' ? fields['name'] : '');
  const action = (request: FastifyRequest) => request.url.split('?')[0]!;
  const csrfOf = (invitation: Invitation) => csrf.issue(invitation.id, 'invitation');
  const tokenOf = (request: FastifyRequest): unknown => {
    const fields = (request.body ?? {}) as Record<string, string | null>;
    return request.method === 'POST' ? fields['token'] : (request.query as Record<string, unknown>)['token'];
  };

  type FormExtra = Partial<Pick<FormInput, 'name' | 'error' | 'passwordErrors' | 'existing'>>;

  async function showForm(request: FastifyRequest, reply: FastifyReply, opened: Opened, status: number, extra: FormExtra = {}) {
    const { invitation, target } = opened;
    const passwordPolicy = await effectivePasswordPolicy(target.scope, target.policyTenantId);
    const input = { action: action(request), token: String(tokenOf(request)), csrf: csrfOf(invitation), email: invitation.email, existing: opened.hasAccount, passwordPolicy, ...extra };
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
    const { invitation, target } = opened;
    const fields = (request.body ?? {}) as Record<string, string | null>;
    if (!csrf.verify(invitation.id, fields['csrf'], 'invitation')) {
      throw new SignInRefusal('invitation_form_forged', target.look);
    }
    const password = typeof fields['password'] === 'string' ? fields['password'] : '';
    let outcome: AcceptOutcome;
    if (opened.hasAccount) {
      // The account's password, as the sign-in form checks it (lockout policy, constant time).
      const check = await verifyCredentials(target, invitation.email, password, guessingAddress(request), (await relyingPartyFor(services, request)).id);
      if (!check.ok) return showForm(request, reply, opened, 400, { error: { key: 'invitation.passwordError' } });
      outcome = await acceptInvitation(target.applicationScope, invitation.id, { kind: 'existing', userId: check.user.id });
    } else {
      const rawName = rawNameOf(fields);
      const typed = typedName(rawName);
      if ('refusal' in typed) return showForm(request, reply, opened, 400, { name: rawName, error: typed.refusal });
      const { name } = typed;
      const refused = await refusedPassword(target.scope, target.policyTenantId, password);
      if (refused.length > 0) return showForm(request, reply, opened, 400, { name: rawName, passwordErrors: refused });
      outcome = await acceptInvitation(target.applicationScope, invitation.id, { kind: 'new', name, password, passwordHash: await hashPassword(password) });
    }
    if (outcome.ok) return sendPage(reply, 200, (nonce) => donePage(target.look, nonce));
    if ('closed' in outcome) return refuse(reply, outcome.closed, target.look);
    // The address got an account meanwhile: it signs in with it.
    if ('taken' in outcome) return showForm(request, reply, opened, 409, { existing: true, error: { key: 'invitation.exists' } });
    return showForm(request, reply, opened, 400, { name: rawNameOf(fields), passwordErrors: outcome.passwordErrors });
  }

  const throttled = { onRequest: throttle.hook(async (request) => browserLook(request)) };
  for (const prefix of ['', `${TENANT_PATH_PREFIX}/:tenantRef`]) {
    const url = `${prefix}${INVITATION_PAGE_PATH}`;
    app.get(url, refusing(async (request, reply) => showForm(request, reply, await open(request, tokenOf(request)), 200)));
    app.post(url, throttled, refusing(accept));
  }
}
