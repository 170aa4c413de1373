import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { enrolFactor, factorsOf, recoveryCodesLeft, sendEmailCode, useSecondProof, type Enrolment, type FactorKind, type HeldFactor, type SecondProof } from '../domain/mfa/factors.ts';
import { asksMultiFactor, mfaStepAfter, stepUpPolicy, withSecondFactor, type MfaStep } from '../domain/mfa/requirement.ts';
import { amrOfCredential, keyName } from '../domain/webauthn/credentials.ts';
import { newCredentialOptions, provenCredential, secondFactorOptions, secondFactorProof } from '../domain/webauthn/factor.ts';
import type { RelyingParty } from '../domain/webauthn/relying-party.ts';
import { enrolSecondStep, proveSecondStep, sharedStepBudget, type StepBudget, type StepOutcome } from '../domain/mfa/second-step.ts';
import { newTotpSecret, totpStep, totpUri } from '../domain/mfa/totp.ts';
import { mustChangePassword } from '../domain/sign-in/password-expiry.ts';
import { SignInRefusal } from '../domain/sign-in/refusals.ts';
import { activeUser, recordProven, stillProven, type FactorRecord, type Proof, type ProvenSignIn, type SealedProof, type SignIn } from '../domain/sign-in/sign-in.ts';
import type { SignInUser } from '../domain/users/sign-in-user.ts';
import { isUuid } from '../ids.ts';
import { challengePage, enrolPage, noStepPage, recoveryCodesPage, type StepMethod } from '../pages/mfa.ts';
import { sendPage } from '../pages/reply.ts';
import { guessingAddress } from '../http/request-origin.ts';
import type { Services } from '../services.ts';
import { interactionPaths } from '../domain/sign-in/interaction-paths.ts';
import { hostedCookie } from './cookies.ts';
import type { CsrfTokens } from './csrf.ts';
import { relyingPartyFor } from './passkey.ts';
import type { FormFields, InteractionContext } from './routes.ts';

/**
 * The MFA step of the hosted sign-in, as the pool's policy asks (src/domain/mfa/requirement.ts); an expired password's
 * change comes after it (password-change.ts): an expired password is still only one factor. The first factor's outcome
 * travels sealed in an HttpOnly cookie bound to the interaction, so every form is a POST answered with a page or a 303.
 * A remembered browser is bound to the user, pool, factors and the policy's factor list: a reset, a new factor or a
 * changed list forgets every one. A client
 * asking for the multi-factor acr gets the step as under `required`, remembered browser or not (stepUpPolicy).
 */

const STEP_SECONDS = 600;
const NO_LONGER_ACTIVE = 'the user is no longer an active user of the pool';
const PASSWORD_REPLACED = 'the password proven was replaced since';
const DAY_SECONDS = 24 * 3600;

/** `expired`: its password is to be changed once the step has passed; `session`: no first factor was proven (the
 *  session's step-up), so it may challenge but never enrol. */
interface PendingSignIn extends SealedProof {
  readonly userId: string;
  readonly tenantId: string | null;
  readonly passed?: Proof;
  readonly expired: boolean;
  readonly session?: true;
}

const passedWith = (pending: PendingSignIn, method: SecondProof, amr: readonly string[]): PendingSignIn => ({
  ...pending,
  passed: { amr, methods: [...pending.methods, method] },
});

export interface StepSeam {
  readonly csrf: CsrfTokens;
  readonly secureCookies: boolean;
  readonly throttled: RouteShorthandOptions;
  load(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply): Promise<InteractionContext>;
  finish(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, signIn: SignIn): Promise<unknown>;
  changePassword(reply: FastifyReply, context: InteractionContext, signIn: ProvenSignIn): unknown;
  refuse(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, reason: string): Promise<unknown>;
  /** The sign-in form again, saying that too many wrong codes were entered. */
  startOver(reply: FastifyReply, context: InteractionContext): Promise<unknown>;
  requireOpenForm(request: FastifyRequest, context: InteractionContext, fields: FormFields): Promise<void>;
  formTargets(context: InteractionContext): string[];
}

/** A first factor this sign-in proved, recorded once the step is decided (recordProven); `held`: the user's factors, when
 *  its proof read them with the user (else read here). */
