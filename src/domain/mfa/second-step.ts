import { createHash, randomUUID } from 'node:crypto';
import { liveRow, MODEL } from '../../db/oidc-model.ts';
import { recordSignIn, type SignInFailureReason } from '../audit/auth-events.ts';
import { addressRefusal, recordFailedSignIn, recordSuccessfulSignIn, refuseUncounted } from '../sign-in/lockout.ts';
import { activeUser, type SignInTarget } from '../sign-in/sign-in.ts';
import type { SignInUser } from '../users/sign-in-user.ts';
import type { CodeRefusal, Enrolled, SecondProof } from './factors.ts';

export type CodeCheck = { ok: true } | { ok: false; reason: CodeRefusal };

/** Whatever the lockout policy: each batch of guesses costs a first factor proven again (docs/decisions.md, MFA). */
export const STEP_ATTEMPTS = 5;
/** How long a count is kept, and so how long its proof may take attempts. */
const STEP_BUDGET_SECONDS = 3600;

/** Counted server-side (a `StepAttempts` row): a replayed sealed proof gains nothing. */
export interface StepBudget {
  readonly key: string;
  /** Epoch seconds, past which the proof takes no attempt (its row is gone then). */
  readonly until: number;
}

const budgetUntil = () => Math.floor(Date.now() / 1000) + STEP_BUDGET_SECONDS;

/** For a first factor that cannot be presented twice. */
export const newStepBudget = (): StepBudget => ({ key: randomUUID(), until: budgetUntil() });

/** One count for every presentation of one proof (a session's step-up, a SAML answer). */
export const sharedStepBudget = (...parts: readonly string[]): StepBudget => ({
  key: createHash('sha256').update(parts.join('\n')).digest('base64url'),
  until: budgetUntil(),
});

/** `spent`: the proof takes no more attempts; the user proves a first factor again. `inactive`: the answer was right, but
 *  the user may no longer act (suspended, locked, deleted since the page read them): refused as their sign-in is. */
export type StepOutcome = 'passed' | 'refused' | 'spent' | 'inactive';

/** Why an enrolment's right answer wrote nothing (enrolFactor's): the step is not passed. */
type Unwritten = Exclude<Enrolled, string[]>;

/** What passing writes besides the sign-in, or why it wrote nothing. */
type Passing<T> = () => Promise<T | Unwritten>;

type StepAttempt = { readonly method: SecondProof; readonly amr: readonly string[]; readonly tenantId: string | null; readonly address: string; readonly budget: StepBudget };

/** Under the lockout policy as a password: a locked-out or waiting address is refused unchecked (as long as a counted
 *  refusal takes); a wrong or replayed code counts (secondStepAddress). Every answer checked takes one of the proof's
 *  attempts first (StepBudget), so answers sent at once are checked no more often. Every attempt is recorded. */
export async function proveSecondStep(target: SignInTarget, user: SignInUser, attempt: StepAttempt, check: () => Promise<CodeCheck>): Promise<StepOutcome> {
  const outcome = await decideSecondStep(target, user, attempt, check, async () => 'passed' as const);
  return outcome === 'passed' || outcome === 'spent' || outcome === 'inactive' ? outcome : 'refused';
}

/** An enrolment's first answer, as proveSecondStep: `enrol` adds the factor it proved once the answer is right, and the
 *  step passes only if a factor was added: otherwise no sign-in is recorded nor failure cleared (the answer was right). */
export function enrolSecondStep(
  target: SignInTarget,
  user: SignInUser,
  attempt: StepAttempt,
  check: () => Promise<CodeCheck>,
  enrol: () => Promise<Enrolled>,
): Promise<string[] | Unwritten | 'refused' | 'spent'> {
  return decideSecondStep(target, user, attempt, check, enrol);
}

async function decideSecondStep<T>(
  target: SignInTarget,
  user: SignInUser,
  attempt: StepAttempt,
  check: () => Promise<CodeCheck>,
  pass: Passing<T>,
): Promise<T | Unwritten | 'refused' | 'spent'> {
  const outcome = await checkCounted(target, user, attempt, check, pass);
  await recordSignIn(target.scope.services, {
    applicationId: target.application.id,
    tenantId: attempt.tenantId,
    clientId: target.opener.id,
    requestId: target.scope.requestId,
    method: attempt.method,
    ...(outcome.ok ? { amr: attempt.amr } : {}),
    outcome: outcome.ok ? { ok: true, user } : { ok: false, reason: outcome.reason, user, email: null },
  });
  if (outcome.ok) return outcome.passed;
  if (outcome.spent) return 'spent';
  return outcome.unwritten ?? 'refused';
}

