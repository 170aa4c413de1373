import { englishCopy, type CopyKey } from '../branding/copy/index.ts';
import type { PageLook } from './surface-settings.ts';
import type { DomainServices } from '../../services.ts';

/** What a silent request (prompt=none) answers where the pages would have asked the user (OIDC Core 3.1.2.6). */
export type SilentError = 'login_required' | 'account_selection_required' | 'interaction_required';

/** What the client hears of a refusal (RFC 6749 4.1.2.1): at its redirect URI with `state`, or at the device's poll. */
export interface OAuthRefusal {
  readonly error: 'invalid_request' | 'access_denied';
  /** Travels through the browser and the client's logs: says what is wrong with the request, nothing of an account. */
  readonly description: string;
}

/** How each adapter answers one refusal. Null: that adapter never meets it. */
export interface RefusalRule {
  /** The page's text, in the page's language; `{name}`: the surface's tenant's, else its application's. */
  readonly page: { readonly status: number; readonly copy: CopyKey } | null;
  readonly oauth: OAuthRefusal | null;
  readonly silent: SilentError | null;
}

/** Every refusal of a sign-in, the one table both adapters answer from (src/hosted/, src/oidc/). Tenant refusals are the
 *  OP's `invalid_request` before any page, shown on a page only where a browser arrives first (src/oidc/surface-gate.ts). */
export const SIGN_IN_REFUSALS = {
  unreadable_tenant: { page: { status: 400, copy: 'refusal.unreadableTenant' }, oauth: null, silent: 'login_required' },
  client_tenant_gone: { page: { status: 400, copy: 'refusal.clientTenantGone' }, oauth: null, silent: 'login_required' },
  unknown_tenant: {
    page: { status: 400, copy: 'refusal.unknownTenant' },
    oauth: { error: 'invalid_request', description: 'the tenant parameter names no tenant of this application' },
    silent: 'login_required',
  },
  // One answer whether the tenant named is the application's or none: it does not tell which names are its tenants.
  bound_client_tenant: {
    page: { status: 400, copy: 'refusal.boundClientTenant' },
    oauth: { error: 'invalid_request', description: 'the tenant parameter names another tenant than this client signs in to' },
    silent: 'login_required',
  },
  tenant_required: {
    page: { status: 400, copy: 'refusal.tenantRequired' },
    oauth: { error: 'invalid_request', description: 'this application signs in to one of its tenants: the tenant parameter is required' },
    silent: 'login_required',
  },
  surface_tenant_mismatch: {
    page: { status: 400, copy: 'refusal.surfaceTenantMismatch' },
    oauth: { error: 'invalid_request', description: 'the tenant parameter names another tenant than this sign-in surface serves' },
    silent: 'login_required',
  },
  // The session's account, for a request that would go on without the form.
  login_needed: { page: null, oauth: null, silent: 'login_required' },
  tenant_choice_needed: { page: null, oauth: null, silent: 'account_selection_required' },
  // The pages ask the user to confirm that the client's sign-in to the session's other tenant ends (the switch page).
  tenant_switch_unconfirmed: { page: null, oauth: null, silent: 'interaction_required' },
  // Refused once its interaction is trusted (user suspended, deleted or removed, client gone): one text, whatever the reason.
  account_refused: { page: null, oauth: { error: 'access_denied', description: 'the sign-in was refused' }, silent: 'login_required' },
  interaction_expired: { page: { status: 400, copy: 'refusal.interactionExpired' }, oauth: null, silent: null },
  client_gone: { page: { status: 400, copy: 'refusal.clientGone' }, oauth: null, silent: null },
  password_unavailable: { page: { status: 403, copy: 'refusal.passwordUnavailable' }, oauth: null, silent: null },
  // The forms that mail a password's links (forgot, a new verification link) exist only where passwords do.
  password_links_unavailable: { page: { status: 404, copy: 'refusal.passwordUnavailable' }, oauth: null, silent: null },
  passkey_unavailable: { page: { status: 404, copy: 'refusal.passkeyUnavailable' }, oauth: null, silent: null },
  email_sign_in_unavailable: { page: { status: 404, copy: 'refusal.emailSignInUnavailable' }, oauth: null, silent: null },
  email_link_invalid: {
    page: { status: 400, copy: 'refusal.linkInvalid' },
    oauth: null,
    silent: null,
  },
  // Unspent by the refusal (refuseDeactivated): the link works again on reactivation.
  organization_deactivated: { page: { status: 403, copy: 'refusal.organizationDeactivated' }, oauth: null, silent: null },
  signup_unavailable: { page: { status: 404, copy: 'refusal.signupUnavailable' }, oauth: null, silent: null },
  step_unsupported: { page: { status: 400, copy: 'refusal.stepUnsupported' }, oauth: null, silent: null },
  no_such_page: { page: { status: 404, copy: 'refusal.noSuchPage' }, oauth: null, silent: null },
  // 403 page, no form: a forged or stale submission is not retried with a fresh token.
  form_forged: {
    page: { status: 403, copy: 'refusal.formForged' },
    oauth: null,
    silent: null,
  },
  invitation_form_forged: {
    page: { status: 403, copy: 'refusal.invitationFormForged' },
    oauth: null,
    silent: null,
  },
  proof_expired: { page: { status: 403, copy: 'refusal.proofExpired' }, oauth: null, silent: null },
  // The pool a sign-up or an upstream link was written to changed meanwhile (an authIsolation switch): it starts again.
  settings_changed: {
    page: { status: 409, copy: 'refusal.settingsChanged' },
    oauth: null,
    silent: null,
  },
  signup_tenant_gone: { page: { status: 400, copy: 'refusal.signupTenantGone' }, oauth: null, silent: null },
  // A restore link holds the address for the account that left it (addressHeld): shown only to whoever proved it.
  signup_address_held: { page: { status: 409, copy: 'refusal.signupAddressHeld' }, oauth: null, silent: null },
  account_unavailable: { page: { status: 404, copy: 'refusal.accountUnavailable' }, oauth: null, silent: null },
  account_sign_in_failed: { page: { status: 400, copy: 'refusal.accountSignInFailed' }, oauth: null, silent: null },
  account_form_forged: {
    page: { status: 403, copy: 'refusal.accountFormForged' },
    oauth: null,
    silent: null,
  },
  // The page's own user, suspended meanwhile: said as such (they are signed in, so nothing is disclosed to another).
  account_suspended: { page: { status: 403, copy: 'refusal.accountSuspended' }, oauth: null, silent: null },
  upstream_unavailable: { page: { status: 404, copy: 'refusal.upstreamUnavailable' }, oauth: null, silent: null },
  upstream_request_expired: {
    page: { status: 400, copy: 'refusal.upstreamExpired' },
    oauth: null,
    silent: null,
  },
  upstream_unreachable: { page: { status: 502, copy: 'refusal.upstreamUnreachable' }, oauth: null, silent: null },
  // SAML (src/hosted/saml.ts): one text per step, whatever the IdP's answer said (the reason is in the audit record).
  saml_unavailable: { page: { status: 404, copy: 'refusal.samlUnavailable' }, oauth: null, silent: null },
  saml_response_refused: {
    page: { status: 400, copy: 'refusal.samlResponseRefused' },
    oauth: null,
    silent: null,
  },
  saml_logout_refused: { page: { status: 400, copy: 'refusal.samlLogoutRefused' }, oauth: null, silent: null },
  saml_unsolicited: {
    page: { status: 400, copy: 'refusal.samlUnsolicited' },
    oauth: null,
    silent: null,
  },
  saml_account_refused: {
    page: { status: 403, copy: 'refusal.samlAccountRefused' },
    oauth: null,
    silent: null,
  },
} as const satisfies Record<string, RefusalRule>;