export interface FirstFactor {
  readonly user: SignInUser;
  readonly record: FactorRecord;
  readonly held?: readonly HeldFactor[];
}

/** `first`: none when no credential was checked (the session's user stepping up). */
export type CompleteSignIn = (request: FastifyRequest, reply: FastifyReply, context: InteractionContext, signIn: ProvenSignIn, first?: FirstFactor) => Promise<unknown>;

/** The MFA step's entry points for the sign-in routes: `completeSignIn` after a first factor (or the session's),
 *  `stepEnrols` whether the step after `amr` would be an enrolment for the user. */
export interface MfaStepEntry {
  readonly completeSignIn: CompleteSignIn;
  readonly stepEnrols: (request: FastifyRequest, context: InteractionContext, userId: string, amr: readonly string[]) => Promise<boolean>;
}

const STEP_METHODS: readonly StepMethod[] = ['totp', 'webauthn', 'email_otp', 'recovery_code'];
const isStepMethod = (value: unknown): value is StepMethod => STEP_METHODS.includes(value as StepMethod);

/** Only when of that `kind` and naming a user. */
export function parseSealedSignIn<T extends { readonly userId: string }>(sealed: string | undefined, kind = ''): T | undefined {
  if (sealed?.startsWith(kind) !== true) return undefined;
  const value = JSON.parse(sealed.slice(kind.length)) as Partial<T>;
  return typeof value.userId === 'string' && isUuid(value.userId) ? (value as T) : undefined;
}

