import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { activeUser, stillProven, type ProvenSignIn, type SignIn, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { changeOwnPassword } from '../domain/users/own-account.ts';
import type { SignInUser } from '../domain/users/sign-in-user.ts';
import { newPasswordPage, type CopyText } from '../pages/pages.ts';
import { sendPage } from '../pages/reply.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { hostedCookie } from './cookies.ts';
import type { CsrfTokens } from './csrf.ts';
import { parseSealedSignIn } from './mfa.ts';

/**
 * The last step before completion for an expired password (`maxAge`), after the MFA step. The sign-in proven so far is
 * sealed to the interaction as a kind of its own (`expired|`), so that no other proof stands for it, in an HttpOnly cookie.
 */

interface Params {
  uid: string;
}

interface StepContext {
  readonly interaction: { readonly uid: string; readonly session?: { readonly uid: string } | undefined };
  readonly target: SignInTarget;
}

export interface ExpiredPasswordDependencies<C extends StepContext> {
  readonly csrf: CsrfTokens;
  readonly secureCookies: boolean;
  readonly load: (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<C>;
  /** Its login step. */
  readonly signsIn: (context: C) => Promise<boolean>;
  readonly finish: (request: FastifyRequest, reply: FastifyReply, context: C, signIn: SignIn) => Promise<unknown>;
  /** Ends the interaction with `access_denied`. */
  readonly refuse: (request: FastifyRequest, reply: FastifyReply, context: C, reason: string) => Promise<unknown>;
  /** The sign-in's throttle: each refused new password costs its history's Argon2 verifications. */
  readonly throttled: RouteShorthandOptions;
  /** As every form of the interaction (routes.ts): sent again, it goes where its first answer led. */
  readonly requireOpenForm: (request: FastifyRequest, context: C, fields: Readonly<Record<string, string | null>>) => Promise<void>;
}

const PROOF_SECONDS = 600;
const PROOF_KIND = 'expired|';

export function expiredPasswordStep<C extends StepContext>(app: FastifyInstance, deps: ExpiredPasswordDependencies<C>) {
  const { csrf } = deps;
  const cookie = hostedCookie(deps.secureCookies, 'gh_expired');

  /** Else undefined: no proof for this interaction, or an interaction no longer signing in. */
  async function provenSignIn(request: FastifyRequest, context: C): Promise<ProvenSignIn | undefined> {
    const signIn = parseSealedSignIn<ProvenSignIn>(csrf.unseal(context.interaction.uid, cookie.read(request)), PROOF_KIND);
    return signIn !== undefined && (await deps.signsIn(context)) ? signIn : undefined;
  }

  // Suspended or deleted since the first factor: the sign-in is refused, as at any other step, not left open.
  const refuseInactive = (request: FastifyRequest, reply: FastifyReply, context: C) => deps.refuse(request, reply, context, 'the user is no longer an active user of the pool');
  // A password set since the one proven (the owner's reset) ends it too: whoever typed the old one must not set the next.
  const refuseReplaced = (request: FastifyRequest, reply: FastifyReply, context: C) => deps.refuse(request, reply, context, 'the password proven was replaced since');

  async function show(reply: FastifyReply, context: C, user: SignInUser, errors?: readonly CopyText[]) {
    const { uid } = context.interaction;
    const passwordPolicy = await effectivePasswordPolicy(context.target.scope, context.target.policyTenantId);
    const input = { action: interactionPaths(uid).password, proof: { name: 'csrf' as const, value: csrf.issue(uid) }, email: user.email, passwordPolicy, ...(errors === undefined ? {} : { errors }) };
    return sendPage(reply, errors === undefined ? 200 : 400, (nonce) => newPasswordPage(context.target.look, nonce, 'expired', input));
  }

  app.get<{ Params: Params }>('/interaction/:uid/password', async (request, reply) => {
    const context = await deps.load(request, reply);
    const signIn = await provenSignIn(request, context);
    if (signIn === undefined) return reply.status(303).header('location', interactionPaths(context.interaction.uid).page).send();
    const user = await activeUser(context.target, signIn.userId);
    if (user === null) return refuseInactive(request, reply, context);
    if (!stillProven(user, signIn)) return refuseReplaced(request, reply, context);
    return show(reply, context, user);
  });

  app.post<{ Params: Params }>('/interaction/:uid/password', deps.throttled, async (request, reply) => {
    const context = await deps.load(request, reply);
    const fields = (request.body ?? {}) as Readonly<Record<string, string | null>>;
    await deps.requireOpenForm(request, context, fields);
    const signIn = await provenSignIn(request, context);
    if (signIn === undefined) throw new SignInRefusal('proof_expired', context.target.look);
    const user = await activeUser(context.target, signIn.userId);
    if (user === null) return refuseInactive(request, reply, context);
    if (!stillProven(user, signIn)) return refuseReplaced(request, reply, context);
    // Every other sign-in of the user ends; this browser's session (the interaction resumes into it) is the one signing in.
    const keepSessionUid = context.interaction.session?.uid ?? null;
    const changed = await changeOwnPassword(context.target, user, { password: fields['password'], keepSessionUid, reason: 'expired' });
    if (!changed.ok && changed.reason === 'inactive') return refuseInactive(request, reply, context);
    if (!changed.ok) return show(reply, context, user, changed.reason === 'invalid' ? changed.errors : []);
    reply.header('set-cookie', cookie.clear(interactionPaths(context.interaction.uid).page));
    return deps.finish(request, reply, context, { ...signIn, verified: user, provenHere: true });
  });

  return {
    start: (reply: FastifyReply, context: C, signIn: ProvenSignIn) => {
      const { uid } = context.interaction;
      // With when the MFA policy judged it: else the session would read as owing the step to a policy made required since.
      const { userId, tenantId, amr, methods, password, ended, mfaCheckedAt } = signIn;
      const proof = csrf.seal(uid, `${PROOF_KIND}${JSON.stringify({ userId, tenantId, amr, methods, password, ended, mfaCheckedAt })}`, PROOF_SECONDS);
      const paths = interactionPaths(uid);
      return reply.status(303).header('set-cookie', cookie.set(paths.page, proof, PROOF_SECONDS)).header('location', paths.password).send();
    },
  };
}
