import { useEffect, useId, useState } from 'react';
import { suggestUserEmails } from '../operations-audit.ts';

/** How an audit filter names who acted or what was acted on: a user by address, or anything by its id. */
export interface ReferenceDraft {
  readonly kind: 'user' | 'id';
  readonly text: string;
}

export const NO_REFERENCE: ReferenceDraft = { kind: 'user', text: '' };

interface AuditReferenceFieldProps {
  appId: string;
  /** `Actor` or `Target`: the legend, and the start of its fields' names. */
  name: string;
  /** What the ID form takes besides users (API keys, M2M credentials…). */
  idHint: string;
  draft: ReferenceDraft;
  onChange: (draft: ReferenceDraft) => void;
}

/** The addresses starting with what is typed, as suggestions; none while nothing is typed or the read fails. */
function useUserSuggestions(appId: string, prefix: string): readonly string[] {
  const [suggestions, setSuggestions] = useState<readonly string[]>([]);
  useEffect(() => {
    if (prefix === '') {
      setSuggestions([]);
      return;
    }
    let current = true;
    suggestUserEmails(appId, prefix).then(
      (emails) => current && setSuggestions(emails),
      () => current && setSuggestions([]),
    );
    return () => {
      current = false;
    };
  }, [appId, prefix]);
  return suggestions;
}

/** A user picked by e-mail (with the addresses that start with what is typed), or any kind of actor or target by id. */
export function AuditReferenceField({ appId, name, idHint, draft, onChange }: AuditReferenceFieldProps) {
  const id = useId();
  const byUser = draft.kind === 'user';
  const suggestions = useUserSuggestions(appId, byUser ? draft.text.trim() : '');
  return (
    <fieldset>
      <legend>{name}</legend>
      <div className="audit-reference">
        <select aria-label={`${name} kind`} value={draft.kind} onChange={(event) => onChange({ kind: event.target.value as ReferenceDraft['kind'], text: '' })}>
          <option value="user">User, by e-mail</option>
          <option value="id">Any, by ID</option>
        </select>
        <input
          type="text"
          aria-label={byUser ? `${name} e-mail` : `${name} ID`}
          placeholder={byUser ? 'an address, or its start' : idHint}
          list={byUser ? `${id}-users` : undefined}
          value={draft.text}
          onChange={(event) => onChange({ ...draft, text: event.target.value })}
        />
        {byUser && (
          <datalist id={`${id}-users`}>
            {suggestions.map((email) => <option key={email} value={email} />)}
          </datalist>
        )}
      </div>
    </fieldset>
  );
}