export type RefusalReason = keyof typeof SIGN_IN_REFUSALS;

/** A sign-in refused by a rule of SIGN_IN_REFUSALS. `look`: the surface's, when its tenant is known; `detail`: why, for
 *  the log only (never shown: the rule's texts are). */
export class SignInRefusal extends Error {
  readonly reason: RefusalReason;
  readonly rule: RefusalRule;
  readonly look: PageLook | undefined;
  /** Null: no page shows this refusal. */
  readonly status: number | null;

  constructor(reason: RefusalReason, look?: PageLook, detail?: string) {
    const rule: RefusalRule = SIGN_IN_REFUSALS[reason];
    super(detail ?? (rule.page === null ? undefined : englishCopy(rule.page.copy, { name: look?.name ?? '' })) ?? rule.oauth?.description ?? reason);
    this.name = 'SignInRefusal';
    this.reason = reason;
    this.rule = rule;
    this.look = look;
    this.status = rule.page?.status ?? null;
  }

  get page(): RefusalRule['page'] {
    return this.rule.page;
  }
}

/** A consent, or a sign-in proven by nothing in its interaction (SignIn.provenHere), that would end the client's sign-in to
 *  another tenant in the browser session (the OP keeps one grant per client there): the pages say so, and only the
 *  user's POST of that page goes on (SignIn.switchConfirmed). */
export class TenantSwitchUnconfirmed extends Error {
  readonly clientName: string;
  /** Null: the application's own sign-in. */
  readonly endedTenantId: string | null;

  constructor(clientName: string, endedTenantId: string | null) {
    super('the interaction would end the client’s sign-in to another tenant: the user confirms it first');
    this.name = 'TenantSwitchUnconfirmed';
    this.clientName = clientName;
    this.endedTenantId = endedTenantId;
  }
}

/** A mailed link of a deactivated organization's application is refused before anything is used, as its OAuth clients
 *  are (servesClients); the console's links still work, its operators' way back in. */
export async function refuseDeactivated(services: Pick<DomainServices, 'apiKeys' | 'orm'>, applicationId: string, look: PageLook): Promise<void> {
  if (!(await services.apiKeys.organizations.servesClients(services.orm, applicationId))) throw new SignInRefusal('organization_deactivated', look);
}