/** Apart from the password's: a proven password forgets its address's failures, which would let a guesser knowing it start
 *  each round of code guesses from zero. */
const secondStepAddress = (address: string) => `mfa:${address}`;

async function checkCounted<T>(
  target: SignInTarget,
  user: SignInUser,
  attempt: { readonly address: string; readonly budget: StepBudget },
  check: () => Promise<CodeCheck>,
  pass: Passing<T>,
): Promise<{ ok: true; passed: T } | { ok: false; reason: SignInFailureReason; spent: boolean; unwritten?: Unwritten }> {
  const address = secondStepAddress(attempt.address);
  const refused = await addressRefusal(target, user, address);
  if (refused !== undefined) return { ok: false, reason: refused, spent: false };
  const taken = await takeStepAttempt(target, attempt.budget);
  if (taken === null) {
    await refuseUncounted(target);
    return { ok: false, reason: 'too_many_codes', spent: true };
  }
  const checked = await check();
  if (!checked.ok) {
    await recordFailedSignIn(target, user, target.lockout, address);
    return { ...checked, spent: taken >= STEP_ATTEMPTS };
  }
  // Before the failures are cleared: a step that adds nothing has not passed. Its attempt is spent as a wrong answer's.
  const passed = await pass();
  if (passed === 'not_added') return { ok: false, reason: 'factor_not_added', spent: taken >= STEP_ATTEMPTS, unwritten: 'not_added' };
  if (passed === 'inactive') return { ok: false, reason: 'user_inactive', spent: false, unwritten: 'inactive' };
  if (passed === 'password_replaced') return { ok: false, reason: 'password_replaced', spent: false, unwritten: 'password_replaced' };
  if ((await recordSuccessfulSignIn(target, user, address)) === null) return unsignedIn(target, user);
  return { ok: true, passed };
}

/** A right answer recordSuccessfulSignIn refused: the user may no longer act, or the address was locked out meanwhile. */
async function unsignedIn(target: SignInTarget, user: SignInUser): Promise<{ ok: false; reason: SignInFailureReason; spent: false; unwritten?: 'inactive' }> {
  if ((await activeUser(target, user.id)) === null) return { ok: false, reason: 'user_inactive', spent: false, unwritten: 'inactive' };
  return { ok: false, reason: 'address_locked', spent: false };
}

/** The attempt's number, taken in one statement so answers sent at once each take their own; null: none left. */
async function takeStepAttempt(target: SignInTarget, budget: StepBudget): Promise<number | null> {
  if (!(budget.until > Date.now() / 1000)) return null;
  const live = liveRow('oidc_model');
  const [row] = await target.applicationScope.em.getConnection().execute<{ taken: number }[]>(
    `insert into oidc_model (model, id, application_id, payload, expires_at)
       values ('${MODEL.StepAttempts}', ?, ?, '{"taken": 1}'::jsonb, now() + make_interval(secs => ?::int))
     on conflict (model, id) do update
       set payload = jsonb_build_object('taken', case when ${live} then (oidc_model.payload->>'taken')::int + 1 else 1 end),
           expires_at = case when ${live} then oidc_model.expires_at else excluded.expires_at end
       where not ${live} or (oidc_model.payload->>'taken')::int < ?
     returning (payload->>'taken')::int as taken`,
    [budget.key, target.application.id, STEP_BUDGET_SECONDS, STEP_ATTEMPTS],
  );
  return row?.taken ?? null;
}

/** Whether a shared budget has no attempt left (the session's step-up then asks for a first factor). */
export async function stepBudgetSpent(target: SignInTarget, budget: StepBudget): Promise<boolean> {
  const rows = await target.applicationScope.em.getConnection().execute<unknown[]>(
    `select 1 from oidc_model where model = '${MODEL.StepAttempts}' and id = ? and ${liveRow()} and (payload->>'taken')::int >= ?`,
    [budget.key, STEP_ATTEMPTS],
  );
  return rows.length > 0;
}
