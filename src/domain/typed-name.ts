import type { CopyText } from './branding/copy/index.ts';
import { DISPLAY_NAME_MAX, displayNameProblem, type DisplayNameProblem } from './validate.ts';

const NAME_REFUSALS: Readonly<Record<DisplayNameProblem, CopyText>> = {
  length: { key: 'field.nameLength', values: { count: String(DISPLAY_NAME_MAX) } },
  control: { key: 'field.nameControl' },
  direction: { key: 'field.nameDirection' },
  invisible: { key: 'field.nameInvisible' },
};

/**
 * A name typed in a hosted form (sign-up, invitation, account page): trimmed, null when blank (the field is optional),
 * else refused in the pages' words.
 */
export function typedName(typed: string): { readonly name: string | null } | { readonly refusal: CopyText } {
  const name = typed.trim();
  if (name === '') return { name: null };
  const problem = displayNameProblem(name);
  return problem === undefined ? { name } : { refusal: NAME_REFUSALS[problem] };
}
