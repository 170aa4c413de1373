/** An API date-time in the reader's locale, machine-readable in `dateTime`. */
export function Timestamp({ value }: { value: string }) {
  return <time dateTime={value}>{new Date(value).toLocaleString()}</time>;
}
