import type { FastifyReply } from 'fastify';

/** When the refusal knows no closer time: the API-wide limit's window; a moment when overloaded. */
const DEFAULT_RETRY_SECONDS: Readonly<Record<number, number>> = { 429: 60, 503: 2 };

export const defaultRetrySeconds = (status: number): number | undefined => DEFAULT_RETRY_SECONDS[status];

/** API.md: the limiter's own header when set, else the error's time, else the status's default; whichever layer refused. */
export function sayWhenToRetry(reply: FastifyReply, status: number, seconds?: number): void {
  const fallback = defaultRetrySeconds(status);
  if (seconds !== undefined) reply.header('retry-after', String(seconds));
  else if (fallback !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', String(fallback));
}

/** `extensions.retryAfter`, for the header over /graphql and REST alike. */
export function retryAfterOf(extensions: { readonly retryAfter?: unknown } | undefined): number | undefined {
  const seconds = extensions?.retryAfter;
  return typeof seconds === 'number' ? seconds : undefined;
}
