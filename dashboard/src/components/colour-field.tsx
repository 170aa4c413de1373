import { useId } from 'react';

const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

interface ColourFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** A colour typed as `#rrggbb` beside the browser's picker, which shows black while the text is no such colour. */
export function ColourField({ label, value, onChange }: ColourFieldProps) {
  const id = useId();
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
        <input id={id} type="text" size={9} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />
      </div>
    </div>
  );
}
