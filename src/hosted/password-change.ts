import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { effectivePasswordPolicy } from '../domain/policies/policies.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { activeUser, type SignInTarget } from '../domain/sign-in/sign-in.ts';
import { changeOwnPassword } from '../domain/users/own-account.ts';
import type { SignInUser } from '../domain/users/sign-in-user.ts';
import { expiredPasswordPage } from '../pages/account.ts';
import type { CopyText } from '../pages/pages.ts';
import { sendPage } from '../pages/reply.ts';
import { cookieOf } from './cookies.ts';
import type { CsrfTokens } from './csrf.ts';

/**
 * The step an expired password (the policy's `maxAge`) puts between the proven password and the rest of the sign-in:
 * `/interaction/:uid/password`, where the user chooses a new one (the policy and history apply), then the sign-in goes
 * on (the tenant, the completion). The proven password is carried as at the tenant choice: a sealed statement bound to
 * the interaction, in an HttpOnly cookie scoped to its path, of its own kind (`expired|{user id}`) so that neither
 * proof stands for the other.
 */

interface Params {
  uid: string;
}

/** What this step reads of an interaction's page context (routes.ts). */
interface StepContext {
  readonly interaction: { readonly uid: string };
  readonly target: SignInTarget;
}

/** What routes.ts lends this step. */
export interface ExpiredPasswordDependencies<C extends StepContext> {
  readonly csrf: CsrfTokens;
  readonly secureCookies: boolean;
  readonly load: (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => Promise<C>;
  /** Whether the interaction still signs a user in (its login step). */
  readonly signsIn: (context: C) => Promise<boolean>;
  /** The sign-in after the password, once the new one is set: the tenant, then the completion. */
  readonly continueSignIn: (request: FastifyRequest, reply: FastifyReply, context: C, user: SignInUser) => Promise<unknown>;
}

/** How long the proven password waits for its new one. */
const PROOF_SECONDS = 600;
const PROOF_KIND = 'expired|';

export function expiredPasswordStep<C extends StepContext>(app: FastifyInstance, deps: ExpiredPasswordDependencies<C>) {
  const { csrf } = deps;
  const cookieName = deps.secureCookies ? '__Secure-gh_expired' : 'gh_expired';
  const path = (uid: string) => `/interaction/${uid}/password`;
  const cookie = (uid: string, value: string, maxAge: number) =>
    `${cookieName}=${value}; Path=/interaction/${uid}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${deps.secureCookies ? '; Secure' : ''}`;

  /** The user whose expired password this interaction proved moments ago, still active and still signing in; else null. */
  async function provenUser(request: FastifyRequest, context: C): Promise<SignInUser | null> {
    const value = csrf.unseal(context.interaction.uid, cookieOf(request, cookieName));
    if (value === undefined || !value.startsWith(PROOF_KIND) || !(await deps.signsIn(context))) return null;
    return activeUser(context.target, value.slice(PROOF_KIND.length));
  }

  async function show(reply: FastifyReply, context: C, user: SignInUser, errors?: readonly CopyText[]) {
    const { uid } = context.interaction;
    const passwordPolicy = await effectivePasswordPolicy(context.target.scope, context.target.policyTenantId);
    const input = { action: path(uid), csrf: csrf.issue(uid), email: user.email, passwordPolicy, ...(errors === undefined ? {} : { errors }) };
    return sendPage(reply, errors === undefined ? 200 : 400, (nonce) => expiredPasswordPage(context.target.look, nonce, input));
  }

  app.get<{ Params: Params }>('/interaction/:uid/password', async (request, reply) => {
    const context = await deps.load(request, reply);
    const user = await provenUser(request, context);
    if (user === null) return reply.status(303).header('location', `/interaction/${encodeURIComponent(context.interaction.uid)}`).send();
    return show(reply, context, user);
  });

  app.post<{ Params: Params }>('/interaction/:uid/password', async (request, reply) => {
    const context = await deps.load(request, reply);
    const fields = (request.body ?? {}) as Readonly<Record<string, string | null>>;
    if (!csrf.verify(context.interaction.uid, fields['csrf'])) throw new SignInRefusal('form_forged', context.target.look);
    const user = await provenUser(request, context);
    if (user === null) throw new SignInRefusal('proof_expired', context.target.look);
    // Every other sign-in of the user ends with the expired password (the one being completed here is not one yet).
    const changed = await changeOwnPassword(context.target, user.id, { password: fields['password'], keepSessionUid: null, reason: 'expired' });
    if (!changed.ok) return show(reply, context, user, changed.reason === 'invalid' ? changed.errors : []);
    reply.header('set-cookie', cookie(context.interaction.uid, '', 0));
    return deps.continueSignIn(request, reply, context, user);
  });

  return {
    /** A proven but expired password: 303 to the change, the proof in its cookie. */
    start(reply: FastifyReply, context: C, userId: string) {
      const { uid } = context.interaction;
      const proof = csrf.seal(uid, `${PROOF_KIND}${userId}`, PROOF_SECONDS);
      return reply.status(303).header('set-cookie', cookie(uid, proof, PROOF_SECONDS)).header('location', path(uid)).send();
    },
  };
}
