import { useSubmission } from './use-submission.ts';

export interface Action<A extends unknown[]> {
  /** Whether the action is under way (its buttons are disabled meanwhile). */
  readonly busy: boolean;
  /** The server's message for the last refusal; null once one succeeds or a new one starts. */
  readonly failure: string | null;
  run: (...args: A) => void;
}

export function useAction<A extends unknown[]>(act: (...args: A) => Promise<void>): Action<A> {
  const submission = useSubmission<void>();
  const { outcome } = submission;
  return {
    busy: submission.busy,
    failure: outcome !== null && 'refused' in outcome ? outcome.refused : null,
    run: (...args) => submission.run(() => act(...args)),
  };
}
