import { useState } from 'react';
import { errorMessage } from '../error-message.ts';

export interface ConfirmedAction {
  /** Whether an action is under way (the buttons that start one are disabled meanwhile). */
  readonly busy: boolean;
  /** Why the last action failed; null after a success. */
  readonly failure: string | null;
  /** Asks `question`; once confirmed, runs `action`, keeping its failure's message. */
  run: (question: string, action: () => Promise<void>) => void;
}

/** An action on a row that the operator confirms first (remove, rotate, revoke), with its busy state and refusal. */
export function useConfirmedAction(): ConfirmedAction {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (question: string, action: () => Promise<void>) => {
    if (!window.confirm(question)) return;
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(errorMessage(error));
    }
    setBusy(false);
  };

  return { busy, failure, run: (question, action) => void run(question, action) };
}
