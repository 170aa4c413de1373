import { TextField } from './text-field.tsx';

interface SecretFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Whether one is stored that an empty field keeps. */
  stored: boolean;
  /** A PEM key is typed on several lines (a textarea, which cannot mask it). */
  rows?: number;
  field?: string;
}

/** A write-only secret: never read back, typed again or, when one is stored, left empty to keep it. */
export function SecretField({ label, value, onChange, stored, rows, field }: SecretFieldProps) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete="new-password"
      rows={rows}
      value={value}
      onChange={onChange}
      field={field}
      hint={stored ? 'Write-only: one is stored. Leave this empty to keep it.' : 'Write-only: it is never shown again once saved.'}
    />
  );
}
