import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterOf, sayWhenToRetry } from '../retry-after.ts';

/**
 * GraphQL over HTTP (graphql.github.io/graphql-over-http): the answer's media type comes from `Accept`, each with its
 * own statuses.
 * - `graphql-response` (`application/graphql-response+json`): with `data` (null included) 200; without, its first
 *   error's status, 400 for a malformed request or a validation failure.
 * - `json` (`application/json` named): everything GraphQL answered is 200 (a client cannot tell a server's 4xx from a
 *   proxy's); a request that is not well-formed GraphQL over HTTP is 400.
 * - `contract` (neither named, or only types the spec lets the service disregard): `application/json` with the
 *   contract's statuses, which existing clients read (docs/decisions.md#conventions).
 * Refusals before GraphQL ran (401, 413, 415, 429), `extensions.code` and `extensions.status` are alike in every mode.
 */
export type GraphQLAnswerMode = 'graphql-response' | 'json' | 'contract';

const MEDIA_TYPES: Readonly<Record<string, GraphQLAnswerMode>> = {
  'application/graphql-response+json': 'graphql-response',
  'application/json': 'json',
};

/** The named type of highest `q` (above 0), the first listed among equals; `contract` when neither is named. */
export function answerMode(accept: string | undefined): GraphQLAnswerMode {
  let best: { mode: GraphQLAnswerMode; q: number } | undefined;
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const mode = MEDIA_TYPES[type];
    if (mode === undefined) continue;
    const weight = parameters.find((parameter) => parameter.startsWith('q='));
    const q = weight === undefined ? 1 : Number(weight.slice(2));
    if (Number.isFinite(q) && q > 0 && (best === undefined || q > best.q)) best = { mode, q };
  }
  return best?.mode ?? 'contract';
}

export interface GraphQLResponseBody {
  readonly data?: unknown;
  readonly errors?: readonly { readonly extensions?: { readonly code?: unknown; readonly status?: unknown; readonly retryAfter?: unknown } }[];
}

export interface GraphQLAnswer {
  /** The contract's status: a response without data takes its first error's. */
  readonly status: number;
  readonly body: GraphQLResponseBody;
  /** Answered by GraphQL (Apollo ran the request, refusals of its own included), not refused before it. */
  readonly fromGraphQL: boolean;
}

export function answerStatus(mode: GraphQLAnswerMode, { status, body, fromGraphQL }: GraphQLAnswer): number {
  const badRequest = body.errors?.[0]?.extensions?.code === 'validation_error';
  switch (mode) {
    case 'contract':
      return status;
    case 'graphql-response':
      if (body.data !== undefined) return 200;
      return badRequest ? 400 : status;
    case 'json':
      if (fromGraphQL) return 200;
      return badRequest ? 400 : status;
  }
}

export function sendGraphQLAnswer(request: FastifyRequest, reply: FastifyReply, answer: GraphQLAnswer): FastifyReply {
  const mode = answerMode(request.headers.accept);
  const type = mode === 'graphql-response' ? 'application/graphql-response+json' : 'application/json';
  const status = answerStatus(mode, answer);
  // The first error's, as its status is the answer's; a 200 (data, or the `json` mode) says no Retry-After.
  if (status >= 400) sayWhenToRetry(reply, status, retryAfterOf(answer.body.errors?.[0]?.extensions));
  return reply.status(status).header('vary', 'accept').type(`${type}; charset=utf-8`).send(answer.body);
}
