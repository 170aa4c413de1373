/** A polite announcement that something is on its way. */
export function Loading({ children }: { children: string }) {
  return <p role="status" className="loading">{children}</p>;
}

/** A failure, announced at once; `message` is the server's or the sign-in's own sentence. */
export function ErrorMessage({ message }: { message: string }) {
  return <p role="alert" className="error">{message}</p>;
}
