import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TENANT_PATH_PREFIX } from '../domain/domains/surfaces.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import {
  answersReauthentication,
  consumeSamlResponse,
  domainSamlEndpoints,
  findSamlProvider,
  finishSamlLogout,
  readSamlLogoutRequest,
  samlMetadata,
  samlSignInUrl,
  SAML_BODY_LIMIT_BYTES,
  samlUrls,
  type SamlIdentity,
  type SamlLogoutMessage,
  type SamlEndpoints,
  type SamlProvider,
} from '../domain/sign-in/saml.ts';
import { endSamlSubjectSessions } from '../domain/sign-in/saml-logout.ts';
import { declineSamlIdentity, recordSamlRefusal, SAML_METHOD, samlAccount } from '../domain/sign-in/saml-account.ts';
import { donePage } from '../pages/pages.ts';
import { namedSurfaceLook, sendPage } from '../pages/reply.ts';
import { unsolicitedConfirmationPage } from '../pages/saml.ts';
import type { SignInThrottle } from '../pages/throttle.ts';
import type { Services } from '../services.ts';
import { guessingAddress } from '../http/request-origin.ts';
import { interactionPaths, INTERACTION_ROOT } from '../domain/sign-in/interaction-paths.ts';
import { hostedCookie, secureCookiesFor } from './cookies.ts';
import type { CsrfTokens } from './csrf.ts';
import type { Proof } from '../domain/sign-in/sign-in.ts';
import { reauthenticationOf } from '../domain/sign-in/reauthentication.ts';
import type { FormFields, InteractionContext, ProvenFactor } from './routes.ts';
import { sharedStepBudget } from '../domain/mfa/second-step.ts';
import { isUuid } from '../ids.ts';

/**
 * SAML sign-in on the hosted pages (rules: src/domain/sign-in/saml.ts, saml-account.ts):
 * - `GET /interaction/{uid}/saml/{providerId}`: an AuthnRequest to the IdP, recorded with its interaction;
 * - `POST {surface}/saml/{providerId}/acs`: a cross-site POST carrying none of the OP's SameSite cookies, so the browser
 *   goes on with a sealed proof: to its interaction (SP-initiated), or for an IdP-initiated response in a cookie of its
 *   own to `idpInitiatedLoginUrl`, whose interaction asks "Continue as …?" (`POST /interaction/{uid}/saml`);
 * - `GET {surface}/saml/{providerId}/metadata`, and `GET|POST …/slo` for a provider with an `sloUrl` (saml-logout.ts).
 * `{surface}` is the provider's path on the service's host, or the root of a verified custom domain of its scope: an
 * IdP-initiated cookie then lands on the domain where the application's sign-in runs.
 */

export interface SignInSteps {
  load(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<InteractionContext>;
  signsIn(context: InteractionContext): Promise<boolean>;
  requireOpenForm(request: FastifyRequest, context: InteractionContext, fields: FormFields): Promise<void>;
  formTargets(context: InteractionContext): string[];
  continueSignIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, proven: ProvenFactor): Promise<unknown>;
}

/** RFC 8176 registers no value for a federated sign-in: the ID token states none, as for social sign-in. */
const SAML_PROOF: Proof = { amr: [], methods: [SAML_METHOD] };
/** A redirect away. */
const PROOF_SECONDS = 120;
/** For the application to start its sign-in, then for the user's word. */
const UNSOLICITED_SECONDS = 300;

interface ProviderParams {
  providerId: string;
  tenantRef?: string;
}

/** One budget per provider however its id is cased (the lookup takes any case), and one for ids no provider can have. */
const samlThrottleScope = (providerId: string): string => (isUuid(providerId) ? `saml:${providerId.toLowerCase()}` : 'saml:none');

