import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { summarizeUserAgent } from '../domain/sign-in/device.ts';
import { askEmailSignIn, EMAIL_PROOF, peekEmailLink, refuseEmailLink, revealLinkCode, useEmailLink, verifyEmailCode, type EmailMethod } from '../domain/sign-in/email-methods.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { refuseDeactivated, SignInRefusal } from '../domain/sign-in/refusals.ts';
import { surfaceLook, type EmailMethods } from '../domain/sign-in/surface-settings.ts';
import { parseLinkToken } from '../domain/users/link-tokens.ts';
import { checkEmailPage, linkCodePage, linkConfirmPage, linkRefusedPage } from '../pages/magic-link.ts';
import { browserLook, namedSurfaceLook, sendPage } from '../pages/reply.ts';
import { type ThrottleHook } from '../pages/throttle.ts';
import { currentRequestOrigin, guessingAddress } from '../http/request-origin.ts';
import type { Services } from '../services.ts';
import type { CsrfTokens } from './csrf.ts';
import type { FormFields, InteractionContext, LoginExtra, ProvenFactor } from './routes.ts';

/**
 * Sign-in by e-mail on the hosted pages (src/domain/sign-in/email-methods.ts): the sign-in page's e-mail form asks
 * for a link or a code; "check your email" takes the code; the link, opened in the browser that asked, completes the
 * sign-in, and opened in any other names the asking device and asks "was this you?": "yes" shows a code to type in the
 * asking browser (the link never signs that other browser in), "no" ends the asking browser's e-mail sign-in. A proof
 * goes on as a password's does (the pages' continueSignIn).
 */
interface Params {
  uid: string;
}

