import { useCallback, useId, useRef, useState } from 'react';
import { ApiError } from '../api.ts';
import { errorMessage, inFormWords, labelOf } from '../error-message.ts';
import type { FieldRefusal } from './use-refused-field.ts';

/** A refused submission: the server's message, the input it names (`slug`, `redirectUris[1]`) if any, and the message's element id. */
export interface Refused {
  readonly refused: string;
  readonly field: string | null;
  readonly messageId: string;
}

/** What the last submission came to: the action's answer, or the server's refusal. */
export type SubmissionOutcome<T> = { readonly done: T } | Refused;

export interface Submission<T> {
  /** Whether an action is under way (its button is disabled meanwhile). */
  readonly busy: boolean;
  readonly outcome: SubmissionOutcome<T> | null;
  /** The input the last refusal names, for the form's `RefusedField` provider; null once that input is edited. */
  readonly refusal: FieldRefusal | null;
  run: (action: () => Promise<T>) => void;
  clear: () => void;
}

/** A form's submit: runs its action and keeps what it came to, so the form can show it and mark the input refused. */
export function useSubmission<T>(): Submission<T> {
  const messageId = useId();
  const [busy, setBusy] = useState(false);
  // The guard itself: the state shows only once React renders, so two submits in one task would both pass it.
  const running = useRef(false);
  const [outcome, setOutcome] = useState<SubmissionOutcome<T> | null>(null);
  const [marked, setMarked] = useState<string | null>(null);
  // The marked input's label, once it is attached: the message shown names the field as the form does.
  const [label, setLabel] = useState<string | null>(null);
  // Stable: React calls a new ref callback (and so would focus again) at every render.
  const attach = useCallback((element: HTMLElement | null) => {
    if (element === null) return;
    element.focus();
    setLabel(labelOf(element));
  }, []);

  const run = async (action: () => Promise<T>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setOutcome(null);
    setMarked(null);
    setLabel(null);
    try {
      setOutcome({ done: await action() });
    } catch (error) {
      const field = error instanceof ApiError ? (error.field ?? null) : null;
      setOutcome({ refused: errorMessage(error), field, messageId });
      setMarked(field);
    }
    running.current = false;
    setBusy(false);
  };

  const shown = outcome !== null && 'refused' in outcome && outcome.field !== null && label !== null ? { ...outcome, refused: inFormWords(outcome.refused, outcome.field, label) } : outcome;
  return {
    busy,
    outcome: shown,
    refusal: marked === null ? null : { field: marked, messageId, unmark: () => setMarked(null), attach },
    run: (action) => void run(action),
    clear: () => {
      setOutcome(null);
      setMarked(null);
    },
  };
}
