import { useId } from 'react';
import { useRefusalMarks } from '../hooks/use-refused-field.ts';

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

interface ColourFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The API's name of it (`colors.primary`), by which a refusal marks the text input. */
  field?: string;
}

/** A colour typed as `#rrggbb` beside the browser's picker, which shows black while the text is no such colour. */
export function ColourField({ label, value, onChange, field }: ColourFieldProps) {
  const id = useId();
  const marks = useRefusalMarks(field);
  return (
    <div className="colour-field">
      <label htmlFor={id}>{label}</label>
      <div>
        <input
          type="color"
          aria-label={`Pick the ${label.toLowerCase()}`}
          value={HEX_COLOUR.test(value) ? value.toLowerCase() : '#000000'}
          onChange={(event) => onChange(event.target.value)}
        />
        <input id={id} type="text" size={9} spellCheck={false} {...marks} value={value} onChange={(event) => onChange(event.target.value)} />
      </div>
    </div>
  );
}
