import { useId } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';
import { applies, type DraftValue, type SettingField, type SettingsDraft } from '../setting-fields.ts';
import { TextField } from './text-field.tsx';

interface SettingInputsProps {
  fields: readonly SettingField[];
  draft: SettingsDraft;
  onChange: (draft: SettingsDraft) => void;
  /** What the API puts before a field's name in a refusal (`config.` for an auth provider's settings). */
  fieldPrefix?: string;
}

/** A labelled input per field that applies: a checkbox, a number or text, a select, or a group of checkboxes. */
export function SettingInputs({ fields, draft, onChange, fieldPrefix = '' }: SettingInputsProps) {
  const set = (name: string) => (value: DraftValue) => onChange({ ...draft, [name]: value });
  return (
    <>
      {fields
        .filter((field) => applies(field, draft))
        .map((field) => (
          <SettingInput key={field.name} field={field} apiName={`${fieldPrefix}${field.name}`} value={draft[field.name] ?? ''} onChange={set(field.name)} />
        ))}
    </>
  );
}

interface SettingInputProps {
  field: SettingField;
  /** The field's name in the API's refusals. */
  apiName: string;
  value: DraftValue;
  onChange: (value: DraftValue) => void;
}

function SettingInput({ field, apiName, value, onChange }: SettingInputProps) {
  const id = useId();
  const hintId = field.hint === undefined ? undefined : `${id}-hint`;
  const marks = useRefusalMarks(apiName, hintId);
  // A group's first box stands for it (a fieldset takes no focus); the fieldset keeps the hint.
  const firstBoxMarks = useRefusalMarks(apiName);
  const hint = field.hint !== undefined && <p id={hintId} className="hint">{field.hint}</p>;
  switch (field.kind) {
    case 'boolean':
      return (
        <div className="field">
          <label>
            <input type="checkbox" checked={value === true} {...marks} onChange={(event) => onChange(event.target.checked)} />
            {field.label}
          </label>
          {hint}
        </div>
      );
    case 'choice':
      return (
        <div className="field">
          <label htmlFor={id}>{field.label}</label>
          <select id={id} value={String(value)} {...marks} onChange={(event) => onChange(event.target.value)}>
            {field.choices.map((choice) => <option key={choice.value} value={choice.value}>{choice.label}</option>)}
          </select>
          {hint}
        </div>
      );
    case 'choices': {
      const checked = typeof value === 'object' ? value : [];
      const toggle = (choice: string, on: boolean) => onChange(on ? [...checked, choice] : checked.filter((each) => each !== choice));
      return (
        <fieldset className="field" aria-describedby={hintId}>
          <legend>{field.label}</legend>
          {field.choices.map((choice, index) => (
            <label key={choice.value}>
              <input
                type="checkbox"
                checked={checked.includes(choice.value)}
                {...(index === 0 ? firstBoxMarks : {})}
                onChange={(event) => toggle(choice.value, event.target.checked)}
              />
              {choice.label}
            </label>
          ))}
          {hint}
        </fieldset>
      );
    }
    default:
      return (
        <TextField
          label={field.label}
          type={field.kind === 'number' ? 'number' : 'text'}
          rows={field.kind === 'text' ? field.rows : undefined}
          value={String(value)}
          onChange={onChange}
          hint={field.hint}
          field={apiName}
        />
      );
  }
}
