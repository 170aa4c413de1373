import { useAction } from './use-action.ts';

export interface ConfirmedAction {
  /** Whether an action is under way (the buttons that start one are disabled meanwhile). */
  readonly busy: boolean;
  readonly failure: string | null;
  /** Asks `question`; once confirmed, runs `action`, keeping its failure's message. */
  run: (question: string, action: () => Promise<void>) => void;
}

/** An action on a row that the operator confirms first (remove, rotate, revoke), with its busy state and refusal. */
export function useConfirmedAction(): ConfirmedAction {
  const action = useAction((act: () => Promise<void>) => act());
  return {
    busy: action.busy,
    failure: action.failure,
    run: (question, act) => {
      if (window.confirm(question)) action.run(act);
    },
  };
}
