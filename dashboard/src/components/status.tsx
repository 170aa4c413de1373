import type { SubmissionOutcome } from '../hooks/use-submission.ts';

export function Loading({ children }: { children: string }) {
  return <p role="status" className="loading">{children}</p>;
}

/** The API writes names and values in its messages as Markdown code spans (`` `_` ``): shown as code, without the
 *  backticks; an unpaired backtick stays as written. */
export function MessageText({ message }: { message: string }) {
  const parts = message.split(/`([^`]+)`/);
  return <>{parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

/** A failure, announced at once; `message` is the server's or the sign-in's own sentence. */
export function ErrorMessage({ message, id }: { message: string; id?: string }) {
  return <p role="alert" className="error" id={id}><MessageText message={message} /></p>;
}

/** A form's last submission, if it was refused: the server's message, which describes the input it names. */
export function Refusal({ outcome }: { outcome: SubmissionOutcome<unknown> | null }) {
  if (outcome === null || !('refused' in outcome)) return null;
  return <ErrorMessage id={outcome.messageId} message={outcome.refused} />;
}

/** What a form's last submission came to: its sentence, politely, or the server's refusal, at once. */
export function Outcome({ outcome }: { outcome: SubmissionOutcome<string> | null }) {
  if (outcome === null) return null;
  return 'done' in outcome ? <p role="status">{outcome.done}</p> : <Refusal outcome={outcome} />;
}