export function registerMfaStep(app: FastifyInstance, services: Services, seam: StepSeam): MfaStepEntry {
  const { csrf, secureCookies } = seam;
  const stepPath = (uid: string) => interactionPaths(uid).mfa;
  const stepCookie = hostedCookie(secureCookies, 'gh_mfa');
  // One cookie per application, pool and user, so that remembering one never forgets another in the same browser.
  const rememberCookie = (context: InteractionContext, userId: string) => {
    const binding = createHash('sha256').update(`${context.target.application.id}:${context.target.poolId}:${userId}`).digest('base64url').slice(0, 16);
    return hostedCookie(secureCookies, `gh_mfa_remember_${binding}`);
  };
  // Each seal names what it carries, so that one cannot stand for another (all are bound to the interaction's uid).
  const sealPending = (uid: string, pending: PendingSignIn) => csrf.seal(`${uid}:mfa-proof`, JSON.stringify(pending), STEP_SECONDS);
  const setPending = (reply: FastifyReply, uid: string, pending: PendingSignIn) =>
    reply.header('set-cookie', stepCookie.set(interactionPaths(uid).page, sealPending(uid, pending), STEP_SECONDS));
  const readPending = (request: FastifyRequest, uid: string) => parseSealedSignIn<PendingSignIn>(csrf.unseal(`${uid}:mfa-proof`, stepCookie.read(request)));

  // The policy's factor list too: a browser that passed with a kind the list no longer names is asked again.
  const rememberedAs = (context: InteractionContext, held: readonly HeldFactor[]) =>
    `mfa-remember:${context.target.application.id}:${context.target.poolId}:${held.map((factor) => factor.id).join(',')}:${[...context.target.mfa.factors].sort().join(',')}`;
  // Sealed with when it passed: the policy's days as they are now count from then, so a shortened policy (or 0) applies.
  function remembered(request: FastifyRequest, context: InteractionContext, userId: string, held: readonly HeldFactor[]) {
    const [who, passedAt] = (csrf.unseal(rememberedAs(context, held), rememberCookie(context, userId).read(request)) ?? '').split(' ');
    return who === userId && Number(passedAt) + context.target.mfa.rememberDeviceDays * DAY_SECONDS > Date.now() / 1000;
  }
  async function remember(reply: FastifyReply, context: InteractionContext, userId: string) {
    const days = context.target.mfa.rememberDeviceDays;
    if (days === 0) return;
    const held = await factorsOf(context.target.applicationScope.em, context.target.application.id, userId, (await relyingPartyFor(services, reply.request)).id);
    const seconds = days * DAY_SECONDS;
    const sealed = csrf.seal(rememberedAs(context, held), `${userId} ${Math.floor(Date.now() / 1000)}`, seconds);
    reply.header('set-cookie', rememberCookie(context, userId).set('/', sealed, seconds));
  }

  const stepAsked = (context: InteractionContext) => asksMultiFactor(context.interaction.params['acr_values']);

  const back = (reply: FastifyReply, uid: string, query = '') => reply.status(303).header('location', `${stepPath(uid)}${query}`).send();

  // Every sign-in the policy has judged comes this way, the step passed or not due.
  const onward = (request: FastifyRequest, reply: FastifyReply, context: InteractionContext, judged: ProvenSignIn, expired: boolean) => {
    const signIn = { ...judged, mfaCheckedAt: Date.now() };
    return expired ? seam.changePassword(reply, context, signIn) : seam.finish(request, reply, context, signIn);
  };

  function complete(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, pending: PendingSignIn) {
    reply.header('set-cookie', stepCookie.clear(interactionPaths(context.interaction.uid).page));
    const { amr, methods } = pending.passed ?? pending;
    const provenHere = pending.passed !== undefined || pending.session !== true ? { provenHere: true as const } : {};
    const signIn = { userId: pending.userId, tenantId: pending.tenantId, amr, methods, password: pending.password, signedInAt: pending.signedInAt, ended: pending.ended, ...provenHere };
    return onward(request, reply, context, signIn, pending.expired);
  }

  /** On any host, deciding the step after the first factor's `amr`; only this host's WebAuthn keys can be used here. */
  const heldStep = async (
    request: FastifyRequest,
    context: InteractionContext,
    userId: string,
    first: readonly string[],
    known?: readonly HeldFactor[],
  ): Promise<{ held: readonly HeldFactor[]; step: MfaStep; rp: RelyingParty }> => {
    const rp = await relyingPartyFor(services, request);
    const held = known ?? (await factorsOf(context.target.applicationScope.em, context.target.application.id, userId, rp.id));
    const policy = stepAsked(context) ? stepUpPolicy(context.target.mfa) : context.target.mfa;
    return { held, step: mfaStepAfter(policy, held, first), rp };
  };

  async function stepDue(request: FastifyRequest, context: InteractionContext, userId: string, amr: readonly string[], known?: readonly HeldFactor[]) {
    // A passkey that verified its user proved both factors already (src/domain/webauthn/sign-in.ts).
    if (context.target.mfa.enforcement === 'off' || amr.includes('mfa')) return false;
    const { held, step } = await heldStep(request, context, userId, amr, known);
    return step.kind === 'enrol' || (step.kind === 'challenge' && (stepAsked(context) || !remembered(request, context, userId, held)));
  }

  const completeSignIn: CompleteSignIn = async (request, reply, context, signIn, first) => {
    const amr = signIn.amr ?? [];
    // Only a password proven in this sign-in: a session's step-up carries the session's `pwd`, and the change asks for no
    // current password, so the session alone would set one. Its expiry is for the next sign-in with the password.
    const expired = first !== undefined && amr.includes('pwd') && (await mustChangePassword(context.target, signIn.userId));
    const due = await stepDue(request, context, signIn.userId, amr, first?.held);
    if (first !== undefined) await recordProven(context.target, first.user, first.record, due, signIn.tenantId);
    // A session's step-up (no first factor) proves nothing here unless its step is due and passed.
    if (!due) return onward(request, reply, context, first === undefined ? signIn : { ...signIn, provenHere: true }, expired);
    const { uid } = context.interaction;
    // Nothing is written for an expired password before the step: it travels sealed with the pending sign-in.
    const step = signIn.step ?? sharedStepBudget('interaction', uid, signIn.userId);
    const pending = { userId: signIn.userId, tenantId: signIn.tenantId, amr, methods: signIn.methods ?? [], password: signIn.password, step, signedInAt: signIn.signedInAt, ended: signIn.ended, expired };
    setPending(reply, uid, first === undefined ? { ...pending, session: true } : pending);
    return back(reply, uid);
  };

  /** A session's step-up that became an enrolment while it waited (its user's factors removed, the policy changed): the
   *  factor would outlive the session, so the sign-in form comes first, as stepUpSession sends a session holding none. */
  function signInFirst(reply: FastifyReply, context: InteractionContext) {
    const { page } = interactionPaths(context.interaction.uid);
    return reply.status(303).header('set-cookie', stepCookie.clear(page)).header('location', page).send();
  }

  /** A right answer that passed nothing, its user judged after it (an enrolment's: where the factor would be added):
   *  refused as at the step's start. */
  const refuseRightAnswer = (request: FastifyRequest, reply: FastifyReply, context: InteractionContext, why: 'inactive' | 'password_replaced') =>
    seam.refuse(request, reply, context, why === 'inactive' ? NO_LONGER_ACTIVE : PASSWORD_REPLACED);

  /** Its attempts used up: the proof is void, and the user signs in again. */
  function spent(reply: FastifyReply, context: InteractionContext) {
    reply.header('set-cookie', stepCookie.clear(interactionPaths(context.interaction.uid).page));
    return seam.startOver(reply, context);
  }

  /** A recovery code alone while one is left. */
  async function methodsOf(context: InteractionContext, userId: string, step: Exclude<MfaStep, { kind: 'none' }>): Promise<StepMethod[]> {
    if (step.kind === 'enrol') return [...step.factors];
    if (step.factors.length > 0) return [...step.factors, 'recovery_code'];
    return (await recoveryCodesLeft(context.target.applicationScope.em, context.target.application.id, userId)) > 0 ? ['recovery_code'] : [];
  }

  interface ShowOptions {
    readonly method?: unknown;
    readonly sent?: boolean;
    readonly error?: boolean;
    /** Shown again with a refused first code. */
    readonly secret?: string;
  }

  async function showStep(
    reply: FastifyReply,
    context: InteractionContext,
    user: SignInUser,
    { step, rp }: { step: Exclude<MfaStep, { kind: 'none' }>; rp: RelyingParty },
    status: number,
    options: ShowOptions,
  ) {
    const { uid } = context.interaction;
    const { look } = context.target;
    const methods = await methodsOf(context, user.id, step);
    if (methods.length === 0 && step.kind === 'challenge') {
      return sendPage(reply, status, (nonce) => noStepPage(look, nonce, { keyHosts: step.keyHosts, spent: step.spent }), seam.formTargets(context));
    }
    const method = isStepMethod(options.method) && methods.includes(options.method) ? options.method : methods[0]!;
    const others = methods.filter((other) => other !== method).map((other) => ({ method: other, url: `${stepPath(uid)}?method=${other}` }));
    const webauthn =
      method !== 'webauthn'
        ? {}
        : { webauthn: { options: step.kind === 'challenge' ? await secondFactorOptions(context.target, rp, uid, user.id) : await newCredentialOptions(context.target, rp, uid, user) } };
    const input = { action: stepPath(uid), csrf: csrf.issue(uid), method, others, email: user.email, sent: options.sent === true, error: options.error === true, ...webauthn };
    if (step.kind === 'challenge') return sendPage(reply, status, (nonce) => challengePage(look, nonce, { ...input, keyHosts: step.keyHosts }), seam.formTargets(context));
    const secret = method === 'totp' ? (options.secret ?? newTotpSecret()) : undefined;
    const totp = secret === undefined ? {} : { totp: { secret, uri: totpUri(secret, look.name, user.email), sealed: csrf.seal(`${uid}:totp:${user.id}`, secret, STEP_SECONDS) } };
    return sendPage(reply, status, (nonce) => enrolPage(look, nonce, { ...input, ...totp }), seam.formTargets(context));
  }

  /** Undefined: none, or its seal has run out. */
  async function stepOf(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
    const context = await seam.load(request, reply);
    const pending = readPending(request, context.interaction.uid);
    return { context, pending };
  }

  app.get<{ Params: { uid: string }; Querystring: { method?: string; sent?: string } }>('/interaction/:uid/mfa', async (request, reply) => {
    const { context, pending } = await stepOf(request, reply);
    if (pending === undefined) return reply.status(303).header('location', interactionPaths(context.interaction.uid).page).send();
    const user = await activeUser(context.target, pending.userId);
    if (user === null) return seam.refuse(request, reply, context, NO_LONGER_ACTIVE);
    if (!stillProven(user, pending)) return seam.refuse(request, reply, context, PASSWORD_REPLACED);
    if (pending.passed !== undefined) return complete(request, reply, context, pending);
    const held = await heldStep(request, context, user.id, pending.amr);
    const { step } = held;
    if (step.kind === 'none') return complete(request, reply, context, pending);
    if (step.kind === 'enrol' && pending.session === true) return signInFirst(reply, context);
    return showStep(reply, context, user, { step, rp: held.rp }, 200, { method: request.query.method, sent: request.query.sent === '1' });
  });

  app.post<{ Params: { uid: string } }>('/interaction/:uid/mfa', seam.throttled, async (request, reply) => {
    const { context, pending } = await stepOf(request, reply);
    const fields = (request.body ?? {}) as FormFields;
    await seam.requireOpenForm(request, context, fields);
    const { uid } = context.interaction;
    if (pending === undefined) throw new SignInRefusal('proof_expired', context.target.look);
    const user = await activeUser(context.target, pending.userId);
    if (user === null) return seam.refuse(request, reply, context, NO_LONGER_ACTIVE);
    if (!stillProven(user, pending)) return seam.refuse(request, reply, context, PASSWORD_REPLACED);
    if (pending.passed !== undefined) return complete(request, reply, context, pending);
    if (fields['action'] === 'continue') return back(reply, uid);
    const { held, step, rp } = await heldStep(request, context, user.id, pending.amr);
    if (step.kind === 'none') return complete(request, reply, context, pending);
    if (step.kind === 'enrol' && pending.session === true) return signInFirst(reply, context);
    const shown = { step, rp };
    const asStep = { asStep: held.map((factor) => factor.id), password: pending.password };
    const method = fields['method'];
    if (!isStepMethod(method) || !(await methodsOf(context, user.id, step)).includes(method)) return back(reply, uid);
    if (fields['action'] === 'send') {
      if (method !== 'email_otp') return back(reply, uid);
      if ((await sendEmailCode(context.target, user)) === 'inactive') return seam.refuse(request, reply, context, NO_LONGER_ACTIVE);
      return back(reply, uid, '?method=email_otp&sent=1');
    }
    const address = guessingAddress(request);
    const budget = pending.step ?? sharedStepBudget('interaction', uid, pending.userId);
    if (method === 'webauthn') return webauthnStep(request, reply, context, user, pending, shown, { address, budget, asStep }, fields);
    const code = fields['code'] ?? '';
    const amr = withSecondFactor(pending.amr);
    const attempt = { method, amr, tenantId: pending.tenantId, address, budget };
    const { em } = context.target.applicationScope;
    const owner = { applicationId: context.target.application.id, id: user.id };

    if (step.kind === 'challenge') {
      const outcome = await proveSecondStep(context.target, user, attempt, () => useSecondProof(em, services.storedSecrets, owner, method, code));
      if (outcome === 'spent') return spent(reply, context);
      if (outcome === 'inactive') return refuseRightAnswer(request, reply, context, outcome);
      if (outcome === 'refused') return showStep(reply, context, user, shown, 400, { method, error: true });
      await remember(reply, context, user.id);
      return complete(request, reply, context, passedWith(pending, method, amr));
    }

    // The first code proves the new factor (a TOTP secret the form carries sealed, or the e-mail code).
    const factor = method as Exclude<FactorKind, 'webauthn'>;
    let secret: string | undefined;
    let totpAt: number | null = null;
    if (factor === 'totp') {
      secret = csrf.unseal(`${uid}:totp:${user.id}`, fields['enrol']);
      if (secret === undefined) throw new SignInRefusal('proof_expired', context.target.look);
    }
    const outcome = await enrolSecondStep(
      context.target,
      user,
      attempt,
      async () => {
        if (secret === undefined) return useSecondProof(em, services.storedSecrets, owner, 'email_otp', code);
        totpAt = totpStep(secret, code);
        return totpAt === null ? { ok: false, reason: 'wrong_code' } : { ok: true };
      },
      () => enrolFactor(context.target, user, secret === undefined || totpAt === null ? { kind: 'email_otp' } : { kind: 'totp', secret, step: totpAt }, asStep),
    );
    if (outcome === 'spent') return spent(reply, context);
    if (outcome === 'inactive' || outcome === 'password_replaced') return refuseRightAnswer(request, reply, context, outcome);
    if (outcome === 'refused') return showStep(reply, context, user, shown, 400, { method, error: true, ...(secret === undefined ? {} : { secret }) });
    return enrolled(request, reply, context, user, passedWith(pending, method, amr), outcome);
  });

  async function enrolled(request: FastifyRequest, reply: FastifyReply, context: InteractionContext, user: SignInUser, passed: PendingSignIn, codes: string[] | 'not_added') {
    const { uid } = context.interaction;
    // Nothing was added (a key registered already, to anyone, or a factor enrolled meanwhile in another tab): no factor
    // of the user's was proven, and nothing mailed its owner, so the step is asked again as it now stands.
    if (codes === 'not_added') {
      const { step, rp } = await heldStep(request, context, user.id, passed.amr);
      if (step.kind === 'none') return back(reply, uid);
      return showStep(reply, context, user, { step, rp }, 409, { method: passed.passed?.methods.at(-1), error: true });
    }
    await remember(reply, context, user.id);
    if (codes.length === 0) return complete(request, reply, context, passed);
    setPending(reply, uid, passed);
    return sendPage(reply, 200, (nonce) => recoveryCodesPage(context.target.look, nonce, { action: stepPath(uid), csrf: csrf.issue(uid), codes }), seam.formTargets(context));
  }

  /** Counted as a code is; the `amr` says which kind of key it was (hwk or swk). */
  async function webauthnStep(
    request: FastifyRequest,
    reply: FastifyReply,
    context: InteractionContext,
    user: SignInUser,
    pending: PendingSignIn,
    shown: { step: Exclude<MfaStep, { kind: 'none' }>; rp: RelyingParty },
    { address, budget, asStep }: { address: string; budget: StepBudget; asStep: Enrolment },
    fields: FormFields,
  ) {
    const { target } = context;
    const refused = (outcome: StepOutcome) => {
      if (outcome === 'inactive') return refuseRightAnswer(request, reply, context, outcome);
      return outcome === 'spent' ? spent(reply, context) : showStep(reply, context, user, shown, 400, { method: 'webauthn', error: true });
    };
    if (shown.step.kind === 'challenge') {
      const proof = await secondFactorProof(target, shown.rp, context.interaction.uid, user, fields['credential']);
      const amr = withSecondFactor(pending.amr, proof.amr);
      const outcome = await proveSecondStep(target, user, { method: 'webauthn', amr, tenantId: pending.tenantId, address, budget }, proof.check);
      if (outcome !== 'passed') return refused(outcome);
      await remember(reply, context, user.id);
      return complete(request, reply, context, passedWith(pending, 'webauthn', amr));
    }
    const credential = await provenCredential(target, shown.rp, context.interaction.uid, user.id, fields['credential'], keyName(fields['name']));
    const amr = withSecondFactor(pending.amr, credential === null ? [] : amrOfCredential(credential.deviceType, false));
    const attempt = { method: 'webauthn', amr, tenantId: pending.tenantId, address, budget } as const;
    if (credential === null) return refused(await proveSecondStep(target, user, attempt, async () => ({ ok: false, reason: 'invalid_passkey' })));
    const outcome = await enrolSecondStep(target, user, attempt, async () => ({ ok: true }), () => enrolFactor(target, user, { kind: 'webauthn', credential }, asStep));
    if (outcome === 'inactive' || outcome === 'password_replaced') return refuseRightAnswer(request, reply, context, outcome);
    if (outcome === 'refused' || outcome === 'spent') return refused(outcome);
    return enrolled(request, reply, context, user, passedWith(pending, 'webauthn', amr), outcome);
  }

  const stepEnrols: MfaStepEntry['stepEnrols'] = async (request, context, userId, amr) => (await heldStep(request, context, userId, amr)).step.kind === 'enrol';

  return { completeSignIn, stepEnrols };
}
