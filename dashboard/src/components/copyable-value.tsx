/** A table cell's value to copy (a client_id, an identifier): read-only, selected whole on focus. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  return <input type="text" readOnly className="client-id" aria-label={label} value={value} onFocus={(event) => event.currentTarget.select()} />;
}
