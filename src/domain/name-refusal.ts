import type { CopyText } from './branding/copy/index.ts';
import { DISPLAY_NAME_MAX, displayNameProblem, type DisplayNameProblem } from './validate.ts';

const NAME_REFUSALS: Readonly<Record<DisplayNameProblem, CopyText>> = {
  length: { key: 'field.nameLength', values: { count: String(DISPLAY_NAME_MAX) } },
  control: { key: 'field.nameControl' },
  direction: { key: 'field.nameDirection' },
  invisible: { key: 'field.nameInvisible' },
};

/** A name typed in a hosted form (sign-up, invitation, account page), refused in the pages' words; blank is no name. */
export function nameRefusal(typed: string): CopyText | undefined {
  if (typed.trim() === '') return undefined;
  const problem = displayNameProblem(typed);
  return problem === undefined ? undefined : NAME_REFUSALS[problem];
}
