import { createContext, useContext } from 'react';

/** The input a form's last refusal names, which stays marked until it is edited or the form is submitted again. */
export interface FieldRefusal {
  /** As the API names it: `slug`, `redirectUris[1]`, `address.country`. */
  readonly field: string;
  readonly messageId: string;
  unmark: () => void;
  /** The marked input's ref: focuses it and gives the message its label. */
  attach: (element: HTMLElement | null) => void;
}

export const RefusedField = createContext<FieldRefusal | null>(null);

/** An input named `name` stands for the field itself and for what it holds: `redirectUris` for `redirectUris[1]`. */
const stands = (name: string, field: string) => field === name || field.startsWith(`${name}[`) || field.startsWith(`${name}.`);

/** What an input carries, refused or not: WCAG 3.3.1 wants the refused one identified, described and focused. */
export interface RefusalMarks {
  readonly 'aria-invalid': true | undefined;
  readonly 'aria-describedby': string | undefined;
  /** Focuses the input as it is marked (FieldRefusal.attach): React attaches a ref that appears. */
  readonly ref: ((element: HTMLElement | null) => void) | undefined;
  readonly onInput: (() => void) | undefined;
}

export function refusalMarks(refusal: FieldRefusal | null, name: string | undefined, describedBy?: string): RefusalMarks {
  const marked = refusal !== null && name !== undefined && stands(name, refusal.field);
  if (!marked) return { 'aria-invalid': undefined, 'aria-describedby': describedBy, ref: undefined, onInput: undefined };
  return {
    'aria-invalid': true,
    'aria-describedby': describedBy === undefined ? refusal.messageId : `${describedBy} ${refusal.messageId}`,
    ref: refusal.attach,
    onInput: refusal.unmark,
  };
}

export function useRefusalMarks(name: string | undefined, describedBy?: string): RefusalMarks {
  return refusalMarks(useContext(RefusedField), name, describedBy);
}

/** A fieldset of checkboxes (`permissions`, `roleIds`): the refusal names the list, not one box, so the fieldset is marked,
 *  and focusable while marked. */
export function listMarks(refusal: FieldRefusal | null, name: string): RefusalMarks & { readonly tabIndex: -1 | undefined } {
  const marks = refusalMarks(refusal, name);
  return { ...marks, tabIndex: marks['aria-invalid'] === true ? -1 : undefined };
}

export function useRefusedListMarks(name: string): RefusalMarks & { readonly tabIndex: -1 | undefined } {
  return listMarks(useContext(RefusedField), name);
}
