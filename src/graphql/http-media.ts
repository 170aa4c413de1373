import type { FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterOf, sayWhenToRetry } from '../http/retry-after.ts';

/**
 * GraphQL over HTTP: `Accept` chooses the media type, each with its own statuses. `graphql-response`: with `data` 200,
 * else the first error's status. `json`: everything GraphQL answered is 200. `contract` (neither named): the contract's
 * statuses, which existing clients read (docs/decisions.md#conventions). Refusals before GraphQL ran are alike in all.
 */
export type GraphQLAnswerMode = 'graphql-response' | 'json' | 'contract';

const MEDIA_TYPES: Readonly<Record<string, GraphQLAnswerMode>> = {
  'application/graphql-response+json': 'graphql-response',
  'application/json': 'json',
};

/** Highest `q` (above 0), the first listed among equals; `contract` when neither is named. */
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
  /** A response without data takes its first error's. */
  readonly status: number;
  readonly body: GraphQLResponseBody;
  /** Apollo ran the request (its own refusals included), rather than a refusal before it. */
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
  // A 200 (data, or the `json` mode) says no Retry-After.
  if (status >= 400) sayWhenToRetry(reply, status, retryAfterOf(answer.body.errors?.[0]?.extensions));
  return reply.status(status).header('vary', 'accept').type(`${type}; charset=utf-8`).send(answer.body);
}
