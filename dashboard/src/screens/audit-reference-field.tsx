import { useEffect, useId, useState } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import { suggestEmails } from '../operations-audit.ts';
import type { SettingsScope } from '../operations.ts';

/** How an audit filter names who acted or what was acted on: a user or operator by address, or anything by its id. */
export interface ReferenceDraft {
  readonly kind: 'user' | 'id';
  readonly text: string;
}

/** None yet: by address where users may be listed (`byAddress`), else by id, the one way offered. */
export const noReference = (byAddress: boolean): ReferenceDraft => ({ kind: byAddress ? 'user' : 'id', text: '' });

interface AuditReferenceFieldProps {
  /** Where the log is searched: its users are suggested. */
  place: SettingsScope;
  /** Whether a user may be named by address: that reads the users, which takes `users:read`. */
  byAddress: boolean;
  /** `Actor` or `Target`: the legend, and the start of its fields' names. */
  name: string;
  /** The API's name of the filter (`actor`, `target`), by which a refusal marks it. */
  field: string;
  /** What the ID form takes besides users (API keys, M2M credentials…). */
  idHint: string;
  draft: ReferenceDraft;
  onChange: (draft: ReferenceDraft) => void;
}

/** The addresses starting with what is typed, as suggestions; none while nothing is typed or the read fails. */
function useUserSuggestions(place: SettingsScope, prefix: string): readonly string[] {
  const [suggestions, setSuggestions] = useState<readonly string[]>([]);
  useEffect(() => {
    if (prefix === '') {
      setSuggestions([]);
      return;
    }
    let current = true;
    suggestEmails(place, prefix).then(
      (emails) => current && setSuggestions(emails),
      () => current && setSuggestions([]),
    );
    return () => {
      current = false;
    };
  }, [place, prefix]);
  return suggestions;
}

/** A user or operator picked by e-mail (with the addresses that start with what is typed), or any kind by id. */
export function AuditReferenceField({ place, byAddress: offered, name, field, idHint, draft, onChange }: AuditReferenceFieldProps) {
  const id = useId();
  const marks = useRefusalMarks(field);
  const byUser = draft.kind === 'user';
  const suggestions = useUserSuggestions(place, byUser ? draft.text.trim() : '');
  return (
    <fieldset>
      <legend>{name}</legend>
      <div className="audit-reference">
        <select aria-label={`${name} kind`} value={draft.kind} onChange={(event) => onChange({ kind: event.target.value as ReferenceDraft['kind'], text: '' })}>
          {offered && <option value="user">User or operator, by e-mail</option>}
          <option value="id">Any, by ID</option>
        </select>
        <input
          type="text"
          aria-label={byUser ? `${name} e-mail` : `${name} ID`}
          placeholder={byUser ? 'an address, or its start' : idHint}
          list={byUser ? `${id}-users` : undefined}
          value={draft.text}
          {...marks}
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