/** What the sign-in pages (routes.ts) lend these routes: their interaction, forms and the sign-in's way on. */
export interface EmailSignInSteps {
  load(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<InteractionContext>;
  readonly csrf: CsrfTokens;
  requireOpenForm(request: FastifyRequest, context: InteractionContext, fields: FormFields): Promise<void>;
  formOf(request: FastifyRequest): FormFields;
  signsIn(context: InteractionContext): Promise<boolean>;
  formTargets(context: InteractionContext): string[];
  readonly throttled: { onRequest: ThrottleHook };
  continueSignIn(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, proven: ProvenFactor): Promise<unknown>;
  showLogin(reply: FastifyReply, context: InteractionContext, status: number, extra?: LoginExtra): Promise<unknown>;
}

const paths = (uid: string) => {
  const { page, emailLink, emailCode, code, emailLinkConfirm, emailLinkRefuse } = interactionPaths(uid);
  return { page, link: emailLink, code: emailCode, verify: code, confirm: emailLinkConfirm, refuse: emailLinkRefuse };
};

/** The sign-in page's e-mail form addresses, for the methods the surface offers. */
export const emailFormActions = (uid: string, methods: EmailMethods) => ({
  ...(methods.link ? { linkAction: paths(uid).link } : {}),
  ...(methods.code ? { codeAction: paths(uid).code } : {}),
});

/** The forms that ask for a mail: what each sends, and whether the surface offers it. */
const ASKS = [
  { path: 'email-link', method: 'magic_link', sent: 'link', offered: (methods: EmailMethods) => methods.link },
  { path: 'email-code', method: 'email_code', sent: 'code', offered: (methods: EmailMethods) => methods.code },
] as const satisfies readonly { path: string; method: EmailMethod; sent: 'link' | 'code'; offered: (methods: EmailMethods) => boolean }[];

const queryToken = (request: FastifyRequest) => (request.query as Record<string, unknown>)['token'];

export function emailSignInRoutes(app: FastifyInstance, services: Services, steps: EmailSignInSteps): void {
  const toPage = (reply: FastifyReply, uid: string) => reply.status(303).header('location', paths(encodeURIComponent(uid)).page).send();

  function showCheck(reply: FastifyReply, context: InteractionContext, status: number, email: string, sent: 'link' | 'code', error = false) {
    const { uid } = context.interaction;
    const input = { action: paths(uid).verify, csrf: steps.csrf.issue(uid), email, sent, againUrl: paths(uid).page, error };
    return sendPage(reply, status, (nonce) => checkEmailPage(context.target.look, nonce, input), steps.formTargets(context));
  }

  /** The sign-in page, saying how to take over an account whose password nobody proved the address for (its reset link). */
  const resetFirst = (reply: FastifyReply, context: InteractionContext, email?: string) =>
    steps.showLogin(reply, context, 403, { error: 'login.resetFirst', ...(email === undefined ? {} : { email }) });

  /** The origin of the asking browser's pages (the service's, or the custom domain's it is on), where links lead. */
  async function pagesBase(request: FastifyRequest): Promise<string> {
    const surface = await services.surfaces.forHost(request.headers.host);
    return surface.kind === 'domain' ? surface.issuer : services.config.publicUrl;
  }

  for (const { path, method, sent, offered } of ASKS) {
    app.post<{ Params: Params }>(`/interaction/:uid/${path}`, steps.throttled, async (request, reply) => {
      const context = await steps.load(request, reply);
      const fields = steps.formOf(request);
      await steps.requireOpenForm(request, context, fields);
      if (!(await steps.signsIn(context))) return toPage(reply, context.interaction.uid);
      if (!offered(context.target.email)) throw new SignInRefusal('email_sign_in_unavailable', context.target.look);
      const email = typeof fields['email'] === 'string' ? fields['email'].trim() : '';
      // The same page, status and headers whether the address may sign in or not (askEmailSignIn's timing too).
      const asker = { interactionId: context.interaction.uid, pagesBase: await pagesBase(request), userAgent: currentRequestOrigin()?.userAgent ?? null };
      await askEmailSignIn(context.target, method, email, asker);
      return showCheck(reply, context, 200, email, sent);
    });
    app.get<{ Params: Params }>(`/interaction/:uid/${path}`, async (request, reply) => {
      if (path === 'email-link') return openLink(request, reply);
      return toPage(reply, request.params.uid);
    });
  }

  app.post<{ Params: Params }>('/interaction/:uid/code', steps.throttled, async (request, reply) => {
    const context = await steps.load(request, reply);
    const fields = steps.formOf(request);
    await steps.requireOpenForm(request, context, fields);
    if (!(await steps.signsIn(context))) return toPage(reply, context.interaction.uid);
    const { email: methods } = context.target;
    if (!methods.link && !methods.code) throw new SignInRefusal('email_sign_in_unavailable', context.target.look);
    const email = fields['email'] ?? '';
    const sent = fields['sent'] === 'code' ? 'code' : 'link';
    const check = await verifyEmailCode(context.target, context.interaction.uid, fields['code'], guessingAddress(request));
    if (!check.ok) return check.unverified === true ? resetFirst(reply, context, email) : showCheck(reply, context, 400, email, sent, true);
    return steps.continueSignIn(request, reply, context, { user: check.user, verified: check.verified, ...EMAIL_PROOF, page: { email }, record: check.record });
  });
  app.get<{ Params: Params }>('/interaction/:uid/code', async (request, reply) => toPage(reply, request.params.uid));

  /** The interaction of the request when this browser is the one that asked (the OP's cookie), else undefined. */
  async function askingBrowser(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<InteractionContext | undefined> {
    try {
      return await steps.load(request, reply);
    } catch (error) {
      if (error instanceof SignInRefusal && error.reason === 'interaction_expired') return undefined;
      throw error;
    }
  }

  /** A live link of this path's interaction, from a browser that is not the asking one; else the refusal. */
  async function linkElsewhere(request: FastifyRequest<{ Params: Params }>, token: unknown) {
    const opened = await peekEmailLink(services.orm.em.fork(), token);
    // Mailed on the origin it was asked from: another application's or tenant's domain shows neither its page nor its code.
    const here = opened === undefined ? false : await services.surfaces.admits(await services.surfaces.forHost(request.headers.host), opened);
    if (opened === undefined || opened.interactionId !== request.params.uid || !here) {
      // As the token names it, whether it was ever issued or not: a used link and a forged one look alike.
      throw new SignInRefusal('email_link_invalid', await namedSurfaceLook(services, request, parseLinkToken(token)?.applicationId, null));
    }
    const look = browserLook(request, await surfaceLook(services, request.id, opened.applicationId, opened.tenantId));
    await refuseDeactivated(services, opened.applicationId, look);
    return { opened, look };
  }

  async function openLink(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const token = queryToken(request);
    const context = await askingBrowser(request, reply);
    if (context === undefined) {
      const { opened, look } = await linkElsewhere(request, token);
      const { confirm, refuse } = paths(request.params.uid);
      const asked = { device: summarizeUserAgent(opened.askedUserAgent), at: opened.askedAt, client: opened.clientName };
      const input = { confirmAction: confirm, refuseAction: refuse, token: typeof token === 'string' ? token : '', asked };
      return sendPage(reply, 200, (nonce) => linkConfirmPage(look, nonce, input));
    }
    if (!(await steps.signsIn(context))) return toPage(reply, context.interaction.uid);
    if (!context.target.email.link) throw new SignInRefusal('email_sign_in_unavailable', context.target.look);
    const check = await useEmailLink(context.target, context.interaction.uid, token, guessingAddress(request));
    if (!check.ok && check.unverified === true) return resetFirst(reply, context);
    if (!check.ok) throw new SignInRefusal('email_link_invalid', context.target.look);
    return steps.continueSignIn(request, reply, context, { user: check.user, verified: check.verified, ...EMAIL_PROOF, page: { email: check.user.email }, record: check.record });
  }

  app.post<{ Params: Params }>('/interaction/:uid/email-link/confirm', steps.throttled, async (request, reply) => {
    const token = steps.formOf(request)['token'];
    const { opened, look } = await linkElsewhere(request, token);
    const code = await revealLinkCode(services.orm.em.fork(), token);
    if (code === undefined) throw new SignInRefusal('email_link_invalid', look);
    request.log.info({ interaction: opened.interactionId }, 'magic link confirmed in another browser: code shown');
    return sendPage(reply, 200, (nonce) => linkCodePage(look, nonce, code));
  });

  app.post<{ Params: Params }>('/interaction/:uid/email-link/refuse', steps.throttled, async (request, reply) => {
    const token = steps.formOf(request)['token'];
    const { opened, look } = await linkElsewhere(request, token);
    if (!(await refuseEmailLink(services, request.id, token))) throw new SignInRefusal('email_link_invalid', look);
    request.log.warn({ interaction: opened.interactionId, application: opened.applicationId }, 'magic link refused in another browser: its sign-in ended');
    return sendPage(reply, 200, (nonce) => linkRefusedPage(look, nonce));
  });
}
