import { AUDIT_ACTIONS } from '../../src/domain/audit/actions.ts';

// Read from the server's own table at build time (as copy-keys.ts does): no list of ours to fall behind it.

export interface ActionChoice {
  readonly value: string;
  readonly label: string;
}

const resourceOf = (action: string) => action.slice(0, action.indexOf('.'));

/** Each resource's family (`user.*`, which the API takes as a prefix), then its actions with their meaning, in the table's order. */
export const ACTION_CHOICES: readonly ActionChoice[] = Object.entries(
  Object.groupBy(Object.entries(AUDIT_ACTIONS), ([action]) => resourceOf(action)),
).flatMap(([resource, actions = []]) => [
  { value: `${resource}.*`, label: `Every ${resource} action` },
  ...actions.map(([action, { meaning }]) => ({ value: action, label: meaning })),
]);
