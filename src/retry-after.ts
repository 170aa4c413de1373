import type { FastifyReply } from 'fastify';

/** The API-wide limit's window by default: an operation's own 429 knows no closer time it could promise. */
const DEFAULT_RETRY_SECONDS = 60;

/**
 * Every 429 says when to retry (API.md): the limiter's own header when it set one, else the error's time, else the
 * default. On both transports, whichever layer refused.
 */
export function sayWhenToRetry(reply: FastifyReply, seconds?: number): void {
  if (seconds !== undefined) reply.header('retry-after', String(seconds));
  else if (!reply.hasHeader('retry-after')) reply.header('retry-after', String(DEFAULT_RETRY_SECONDS));
}
