import { errorCodes, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { prepareDummyHash } from '../auth/password-hash.ts';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import type { ErrorCode } from '../errors.ts';
import { gatehouseErrorOf } from '../gatehouse-error-of.ts';
import { sayWhenToRetry } from '../http/retry-after.ts';
import { DEFAULT_HTML_POLICY } from '../http/html-security.ts';
import type { Services } from '../services.ts';
import { hostedCookie, secureCookiesFor } from './cookies.ts';
import { loadCsrfTokens, type CsrfTokens } from './csrf.ts';
import { parseSealedSignIn, registerMfaStep } from './mfa.ts';
import { registerInvitationPage } from './invitation.ts';
import { emailFormActions, emailSignInRoutes } from './magic-link.ts';
import { emailForms } from '../pages/magic-link.ts';
import { passwordMark, type SignInUser } from '../domain/users/sign-in-user.ts';
import type { HeldFactor } from '../domain/mfa/factors.ts';
import { POLICY_STEP_REASON, STEP_UP_REASON } from '../domain/mfa/requirement.ts';
import { newStepBudget, sharedStepBudget, stepBudgetSpent } from '../domain/mfa/second-step.ts';
import { registerSamlRoutes } from './saml.ts';
import { accountLinkRoutes } from './account-links.ts';
import { accountPageRoutes } from './account.ts';
import { expiredPasswordStep } from './password-change.ts';
import { askLink, noticeBrowser } from '../domain/sign-in/account-links.ts';
import { rememberLocale } from '../domain/users/user-locale.ts';
import {
  cspSource,
  donePage,
  emailFormPage,
  errorPage,
  loginPage,
  lookFor,
  PLAIN_LOOK,
  SECURITY_HEADERS,
  signupPage,
  spentSignInPage,
  switchPage,
  tenantPage,
  type CopyKey,
  type LoginPageInput,
  type PageLook,
  type SignupPageInput,
} from '../pages/pages.ts';
import { browserLook, namedSurfaceLook, sendPage } from '../pages/reply.ts';
import {
  activeUser,
  decideTenant,
  hintedEmail,
  recordProven,
  resolveTarget,
  sessionSignIn,
  stillProven,
  tenantsOf,
  verifyCredentials,
  type FactorRecord,
  type Proof,
  type SealedProof,
  type SignIn,
  type SignInTarget,
} from '../domain/sign-in/sign-in.ts';
import { SIGN_IN_REFUSALS, SignInRefusal, TenantSwitchUnconfirmed } from '../domain/sign-in/refusals.ts';
import { signUp } from '../domain/sign-in/sign-up.ts';
import { upstreamRoutes } from './upstream.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { passkeyButton, passkeyRoutes, relyingPartyFor } from './passkey.ts';
import { passkeySignUpRoutes } from './passkey-signup.ts';
import { type SignInThrottle } from '../pages/throttle.ts';
import { guessingAddress } from '../http/request-origin.ts';

/** Login reasons the session's user answers at the MFA step alone, without a first factor again. */
const SESSION_STEP_REASONS: ReadonlySet<string> = new Set([STEP_UP_REASON, POLICY_STEP_REASON]);

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** A field sent twice is null: no form here sends one twice. */
export type FormFields = Readonly<Record<string, string | null>>;

interface Params {
  uid: string;
}

/** How long a proven password stays good for choosing the tenant. */
const SIGN_IN_PROOF_SECONDS = 600;
const PROOF_KIND = 'first-factor|';
const PASSWORD_PROOF: Proof = { amr: ['pwd'], methods: ['password'] };
/** A browser session's user authorizing a client: no factor proven, no new sign-in made. */
const SESSION_CHOICE: Proof = { amr: ['session'], methods: [] };

const EXPIRED = SIGN_IN_REFUSALS.interaction_expired.page;

/** `amr` is empty when no registered value describes the method (an upstream's sign-in). */
export interface ProvenFactor extends Proof {
  readonly user: SignInUser;
  readonly verified: SignInUser;
  readonly page?: Pick<LoginPageInput, 'email'>;
  /** When the proof read them with the user: the MFA step then reads none. */
  readonly factors?: readonly HeldFactor[];
  /** How the factor is recorded once what follows it is known; null: no credential was checked (the session's user). */
  readonly record: FactorRecord | null;
}

export type LoginExtra = Pick<LoginPageInput, 'email' | 'error' | 'resendUrl'>;

/** Left out when the method has none (the OP then states none). */
const amrOf = (amr: readonly string[]) => (amr.length === 0 ? {} : { amr });

/** A form or page of an interaction that has its result already (answerAlone): answered with where the result leads. */
class InteractionAnswered extends Error {
  readonly returnTo: string;
  constructor(returnTo: string) {
    super('the interaction has its result already');
    this.returnTo = returnTo;
  }
}

/** What a request answering the interaction holds while it is answered (answerAlone). */
const formClaims = new WeakMap<FastifyRequest, InteractionClaim>();

export interface InteractionContext {
  readonly interaction: Interaction;
  readonly target: SignInTarget;
  /** The client's redirect URI, for CSP form-action: the OP may send the browser there after our POST. */
  readonly redirectTarget: string | undefined;
}

/** The refusals a page shows for what it is; any other is the internal error's page. */
const PAGE_OF_REFUSAL: Partial<Record<ErrorCode, { status: number; copy: CopyKey }>> = {
  rate_limited: { status: 429, copy: 'error.rateLimited' },
  // Something the sign-in refers to is gone (a row deleted meanwhile included): it cannot complete.
  not_found: EXPIRED,
  // Overloaded, or a lock taken: a retry shortly may pass.
  service_unavailable: { status: 503, copy: 'error.unavailable' },
};

/** An interaction as the OP reads it for this browser, with its client. */
type InteractionRead = Awaited<ReturnType<Services['oidc']['interaction']>>;

type InteractionClaim = Awaited<ReturnType<Services['oidc']['claimInteraction']>>;

/** A page of an interaction, whatever its outcome: in its `ui_locales` first (kept with it, so every page of the sign-in
 *  keeps it), else the browser's language. */
const interactionLook = (look: PageLook, request: FastifyRequest, interaction: Interaction): PageLook =>
  lookFor(look, request.headers['accept-language'], interaction.params['ui_locales']);

function statusOf(error: unknown): { status: number; copy: CopyKey; look?: PageLook | undefined } {
  if (error instanceof SignInRefusal && error.page !== null) return { ...error.page, look: error.look };
  const refusal = gatehouseErrorOf(error);
  const page = refusal === undefined ? undefined : PAGE_OF_REFUSAL[refusal.code];
  if (page !== undefined) return page;
  const code = (error as Partial<FastifyError>).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, copy: 'error.tooLarge' };
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, copy: 'error.mediaType' };
  const status = (error as Partial<FastifyError>).statusCode;
  if (status !== undefined && status >= 400 && status < 500) return { status, copy: 'error.unreadable' };
  return { status: 500, copy: 'error.internal' };
}

