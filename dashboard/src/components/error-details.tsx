/** A refusal's details under its message, one sentence each, named for screen readers by `label`. */
export function ErrorDetails({ label, items }: { label: string; items: readonly string[] }) {
  if (items.length === 0) return null;
  return (
    <ul aria-label={label} className="error">
      {items.map((item) => <li key={item}>{item}</li>)}
    </ul>
  );
}
