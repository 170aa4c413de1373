import type { SubmissionOutcome } from '../hooks/use-submission.ts';

/** A polite announcement that something is on its way. */
export function Loading({ children }: { children: string }) {
  return <p role="status" className="loading">{children}</p>;
}

/** A failure, announced at once; `message` is the server's or the sign-in's own sentence. */
export function ErrorMessage({ message }: { message: string }) {
  return <p role="alert" className="error">{message}</p>;
}

/** What a form's last submission came to: its sentence, politely, or the server's refusal, at once. */
export function Outcome({ outcome }: { outcome: SubmissionOutcome<string> | null }) {
  if (outcome === null) return null;
  return 'done' in outcome ? <p role="status">{outcome.done}</p> : <ErrorMessage message={outcome.refused} />;
}