/**
 * A form's bounds (the SAML ACS takes a larger body, its route's own). A hosted form is a few fields and kilobytes, a
 * passkey's attestation the most; URLSearchParams builds a 1 MiB form of 130,000 fields, or of one field of `+`s, in
 * 100 ms to a second of the event loop.
 */
const FORM_LIMIT_BYTES = 64 * 1024;
const FORM_MAX_FIELDS = 64;

/** Counted as URLSearchParams splits them, without splitting. */
function fieldsAtLeast(body: string, count: number): boolean {
  let fields = 1;
  for (let at = body.indexOf('&'); at !== -1 && fields < count; at = body.indexOf('&', at + 1)) fields += 1;
  return fields >= count;
}

/**
 * The hosted sign-in pages, on the OP's interaction seam. Registered without fastify-plugin: the form parser, the error
 * page and the security headers stay inside this scope.
 */
export function hostedRoutes(services: Services, throttle: SignInThrottle) {
  return async function register(app: FastifyInstance): Promise<void> {
    const csrf: CsrfTokens = await loadCsrfTokens(services.orm);
    await prepareDummyHash();

    // Forms only; anything else is 415.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES }, (_request, body, done) => {
      if (fieldsAtLeast(body as string, FORM_MAX_FIELDS + 1)) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      const fields: Record<string, string | null> = Object.create(null) as Record<string, string | null>;
      for (const [name, value] of new URLSearchParams(body as string)) fields[name] = name in fields ? null : value;
      done(null, fields);
    });

    // Whatever the answer (a page, a redirect, an error's page), the next answer of the interaction may go once it is sent.
    app.addHook('onSend', async (request, _reply, payload) => {
      const claim = formClaims.get(request);
      formClaims.delete(request);
      await claim?.release().catch((error: unknown) => request.log.error({ err: error }, 'a form’s claim on its interaction was not let go: it lapses'));
      return payload;
    });

    // Never framed, never cached, never leaking the interaction URL as a Referer.
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(SECURITY_HEADERS);
      if (!reply.hasHeader('content-security-policy')) {
        reply.header('content-security-policy', DEFAULT_HTML_POLICY);
      }
      return payload;
    });

    const onHostOf = async (request: FastifyRequest, url: string) =>
      new URL((await services.surfaces.forHost(request.headers.host)).issuer).origin === new URL(url).origin;

    /**
     * The way back to the client of an interaction that is not this browser's live one (Back, an old tab, a reposted
     * form), on the host it began on. Undefined for a uid never issued, a client with no page, and a refusal whose route
     * gave its own look (a SAML proof names its provider only when sealed for that uid).
     */
    async function wayBack(request: FastifyRequest, reply: FastifyReply, error: unknown) {
      const uid = (request.params as Partial<Params> | undefined)?.uid;
      if (!(error instanceof SignInRefusal) || error.reason !== 'interaction_expired' || error.look !== undefined || typeof uid !== 'string') return undefined;
      const spent = await services.oidc.spentSignIn(uid, request.raw, reply.raw);
      if (spent === undefined || !(await onHostOf(request, spent.issuer))) return undefined;
      const look = await namedSurfaceLook(services, request, spent.client.data.applicationId, spent.tenantRef);
      return { look, way: { client: spent.client.name, url: spent.home, signedIn: spent.signedIn } };
    }

    /** A 413, 415 or 500 of an interaction in its look, read from the browser's cookies (not the refused body); none read
     *  for 429 or 503, which a service already refusing work answers. Without one, the host's: a custom domain's own. */
    async function errorLook(request: FastifyRequest, reply: FastifyReply, error: unknown, status: number): Promise<PageLook> {
      if (status === 429 || status === 503) return browserLook(request);
      const hostLook = () => namedSurfaceLook(services, request, undefined, null).catch(() => browserLook(request));
      const uid = (request.params as Partial<Params> | undefined)?.uid;
      if (error instanceof SignInRefusal || typeof uid !== 'string') return hostLook();
      const read = await services.oidc.interaction(request.raw, reply.raw, uid).catch(() => undefined);
      if (read === undefined) return hostLook();
      const target = await targetOf(request, read).catch(() => undefined);
      return target?.look ?? interactionLook(PLAIN_LOOK, request, read.interaction);
    }

    app.setErrorHandler(async (error, request, reply) => {
      if (error instanceof InteractionAnswered) return reply.status(303).header('location', error.returnTo).send();
      const { status, copy, look } = statusOf(error);
      if (status === 500) request.log.error({ err: error }, 'unexpected error on a hosted page');
      sayWhenToRetry(reply, status);
      // The refusal stands whatever happens to its way back.
      const back = await wayBack(request, reply, error).catch((failure: unknown) => void request.log.error({ err: failure }, 'no way back from a spent sign-in'));
      if (back !== undefined) return sendPage(reply, status, (nonce) => spentSignInPage(back.look, nonce, back.way));
      const pageLook = look ?? (await errorLook(request, reply, error, status));
      return sendPage(reply, status, (nonce) => errorPage(pageLook, nonce, { key: copy }));
    });

    /** The sign-in an interaction read for this browser is of, in its look. */
    async function targetOf(request: FastifyRequest, { interaction, client }: InteractionRead): Promise<SignInTarget> {
      // Only on the host that began it: links are built from the request's host, and another application's verified domain
      // there would send a mailed sign-in link to whoever points that domain elsewhere.
      if (!(await onHostOf(request, interaction.returnTo))) throw new SignInRefusal('interaction_expired');
      const settled = await resolveTarget(services, request.id, client, interaction.params['tenant']);
      return { ...settled, look: interactionLook(settled.look, request, interaction) };
    }

    /** Bound to this browser by the OP's cookie. */
    async function load(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<InteractionContext> {
      const read = await services.oidc.interaction(request.raw, reply.raw, request.params.uid);
      const { interaction } = read;
      return { interaction, target: await targetOf(request, read), redirectTarget: cspSource(interaction.params['redirect_uri']) };
    }

    const formTargets = (context: InteractionContext) => (context.redirectTarget === undefined ? [] : [context.redirectTarget]);

    const hinted = (context: InteractionContext) => {
      const email = hintedEmail(context.interaction.params['login_hint']);
      return email === undefined ? {} : { email };
    };

    async function showLogin(reply: FastifyReply, context: InteractionContext, status: number, extra: LoginExtra = {}) {
      const { uid } = context.interaction;
      const { password, email, upstreams, saml, passkey, look } = context.target;
      if (!password.signIn && !email.link && !email.code && upstreams.length === 0 && saml.length === 0 && passkey === null) {
        throw new SignInRefusal('password_unavailable', look);
      }
      const signupUrl = password.signUp ? { signupUrl: interactionPaths(uid).signup } : {};
      const passkeySignupUrl = passkey?.signUp === true ? { passkeySignupUrl: interactionPaths(uid).passkeySignup } : {};
      // A sign-in on a consent prompt replaces the session's user: say so first.
      const notice = context.interaction.prompt.name === 'consent' ? { notice: 'login.switchAccount' as const } : {};
      const token = csrf.issue(uid);
      const otherMethods =
        (await passkeyButton(services, reply.request, context, token)) +
        emailForms(look, { csrf: token, belowPassword: password.signIn, ...emailFormActions(uid, email), ...hinted(context) });
      const input = {
        action: interactionPaths(uid).login,
        csrf: token,
        password: password.signIn,
        otherMethods,
        upstreams: [
          ...upstreams.map((method) => ({ name: method.name, url: interactionPaths(uid).upstreamStart(method.providerId) })),
          ...saml.map((method) => ({ name: method.name, url: interactionPaths(uid).samlStart(method.id) })),
        ],
        ...(password.signIn ? { forgotUrl: interactionPaths(uid).forgot } : {}),
        ...signupUrl,
        ...passkeySignupUrl,
        ...notice,
        ...hinted(context),
        ...extra,
      };
      return sendPage(reply, status, (nonce) => loginPage(context.target.look, nonce, input), formTargets(context));
    }

    type SignupExtra = Pick<SignupPageInput, 'name' | 'email' | 'error' | 'fieldErrors'>;

    async function showSignup(reply: FastifyReply, context: InteractionContext, status: number, extra: SignupExtra = {}) {
      const { uid } = context.interaction;
      const passwordPolicy = await effectivePasswordPolicy(context.target.scope, context.target.policyTenantId);
      return sendPage(
        reply,
        status,
        (nonce) =>
          signupPage(context.target.look, nonce, { action: interactionPaths(uid).signup, csrf: csrf.issue(uid), loginUrl: interactionPaths(uid).page, passwordPolicy, ...extra }),
        formTargets(context),
      );
    }

    async function requireSignup(context: InteractionContext) {
      if (!context.target.password.signUp || !(await signsIn(context))) {
        throw new SignInRefusal('signup_unavailable', context.target.look);
      }
    }

    function showTenantChoice(
      reply: FastifyReply,
      context: InteractionContext,
      user: SignInUser,
      tenants: readonly { id: string; name: string }[],
      error = false,
      proof?: string,
    ) {
      const { uid } = context.interaction;
      return sendPage(
        reply,
        error ? 400 : 200,
        (nonce) =>
          tenantPage(context.target.look, nonce, {
            action: interactionPaths(uid).tenant,
            csrf: csrf.issue(uid),
            signIn: proof ?? sealProof(uid, user.id, { ...SESSION_CHOICE, ended: user.signInsEnded }),
            tenants,
            error,
          }),
        formTargets(context),
      );
    }

    /** What the switch ends and where it goes on, by name; a tenant the user has left since reads as the application. */
    async function showSwitch(reply: FastifyReply, context: InteractionContext, signIn: SignIn, unconfirmed: TenantSwitchUnconfirmed) {
      const { uid } = context.interaction;
      const user = signIn.verified ?? (await activeUser(context.target, signIn.userId));
      const tenants = user === null ? [] : await tenantsOf(context.target, user);
      const nameOf = (tenantId: string | null) => tenants.find((tenant) => tenant.id === tenantId)?.name ?? context.target.application.name;
      const input = {
        action: interactionPaths(uid).switch,
        csrf: csrf.issue(uid),
        tenantId: signIn.tenantId ?? '',
        client: unconfirmed.clientName,
        from: nameOf(unconfirmed.endedTenantId),
        to: nameOf(signIn.tenantId),
      };
      return sendPage(reply, 200, (nonce) => switchPage(context.target.look, nonce, input), formTargets(context));
    }

    const secureCookies = secureCookiesFor(services.config.publicUrl);
    // Carries a proven password (sealed, bound to the interaction) to the tenant choice: a reload is a GET, never the password posted again.
    const proofCookie = hostedCookie(secureCookies, 'gh_signin');

    // Sealed as a kind of its own: the interaction's other seals hold JSON too.
    // With the factor's record, written once the tenant is chosen and the MFA step decided.
    const sealProof = (uid: string, userId: string, { amr, methods, password, step, signedInAt, ended }: SealedProof, record: FactorRecord | null = null) =>
      csrf.seal(uid, `${PROOF_KIND}${JSON.stringify({ userId, amr, methods, password, step, signedInAt, ended, record })}`, SIGN_IN_PROOF_SECONDS);
    const unsealProof = (uid: string, sealed: unknown) =>
      parseSealedSignIn<SealedProof & { readonly userId: string; readonly record?: FactorRecord | null }>(csrf.unseal(uid, sealed), PROOF_KIND);

    // For the session policy's notifyNewBrowser (account-links.ts): the service's, on every path. `__Host-`, or a sibling
    // subdomain could plant its own id, which the victim's next sign-in would make known to the planter's browser.
    const browserCookie = hostedCookie(secureCookies, 'gh_browser', '__Host-');
    // Its name before: read only to keep a browser known, then dropped (plain over http, where the name never changed).
    const formerBrowserCookie = secureCookies ? hostedCookie(secureCookies, 'gh_browser') : undefined;

    function continueToTenantChoice(reply: FastifyReply, context: InteractionContext, proven: ProvenFactor & Pick<SealedProof, 'ended'>) {
      const { uid } = context.interaction;
      const proof = sealProof(uid, proven.user.id, proven, proven.record);
      return reply.status(303).header('set-cookie', proofCookie.set(interactionPaths(uid).page, proof, SIGN_IN_PROOF_SECONDS)).header('location', interactionPaths(uid).tenant).send();
    }

    /** The session's step-up: one count of the step's attempts, however often the session is taken to the step. */
    const sessionStepBudget = (context: InteractionContext) =>
      sharedStepBudget('session', context.target.application.id, context.interaction.session?.uid ?? context.interaction.uid);

    /** The one sequence after any proven first factor: tenant decided (refused without access), then the tenant choice or
     *  completeSignIn. `switchTo`: the tenant the user confirmed on the switch page, which the decision must still offer. */
    async function continueSignIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, factor: ProvenFactor, switchTo?: string | null) {
      const proven = { ...factor, step: factor.step ?? (factor.record === null ? sessionStepBudget(context) : newStepBudget()), ended: factor.user.signInsEnded };
      const decision = await decideTenant(context.target, proven.user);
      if (decision.kind === 'no_access') {
        // Recorded in the surface's tenant as the unknown address the user is there (recordSignIn).
        if (proven.record !== null) await recordProven(context.target, proven.verified, proven.record, false);
        return showLogin(reply, context, 403, { ...proven.page, error: 'login.noAccess' });
      }
      await rememberLocale(context.target, proven.user);
      let tenantId: string | null;
      if (switchTo !== undefined) {
        const offered = decision.kind === 'tenant' ? [decision.tenantId] : decision.tenants.map((tenant) => tenant.id);
        if (!offered.includes(switchTo)) return reply.status(303).header('location', interactionPaths(context.interaction.uid).page).send();
        tenantId = switchTo;
      } else if (decision.kind === 'choose') return continueToTenantChoice(reply, context, proven);
      else tenantId = decision.tenantId;
      const confirmed = switchTo === undefined ? {} : { switchConfirmed: true as const };
      const signIn = { ...confirmed, userId: proven.user.id, tenantId, verified: proven.verified, ...amrOf(proven.amr), methods: proven.methods, password: proven.password, step: proven.step, signedInAt: proven.signedInAt, ended: proven.ended };
      return completeSignIn(request, reply, context, signIn, proven.record === null ? undefined : { user: proven.verified, record: proven.record, held: proven.factors });
    }

    async function finish(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, signIn: SignIn | undefined) {
      let returnTo: string;
      try {
        returnTo = await services.oidc.completeInteraction(context.interaction, signIn);
      } catch (error) {
        if (error instanceof SignInRefusal && error.reason === 'account_refused') return refuse(request, reply, context, error.message);
        if (error instanceof TenantSwitchUnconfirmed && signIn !== undefined) return showSwitch(reply, context, signIn, error);
        throw error;
      }
      if (signIn?.methods !== undefined) await noticeSignIn(request, reply, context, signIn);
      return reply.status(303).header('location', returnTo).send();
    }

    /** A sign-in is news (notifyNewBrowser) once every step passed, not at a password stopped at the MFA step. */
    async function noticeSignIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, signIn: SignIn) {
      if (!context.target.session.notifyNewBrowser) return;
      const user = signIn.verified ?? (await activeUser(context.target, signIn.userId));
      if (user === null) return;
      const formerBrowserId = formerBrowserCookie?.read(request);
      const origin = { browserId: browserCookie.read(request), formerBrowserId, ip: guessingAddress(request), userAgent: request.headers['user-agent'] };
      const browserId = await noticeBrowser(context.target, { ...user, locale: context.target.look.locale }, origin);
      if (browserId !== undefined) reply.header('set-cookie', browserCookie.set('/', browserId, 400 * 24 * 3600));
      if (formerBrowserId !== undefined) reply.header('set-cookie', formerBrowserCookie!.clear('/'));
    }

    /**
     * A sign-in refused once its interaction is trusted (user suspended or removed since the password check, client
     * gone): ends with `access_denied` back through the OP, so no client waits on a sign-in that cannot complete.
     */
    async function refuse(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, reason: string) {
      request.log.info({ interaction: context.interaction.uid, reason }, 'hosted sign-in refused: access_denied');
      const returnTo = await services.oidc.refuseInteraction(context.interaction);
      return reply.status(303).header('location', returnTo).send();
    }

    /** Nothing left to choose: refused, not turned into a sign-in to no tenant, which the user was never offered. */
    const refuseEmptyChoice = (request: FastifyRequest, reply: FastifyReply, context: InteractionContext) =>
      refuse(request, reply, context, 'the user is no longer a member of any tenant to choose');

    /** A form of this interaction's pages (CSRF), which it still awaits, answered alone: one sent again (a double submit),
     *  even before the first is answered, waits for it and goes where its answer led, nothing proven or recorded twice.
     *  The claim ends as the form's answer is sent (the onSend hook above). */
    async function requireOpenForm(request: FastifyRequest, context: InteractionContext, fields: FormFields): Promise<void> {
      if (!csrf.verify(context.interaction.uid, fields['csrf'])) throw new SignInRefusal('form_forged', context.target.look);
      await answerAlone(request, context);
    }

    /** The interaction, which must still await its result, answered by this request alone (interaction-claims.ts). */
    async function answerAlone(request: FastifyRequest, context: InteractionContext): Promise<void> {
      const claim = await services.oidc.claimInteraction(context.interaction.uid);
      formClaims.set(request, claim);
      if (claim.state === 'gone') throw new SignInRefusal('interaction_expired');
      if (claim.state === 'answered') throw new InteractionAnswered(context.interaction.returnTo);
    }

    const formOf = (request: FastifyRequest): FormFields => (request.body ?? {}) as FormFields;
    // Sign-in and sign-up POSTs guess at passwords and e-mails: throttled per address.
    const throttled = { onRequest: throttle.hook(async (request, reply) => (await load(request as FastifyRequest<{ Params: Params }>, reply)).target.look) };
    // A password older than the policy's maxAge is changed last, after the MFA step.
    const changePassword = expiredPasswordStep(app, { csrf, secureCookies, load, signsIn, finish, refuse, throttled, requireOpenForm }).start;
    const startOver = (reply: FastifyReply, context: InteractionContext) => showLogin(reply, context, 400, { error: 'login.tooManyCodes' });
    const { completeSignIn, stepEnrols } = registerMfaStep(app, services, { csrf, secureCookies, throttled, load, finish, changePassword, refuse, requireOpenForm, formTargets, startOver });

    /**
     * The OP asks for a login, or the session's user cannot be used here (another isolated pool, suspended, not a member
     * of the tenant asked for). Signing in then switches the session's account.
     */
    async function signsIn(context: InteractionContext): Promise<boolean> {
      const { interaction } = context;
      if (interaction.prompt.name === 'login') return true;
      return interaction.prompt.name === 'consent' && (await sessionAccount(context)) === null;
    }

    /** The OP brought a kept grant here only because the request asks for more or for consent again. */
    const sessionAccount = (context: InteractionContext) =>
      sessionSignIn(context.target, context.interaction.session?.accountId, context.interaction.grantId !== undefined);

    const saml = registerSamlRoutes(app, services, csrf, throttle, { load, signsIn, requireOpenForm, formTargets, continueSignIn });

    /** Login asked only for the second factor the session lacked (acr_values, or a policy made required since its sign-in):
     *  on to the MFA step without a first factor again, for a user holding a factor to prove. An enrolment is not done on
     *  the session alone (the factor would outlive it and a password reset, as on the account page): the form first. */
    async function stepUpSession(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, switchTo?: string | null) {
      const { prompt, session } = context.interaction;
      if (prompt.reasons.length === 0 || !prompt.reasons.every((reason) => SESSION_STEP_REASONS.has(reason))) return undefined;
      const account = await sessionSignIn(context.target, session?.accountId, true);
      // Its attempts at the step used up: a first factor again, on the sign-in form.
      if (account === null || (await stepBudgetSpent(context.target, sessionStepBudget(context)))) return undefined;
      const amr = session?.amr ?? [];
      if (await stepEnrols(request, context, account.user.id, amr)) return undefined;
      const { methods, signedInAt } = await services.oidc.sessionSignIn(context.interaction);
      return continueSignIn(request, reply, context, { user: account.user, verified: account.user, amr, methods, signedInAt, record: null }, switchTo);
    }

    app.get<{ Params: Params }>('/interaction/:uid', async (request, reply) => {
      const context = await load(request, reply);
      const { interaction } = context;
      // An IdP-initiated SAML sign-in, proven moments ago in this browser, is offered to the sign-in it led to.
      if (interaction.prompt.name === 'login') {
        return (await saml.offerUnsolicited(request, reply, context)) ?? (await stepUpSession(request, reply, context)) ?? showLogin(reply, context, 200);
      }
      if (interaction.prompt.name === 'consent') {
        // The session's user authorizing this client: no form; the tenant is decided as for a sign-in. A session user
        // who cannot be used here gets the sign-in form instead. Answered alone, as a form is: the page opened twice at
        // once (two tabs, a reload) makes one grant, and the second goes where the first led.
        await answerAlone(request, context);
        const account = await sessionAccount(context);
        if (account === null) return showLogin(reply, context, 200);
        const { user, decision } = account;
        if (decision === undefined) return finish(request, reply, context, undefined);
        if (decision.kind === 'choose') return showTenantChoice(reply, context, user, decision.tenants);
        return finish(request, reply, context, { userId: user.id, tenantId: decision.tenantId });
      }
      throw new SignInRefusal('step_unsupported', context.target.look);
    });

    app.post<{ Params: Params }>('/interaction/:uid/login', throttled, async (request, reply) => {
      const context = await load(request, reply);
      const fields = formOf(request);
      await requireOpenForm(request, context, fields);
      // A form left open after its step was done: show the current step.
      if (!(await signsIn(context))) return reply.status(303).header('location', interactionPaths(context.interaction.uid).page).send();
      if (!context.target.password.signIn) throw new SignInRefusal('password_unavailable', context.target.look);
      const email = typeof fields['email'] === 'string' ? fields['email'] : '';
      const rp = await relyingPartyFor(services, request);
      const check = await verifyCredentials(context.target, fields['email'], fields['password'], guessingAddress(request), rp.id);
      if (!check.ok) {
        // Told only once the password is proven: the account exists, and its owner must open the link first.
        if (check.unverified === true) return showLogin(reply, context, 403, { email, error: 'login.unverified', resendUrl: interactionPaths(context.interaction.uid).verify });
        return showLogin(reply, context, 400, { email, error: 'login.error' });
      }
      const password = passwordMark(check.verified);
      return continueSignIn(request, reply, context, { user: check.user, verified: check.verified, ...PASSWORD_PROOF, password, page: { email }, factors: check.factors, record: check.record });
    });

    app.get<{ Params: Params }>('/interaction/:uid/signup', async (request, reply) => {
      const context = await load(request, reply);
      await requireSignup(context);
      return showSignup(reply, context, 200, hinted(context));
    });

    app.post<{ Params: Params }>('/interaction/:uid/signup', throttled, async (request, reply) => {
      const context = await load(request, reply);
      const fields = formOf(request);
      await requireOpenForm(request, context, fields);
      await requireSignup(context);
      const typed = { name: fields['name'] ?? '', email: fields['email'] ?? '' };
      const applicationUrl = context.redirectTarget ?? services.config.publicUrl;
      const outcome = await signUp(context.target, { name: fields['name'], email: fields['email'], password: fields['password'] }, applicationUrl);
      if (!outcome.ok) return showSignup(reply, context, 400, { ...typed, error: 'signup.invalid', fieldErrors: outcome.fieldErrors });
      // A new account and a taken address get the same page: the mail tells which, to the address's owner only.
      return sendPage(reply, 200, (nonce) => donePage(context.target.look, nonce, 'signup.sentTitle', 'signup.sentText', { email: outcome.email }));
    });

    const linkForms = [
      { path: 'forgot', form: 'forgot', purpose: 'password_reset', sent: 'forgot.sentText' },
      { path: 'verify', form: 'resend', purpose: 'verify_email', sent: 'verify.sentText' },
    ] as const;
    for (const { path, form, purpose, sent } of linkForms) {
      const show = (reply: FastifyReply, context: InteractionContext) => {
        if (!context.target.password.signIn) throw new SignInRefusal('password_links_unavailable', context.target.look);
        const { uid } = context.interaction;
        const input = { action: interactionPaths(uid)[path], csrf: csrf.issue(uid), form, loginUrl: interactionPaths(uid).page, ...hinted(context) };
        return sendPage(reply, 200, (nonce) => emailFormPage(context.target.look, nonce, input), formTargets(context));
      };
      app.get<{ Params: Params }>(`/interaction/:uid/${path}`, async (request, reply) => show(reply, await load(request, reply)));
      app.post<{ Params: Params }>(`/interaction/:uid/${path}`, throttled, async (request, reply) => {
        const context = await load(request, reply);
        const fields = formOf(request);
        await requireOpenForm(request, context, fields);
        if (!context.target.password.signIn) throw new SignInRefusal('password_links_unavailable', context.target.look);
        const email = typeof fields['email'] === 'string' ? fields['email'].trim() : '';
        // The same page, status and headers whether the address has an account or not.
        await askLink(context.target, email, purpose);
        return sendPage(reply, 200, (nonce) => donePage(context.target.look, nonce, 'forgot.sentTitle', sent, { email }));
      });
    }

    // Plain look, as the account page's: the link's surface is known only once its token is read.
    accountLinkRoutes(app, services, { onRequest: throttle.hook() });
    const steps = { load, csrf, requireOpenForm, formOf, signsIn, formTargets, throttled, continueSignIn, showLogin };
    emailSignInRoutes(app, services, steps);
    passkeySignUpRoutes(app, services, steps);
    passkeyRoutes(app, services, steps);
    // Throttled as the sign-in's (plain look: the page's own is known only once its session is read).
    accountPageRoutes(app, services, csrf, { onRequest: throttle.hook() });

    // A form's address opened or reloaded: back to the interaction's page, which shows the current step.
    const backToPage = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) =>
      reply.status(303).header('location', interactionPaths(request.params.uid).page).send();
    app.get<{ Params: Params }>('/interaction/:uid/login', backToPage);

    // Shown, also on a reload, while the proof stands; otherwise back to the interaction's page.
    app.get<{ Params: Params }>('/interaction/:uid/tenant', async (request, reply) => {
      const proof = proofCookie.read(request);
      if (proof === undefined) return backToPage(request, reply);
      const context = await load(request, reply);
      const proven = unsealProof(context.interaction.uid, proof);
      const user = proven === undefined || !(await signsIn(context)) ? null : await activeUser(context.target, proven.userId);
      if (user === null || proven === undefined || !stillProven(user, proven)) return backToPage(request, reply);
      const tenants = await tenantsOf(context.target, user);
      if (tenants.length === 0) return refuseEmptyChoice(request, reply, context);
      return showTenantChoice(reply, context, user, tenants, false, proof);
    });

    // The session's user confirming a consent, or a session's step-up, that ends the client's sign-in to another tenant
    // (showSwitch): a tenant the consent or sign-in may still take, the session's user still the same.
    app.post<{ Params: Params }>('/interaction/:uid/switch', async (request, reply) => {
      const context = await load(request, reply);
      const fields = formOf(request);
      await requireOpenForm(request, context, fields);
      const tenantId = fields['tenant'] === '' ? null : (fields['tenant'] ?? undefined);
      if (tenantId !== undefined && context.interaction.prompt.name === 'login') return (await stepUpSession(request, reply, context, tenantId)) ?? backToPage(request, reply);
      const account = context.interaction.prompt.name === 'consent' ? await sessionAccount(context) : null;
      if (account === null) return backToPage(request, reply);
      const { user, decision } = account;
      const offered = decision?.kind === 'tenant' ? [decision.tenantId] : decision?.kind === 'choose' ? decision.tenants.map((tenant) => tenant.id) : [];
      if (tenantId === undefined || !offered.includes(tenantId)) return backToPage(request, reply);
      return finish(request, reply, context, { userId: user.id, tenantId, switchConfirmed: true });
    });
    app.get<{ Params: Params }>('/interaction/:uid/switch', backToPage);

    registerInvitationPage(app, services, csrf, throttle);
    upstreamRoutes(app, { services, csrf, secureCookies, load, signsIn, showLogin, continueSignIn });

    // Still a hosted page: a 404 page with these routes' headers, not the API's JSON.
    for (const url of ['/interaction', '/interaction/*']) {
      app.all(url, async () => {
        throw new SignInRefusal('no_such_page');
      });
    }

    app.post<{ Params: Params }>('/interaction/:uid/tenant', async (request, reply) => {
      const context = await load(request, reply);
      const fields = formOf(request);
      await requireOpenForm(request, context, fields);
      const proven = unsealProof(context.interaction.uid, fields['signin']);
      if (proven === undefined) throw new SignInRefusal('proof_expired', context.target.look);
      const user = await activeUser(context.target, proven.userId);
      if (user === null) return refuse(request, reply, context, 'the user is no longer an active user of the pool');
      if (!stillProven(user, proven)) return refuse(request, reply, context, 'the password proven was replaced since');
      const tenants = await tenantsOf(context.target, user);
      if (tenants.length === 0) return refuseEmptyChoice(request, reply, context);
      const chosen = tenants.find((tenant) => tenant.id === fields['tenant']);
      if (chosen === undefined) return showTenantChoice(reply, context, user, tenants, true, sealProof(context.interaction.uid, user.id, proven, proven.record));
      if (proven.amr.join(' ') === SESSION_CHOICE.amr.join(' ')) {
        // The session's user authorizing a client: a consent, never a sign-in.
        if (context.interaction.prompt.name !== 'consent' || (await sessionAccount(context))?.user.id !== user.id) throw new SignInRefusal('proof_expired', context.target.look);
        return finish(request, reply, context, { userId: user.id, tenantId: chosen.id });
      }
      reply.header('set-cookie', proofCookie.clear(interactionPaths(context.interaction.uid).page));
      const signIn = { userId: user.id, tenantId: chosen.id, ...amrOf(proven.amr), methods: proven.methods, password: proven.password, step: proven.step, signedInAt: proven.signedInAt, ended: proven.ended };
      return completeSignIn(request, reply, context, signIn, proven.record == null ? undefined : { user, record: proven.record });
    });
  };
}
