import { useState } from 'react';
import { errorMessage } from '../error-message.ts';

export interface Action<A extends unknown[]> {
  /** Whether the action is under way (its buttons are disabled meanwhile). */
  readonly busy: boolean;
  /** The server's message for the last refusal; null once one succeeds or a new one starts. */
  readonly failure: string | null;
  run: (...args: A) => void;
}

/** A button's or a form's call to the server: busy while it runs, and the refusal's message when it is refused. */
export function useAction<A extends unknown[]>(act: (...args: A) => Promise<void>): Action<A> {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async (...args: A) => {
    setBusy(true);
    setFailure(null);
    try {
      await act(...args);
    } catch (error) {
      setFailure(errorMessage(error));
    }
    setBusy(false);
  };

  return { busy, failure, run: (...args) => void run(...args) };
}
