import { useState } from 'react';
import { errorMessage } from '../error-message.ts';

/** What the last submission came to: the action's answer, or the server's refusal. */
export type SubmissionOutcome<T> = { readonly done: T } | { readonly refused: string };

export interface Submission<T> {
  /** Whether an action is under way (its button is disabled meanwhile). */
  readonly busy: boolean;
  readonly outcome: SubmissionOutcome<T> | null;
  run: (action: () => Promise<T>) => void;
  clear: () => void;
}

/** A form's submit: runs its action and keeps what it came to, so the form can show it. */
export function useSubmission<T>(): Submission<T> {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<SubmissionOutcome<T> | null>(null);

  const run = async (action: () => Promise<T>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ done: await action() });
    } catch (error) {
      setOutcome({ refused: errorMessage(error) });
    }
    setBusy(false);
  };

  return { busy, outcome, run: (action) => void run(action), clear: () => setOutcome(null) };
}
