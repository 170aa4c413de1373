import { useId } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A line under the field, which assistive technology reads with it. */
  hint?: string;
  type?: 'text' | 'email' | 'number' | 'password';
  autoComplete?: string;
  /** A textarea of this many rows instead of a one-line input. */
  rows?: number;
  field?: string;
}

/** A labelled input or textarea, with its hint; marked when a refusal names its `field`. */
export function TextField({ label, value, onChange, hint, type = 'text', autoComplete = 'off', rows, field }: TextFieldProps) {
  const id = useId();
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const marks = useRefusalMarks(field, hintId);
  const common = { id, value, ...marks, onChange: (event: { target: { value: string } }) => onChange(event.target.value) };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows === undefined ? <input {...common} type={type} autoComplete={autoComplete} /> : <textarea {...common} rows={rows} spellCheck={false} />}
      {hint !== undefined && <p id={hintId} className="hint">{hint}</p>}
    </div>
  );
}
