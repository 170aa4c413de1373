import { useId, type ReactNode } from 'react';

/** A part of a tab under its own heading, which names it for assistive technology. */
export function Subsection({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      {children}
    </section>
  );
}
