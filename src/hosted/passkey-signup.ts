import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { textOf } from '../domain/typed-fields.ts';
import { askPasskeySignUp, completePasskeySignUp, passkeySignUpOptions, provePasskeySignUpCode } from '../domain/webauthn/sign-up.ts';
import { checkEmailPage } from '../pages/magic-link.ts';
import { donePage, emailFormPage } from '../pages/pages.ts';
import { passkeyCreatePage } from '../pages/passkey-signup.ts';
import { sendPage } from '../pages/reply.ts';
import type { Services } from '../services.ts';
import type { EmailSignInSteps } from './magic-link.ts';
import { relyingPartyFor } from './passkey.ts';
import type { InteractionContext } from './routes.ts';

/**
 * Sign-up with a passkey (src/domain/webauthn/sign-up.ts) on the hosted pages: the address, the code mailed to it, then
 * the passkey the browser makes, whose proof creates the account and signs it in as a passkey's sign-in does.
 */
interface Params {
  uid: string;
}

const paths = (uid: string) => {
  const { page, passkeySignup, passkeySignupCode, passkeySignupKey } = interactionPaths(uid);
  return { page, signup: passkeySignup, code: passkeySignupCode, key: passkeySignupKey };
};

export function passkeySignUpRoutes(app: FastifyInstance, services: Services, steps: EmailSignInSteps): void {
  async function open(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const context = await steps.load(request, reply);
    if (context.target.passkey?.signUp !== true || !(await steps.signsIn(context))) throw new SignInRefusal('signup_unavailable', context.target.look);
    return context;
  }

  async function posted(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const context = await open(request, reply);
    const fields = steps.formOf(request);
    await steps.requireOpenForm(request, context, fields);
    return { context, fields };
  }

  const send = (reply: FastifyReply, context: InteractionContext, status: number, render: Parameters<typeof sendPage>[2]) =>
    sendPage(reply, status, render, steps.formTargets(context));

  function showForm(reply: FastifyReply, context: InteractionContext, status: number, email = '') {
    const { uid } = context.interaction;
    const input = { action: paths(uid).signup, csrf: steps.csrf.issue(uid), form: 'passkeySignup', loginUrl: paths(uid).page, email } as const;
    return send(reply, context, status, (nonce) => emailFormPage(context.target.look, nonce, input));
  }

  function showCode(reply: FastifyReply, context: InteractionContext, status: number, email: string, error: boolean) {
    const { uid } = context.interaction;
    const input = { action: paths(uid).code, csrf: steps.csrf.issue(uid), email, sent: 'signupCode', againUrl: paths(uid).signup, error } as const;
    return send(reply, context, status, (nonce) => checkEmailPage(context.target.look, nonce, input));
  }

  /** A fresh challenge each time; a sign-up no longer open goes back to the login page. */
  async function showCreate(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, status: number, error: boolean) {
    const { uid } = context.interaction;
    const started = await passkeySignUpOptions(context.target, await relyingPartyFor(services, request), uid);
    if (started === undefined) return steps.showLogin(reply, context, 400, { error: 'passkeySignup.expired' });
    const input = { action: paths(uid).key, csrf: steps.csrf.issue(uid), email: started.email, options: started.options, error };
    return send(reply, context, status, (nonce) => passkeyCreatePage(context.target.look, nonce, input));
  }

  app.get<{ Params: Params }>('/interaction/:uid/passkey-signup', async (request, reply) => showForm(reply, await open(request, reply), 200));

  app.post<{ Params: Params }>('/interaction/:uid/passkey-signup', steps.throttled, async (request, reply) => {
    const { context, fields } = await posted(request, reply);
    const applicationUrl = context.redirectTarget ?? services.config.publicUrl;
    const email = await askPasskeySignUp(context.target, fields['email'], context.interaction.uid, applicationUrl);
    if (email === undefined) return showForm(reply, context, 400, textOf(fields['email']));
    return showCode(reply, context, 200, email, false);
  });

  app.post<{ Params: Params }>('/interaction/:uid/passkey-signup/code', steps.throttled, async (request, reply) => {
    const { context, fields } = await posted(request, reply);
    if (!(await provePasskeySignUpCode(context.target, context.interaction.uid, fields['code']))) return showCode(reply, context, 400, textOf(fields['email']), true);
    return showCreate(request, reply, context, 200, false);
  });

  app.post<{ Params: Params }>('/interaction/:uid/passkey-signup/key', steps.throttled, async (request, reply) => {
    const { context, fields } = await posted(request, reply);
    const rp = await relyingPartyFor(services, request);
    const applicationUrl = context.redirectTarget ?? services.config.publicUrl;
    const outcome = await completePasskeySignUp(context.target, rp, context.interaction.uid, fields['credential'], applicationUrl);
    // A taken address gets the password sign-up's page, which a new account's there gets too: the mail tells which.
    if ('sentTo' in outcome) return send(reply, context, 200, (nonce) => donePage(context.target.look, nonce, 'signup.sentTitle', 'signup.sentText', { email: outcome.sentTo }));
    if (!outcome.ok) return outcome.retry ? showCreate(request, reply, context, 400, true) : steps.showLogin(reply, context, 400, { error: 'passkeySignup.expired' });
    return steps.continueSignIn(request, reply, context, { user: outcome.user, verified: outcome.user, amr: outcome.amr, methods: ['passkey'], record: outcome.record });
  });
}
