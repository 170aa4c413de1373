import type { CopyText } from './branding/copy/index.ts';
import { GatehouseError } from '../errors.ts';
import { DISPLAY_NAME_MAX, displayNameProblem, email, type DisplayNameProblem } from './validate.ts';

const NAME_REFUSALS: Readonly<Record<DisplayNameProblem, CopyText>> = {
  length: { key: 'field.nameLength', values: { count: String(DISPLAY_NAME_MAX) } },
  control: { key: 'field.nameControl' },
  direction: { key: 'field.nameDirection' },
  invisible: { key: 'field.nameInvisible' },
};

/** A form field as typed: a value that is no string (absent, or repeated) reads as empty. */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Trimmed, null when blank (the field is optional), else refused in the pages' words. */
export function typedName(typed: string): { readonly name: string | null } | { readonly refusal: CopyText } {
  const name = typed.trim();
  if (name === '') return { name: null };
  const problem = displayNameProblem(name);
  return problem === undefined ? { name } : { refusal: NAME_REFUSALS[problem] };
}

/** An address typed in a hosted form, trimmed; undefined when it is none. */
export function typedEmail(typed: string): string | undefined {
  try {
    return email('Email address', typed);
  } catch (error) {
    if (error instanceof GatehouseError) return undefined;
    throw error;
  }
}
