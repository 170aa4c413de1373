import { useContext } from 'react';
import { copyKeyOf, newCopyEntry, type CopyEntry } from '../branding-draft.ts';
import { builtInText, COPY_LANGUAGES, isCopyLanguage, type CopyKey } from '../copy-keys.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

interface CopyEditorProps {
  entries: readonly CopyEntry[];
  /** The keys offered (copyKeysFor). */
  keys: readonly CopyKey[];
  onChange: (entries: readonly CopyEntry[]) => void;
}

/** The hosted pages' texts the branding replaces: a key of the pages' copy, in every language or one, and its text. */
export function CopyEditor({ entries, keys, onChange }: CopyEditorProps) {
  const refusal = useContext(RefusedField);
  const change = (id: number, patch: Partial<CopyEntry>) => onChange(entries.map((entry) => (entry.id === id ? { ...entry, ...patch } : entry)));
  return (
    <fieldset className="copy-editor">
      <legend>Texts</legend>
      {entries.length === 0 ? (
        <p className="hint">The hosted pages show their built-in wording.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Language</th>
              <th scope="col">Text</th>
              <th scope="col"><span className="visually-hidden">Remove</span></th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={entry.id}>
                <td>
                  <select aria-label={`Key ${index + 1}`} value={entry.key} onChange={(event) => change(entry.id, { key: event.target.value })}>
                    {keys.map((key) => <option key={key} value={key}>{key}</option>)}
                  </select>
                </td>
                <td>
                  <select
                    aria-label={`Language of key ${index + 1}`}
                    value={entry.language}
                    onChange={(event) => change(entry.id, { language: isCopyLanguage(event.target.value) ? event.target.value : '' })}
                  >
                    <option value="">All languages</option>
                    {COPY_LANGUAGES.map((language) => <option key={language} value={language}>{LANGUAGE_NAMES.of(language)}</option>)}
                  </select>
                </td>
                <td>
                  <input
                    aria-label={`Text of key ${index + 1}`}
                    {...refusalMarks(refusal, `copy.${copyKeyOf(entry)}`)}
                    value={entry.text}
                    placeholder={builtInText(entry.key)}
                    onChange={(event) => change(entry.id, { text: event.target.value })}
                  />
                </td>
                <td>
                  <button type="button" className="small" onClick={() => onChange(entries.filter((other) => other.id !== entry.id))}>
                    Remove<span className="visually-hidden">{` key ${index + 1}`}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" onClick={() => onChange([...entries, newCopyEntry(entries, keys)])}>Add a text</button>
    </fieldset>
  );
}