export function registerSamlRoutes(app: FastifyInstance, services: Services, csrf: CsrfTokens, throttle: SignInThrottle, steps: SignInSteps) {
  const { orm, config } = services;
  const deps = { orm, storedSecrets: services.storedSecrets, publicUrl: config.publicUrl };
  const unsolicitedCookie = hostedCookie(secureCookiesFor(config.publicUrl), 'gh_saml');
  // IdP-initiated: bound to its application (no interaction existed yet), then to the interaction under a binding of
  // its own, which the SP-initiated proof's GET does not take.
  const unsolicitedBinding = (applicationId: string) => `saml-unsolicited|${applicationId}`;
  const confirmationBinding = (uid: string) => `saml-confirm|${uid}`;
  // SP-initiated: a binding of its own too, so that no other seal of the interaction (a proven factor's) reads as one.
  const answerBinding = (uid: string) => `saml-answer|${uid}`;

  /** Its refusals and pages are the application's, not plain. */
  const providerLook = (request: FastifyRequest, provider: SamlProvider) => namedSurfaceLook(services, request, provider.applicationId, provider.tenantId);

  /** Else 404; on a custom domain, only a provider of the domain's application and tenant, or the application's own. */
  async function providerAt(request: FastifyRequest<{ Params: ProviderParams }>): Promise<{ provider: SamlProvider; endpoints: SamlEndpoints; onDomain: boolean }> {
    const { providerId, tenantRef } = request.params;
    const [provider, surface] = await Promise.all([findSamlProvider(orm, providerId), services.surfaces.forHost(request.headers.host)]);
    if (provider !== null && surface.kind !== 'domain' && provider.tenantId === (tenantRef ?? null)) {
      return { provider, endpoints: samlUrls(config.publicUrl, provider), onDomain: false };
    }
    const onDomain =
      provider !== null &&
      surface.kind === 'domain' &&
      tenantRef === undefined &&
      provider.applicationId === surface.applicationId &&
      (provider.tenantId === null || provider.tenantId === surface.tenantId);
    if (!onDomain) throw new SignInRefusal('no_such_page');
    return { provider, endpoints: domainSamlEndpoints(surface.issuer, provider.id), onDomain: true };
  }

  /** The IdP's POSTs need no credential: throttled per address and provider before the body is read, and kept small. */
  const samlPost = {
    bodyLimit: SAML_BODY_LIMIT_BYTES,
    onRequest: throttle.hook(
      async (request) => providerLook(request, (await providerAt(request as FastifyRequest<{ Params: ProviderParams }>)).provider),
      (request) => samlThrottleScope((request.params as ProviderParams).providerId),
    ),
  };

  for (const prefix of ['', `${TENANT_PATH_PREFIX}/:tenantRef`]) {
    app.get<{ Params: ProviderParams }>(`${prefix}/saml/:providerId/metadata`, async (request, reply) => {
      const { provider, endpoints, onDomain } = await providerAt(request);
      return reply.type('application/samlmetadata+xml; charset=utf-8').send(await samlMetadata(deps, provider, onDomain ? endpoints : undefined));
    });

    app.post<{ Params: ProviderParams }>(`${prefix}/saml/:providerId/acs`, samlPost, async (request, reply) => {
      const { provider, endpoints } = await providerAt(request);
      const fields = (request.body ?? {}) as Record<string, string | null>;
      const outcome = await consumeSamlResponse(deps, provider, endpoints.acsUrl, fields['SAMLResponse']);
      if (!outcome.ok) {
        const { reason } = outcome;
        request.log.info({ provider: provider.id, reason, detail: outcome.detail }, 'SAML response refused');
        // Not a SAML response at all is no sign-in anyone attempted: logged only.
        if (reason !== 'malformed_response') {
          const place = { applicationId: provider.applicationId, tenantId: provider.tenantId, clientId: outcome.request?.clientId ?? null, requestId: request.id };
          await recordSamlRefusal(services, place, { providerId: provider.id, email: null }, reason);
        }
        // As an OAuth upstream's error answer: back to the sign-in, where another way (or another try) is offered.
        if (reason === 'idp_refused' && outcome.request !== null) {
          return reply.status(303).header('location', `${outcome.request.returnOrigin}${interactionPaths(outcome.request.interactionUid).page}`).send();
        }
        throw new SignInRefusal('saml_response_refused', await providerLook(request, provider));
      }
      const { identity, request: answered } = outcome;
      if (answered !== null) {
        const proof = csrf.seal(answerBinding(answered.interactionUid), JSON.stringify(identity), PROOF_SECONDS);
        const next = `${answered.returnOrigin}${interactionPaths(answered.interactionUid).saml}?proof=${encodeURIComponent(proof)}`;
        return reply.status(303).header('location', next).send();
      }
      const loginUrl = provider.config.idpInitiatedLoginUrl;
      if (!provider.enabled || loginUrl === null) {
        const place = { applicationId: provider.applicationId, tenantId: provider.tenantId, clientId: null, requestId: request.id };
        await recordSamlRefusal(services, place, identity, 'method_unavailable');
        throw new SignInRefusal('saml_unsolicited', await providerLook(request, provider));
      }
      const sealed = csrf.seal(unsolicitedBinding(provider.applicationId), JSON.stringify(identity), UNSOLICITED_SECONDS);
      return reply.status(303).header('set-cookie', unsolicitedCookie.set(INTERACTION_ROOT, sealed, UNSOLICITED_SECONDS)).header('location', loginUrl).send();
    });

    app.get<{ Params: ProviderParams }>(`${prefix}/saml/:providerId/slo`, async (request, reply) => {
      const rawQuery = request.raw.url?.split('?')[1] ?? '';
      return singleLogout(request, reply, { binding: 'redirect', query: request.query as Record<string, unknown>, rawQuery });
    });
    app.post<{ Params: ProviderParams }>(`${prefix}/saml/:providerId/slo`, samlPost, async (request, reply) =>
      singleLogout(request, reply, { binding: 'post', form: (request.body ?? {}) as Record<string, unknown> }),
    );
  }

  /** Our LogoutRequest's answer goes on where the OP's logout was sending the browser; the IdP's ends its subject's sessions. */
  async function singleLogout(request: FastifyRequest<{ Params: ProviderParams }>, reply: FastifyReply, message: SamlLogoutMessage) {
    const { provider, endpoints } = await providerAt(request);
    if ((provider.config.sloUrl ?? null) === null) throw new SignInRefusal('no_such_page');
    const fields = message.binding === 'redirect' ? message.query : message.form;
    if (fields['SAMLResponse'] !== undefined) {
      const returnTo = await finishSamlLogout(deps, provider, message);
      if (returnTo !== undefined) return reply.status(303).header('location', returnTo).send();
      const look = await providerLook(request, provider);
      return sendPage(reply, 200, (nonce) => donePage(look, nonce, 'logout.doneTitle', 'logout.doneText'));
    }
    const logout = await readSamlLogoutRequest(deps, provider, endpoints.sloUrl, message);
    if (!logout.ok) {
      request.log.warn({ provider: provider.id, detail: logout.detail }, 'SAML LogoutRequest refused');
      throw new SignInRefusal('saml_logout_refused', await providerLook(request, provider));
    }
    const known = await endSamlSubjectSessions(services, provider, logout.nameId, request.id);
    return reply.status(303).header('location', await logout.answer(known)).send();
  }

  app.get<{ Params: { uid: string; providerId: string } }>('/interaction/:uid/saml/:providerId', async (request, reply) => {
    const context = await steps.load(request, reply);
    const { interaction, target } = context;
    if (!(await steps.signsIn(context))) return reply.status(303).header('location', interactionPaths(interaction.uid).page).send();
    const offered = target.saml.some((method) => method.id === request.params.providerId);
    const provider = offered ? await findSamlProvider(orm, request.params.providerId) : null;
    if (provider === null || provider.applicationId !== target.application.id) throw new SignInRefusal('saml_unavailable', target.look);
    const surface = await services.surfaces.forHost(request.headers.host);
    const pending = { interactionUid: interaction.uid, clientId: target.opener.id, returnOrigin: new URL(surface.issuer).origin };
    const reauthentication = reauthenticationOf(interaction.prompt, interaction.params['max_age']);
    return reply.status(303).header('location', await samlSignInUrl(deps, provider, pending, reauthentication)).send();
  });

  async function signIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, identity: SamlIdentity) {
    const account = await samlAccount(context.target, identity, guessingAddress(request));
    if (!account.ok) throw new SignInRefusal('saml_account_refused', context.target.look);
    // Its sealed answer can be presented again while it lasts: one count of the MFA step's attempts for all of them.
    const step = sharedStepBudget('saml', context.interaction.uid, JSON.stringify(identity));
    return steps.continueSignIn(request, reply, context, { user: account.user, verified: account.user, ...SAML_PROOF, step, record: account.record });
  }

  /** An unsolicited identity asked nothing of the IdP: it completes a request asking a fresh sign-in only when its
   *  AuthnInstant meets it, else that request goes on as any fresh sign-in. */
  const answersInteraction = ({ interaction }: InteractionContext, identity: SamlIdentity): boolean =>
    answersReauthentication(identity, reauthenticationOf(interaction.prompt, interaction.params['max_age']), interaction.iat * 1000);

  /** Refused in the look of the provider its sealed proof names. */
  async function loadAnswered(request: FastifyRequest<{ Params: { uid: string }; Querystring: { proof?: string } }>, reply: FastifyReply) {
    try {
      return await steps.load(request, reply);
    } catch (error) {
      if (!(error instanceof SignInRefusal) || error.look !== undefined) throw error;
      const identity = csrf.unseal(answerBinding(request.params.uid), request.query.proof);
      const provider = identity === undefined ? null : await findSamlProvider(orm, (JSON.parse(identity) as SamlIdentity).providerId);
      throw new SignInRefusal(error.reason, await namedSurfaceLook(services, request, provider?.applicationId, provider?.tenantId ?? null));
    }
  }

  /** Only this interaction's own page can post it (CSRF, sealed proof). */
  app.post<{ Params: { uid: string } }>('/interaction/:uid/saml', async (request, reply) => {
    const context = await steps.load(request, reply);
    const fields = (request.body ?? {}) as FormFields;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') throw new SignInRefusal('form_forged', context.target.look);
    await steps.requireOpenForm(request, context, fields);
    const { uid } = context.interaction;
    const toSignInPage = () => reply.status(303).header('location', interactionPaths(uid).page).send();
    if (!(await steps.signsIn(context))) return toSignInPage();
    const identity = csrf.unseal(confirmationBinding(uid), fields['proof']);
    if (fields['cancel'] === 'yes') {
      if (identity !== undefined) await declineSamlIdentity(context.target, JSON.parse(identity) as SamlIdentity);
      return toSignInPage();
    }
    if (identity === undefined) throw new SignInRefusal('proof_expired', context.target.look);
    const confirmed = JSON.parse(identity) as SamlIdentity;
    // A max_age may lapse while the page waits.
    if (!answersInteraction(context, confirmed)) return toSignInPage();
    return signIn(request, reply, context, confirmed);
  });

  app.get<{ Params: { uid: string }; Querystring: { proof?: string } }>('/interaction/:uid/saml', async (request, reply) => {
    const context = await loadAnswered(request, reply);
    const { uid } = context.interaction;
    if (!(await steps.signsIn(context))) return reply.status(303).header('location', interactionPaths(uid).page).send();
    const identity = csrf.unseal(answerBinding(uid), request.query.proof);
    if (identity === undefined) throw new SignInRefusal('proof_expired', context.target.look);
    return signIn(request, reply, context, JSON.parse(identity) as SamlIdentity);
  });

  return {
    /**
     * Never signed in silently (another site can post its own account's response here): offered on a page that names it,
     * the identity then bound to this interaction.
     */
    async offerUnsolicited(request: FastifyRequest, reply: FastifyReply, context: InteractionContext): Promise<unknown> {
      const cookie = unsolicitedCookie.read(request);
      if (cookie === undefined) return undefined;
      const sealed = csrf.unseal(unsolicitedBinding(context.target.application.id), cookie);
      if (sealed === undefined) return undefined;
      reply.header('set-cookie', unsolicitedCookie.clear(INTERACTION_ROOT));
      const identity = JSON.parse(sealed) as SamlIdentity;
      const method = context.target.saml.find((candidate) => candidate.id === identity.providerId);
      // Not a provider of this surface: recorded as refused, and the sign-in goes on, so one planted from elsewhere
      // does not stop it.
      if (method === undefined) return void (await samlAccount(context.target, identity, guessingAddress(request)));
      if (!answersInteraction(context, identity)) {
        request.log.info({ provider: identity.providerId }, 'unsolicited SAML identity older than the fresh sign-in asked: dropped');
        return undefined;
      }
      const { uid } = context.interaction;
      const input = {
        action: interactionPaths(uid).saml,
        csrf: csrf.issue(uid),
        proof: csrf.seal(confirmationBinding(uid), sealed, UNSOLICITED_SECONDS),
        email: identity.email,
        provider: method.name,
      };
      return sendPage(reply, 200, (nonce) => unsolicitedConfirmationPage(context.target.look, nonce, input), steps.formTargets(context));
    },
  };
}
