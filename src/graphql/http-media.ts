import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * GraphQL over HTTP (graphql.github.io/graphql-over-http): the media type of a /graphql answer is chosen from the
 * request's `Accept`, and each has its own status codes.
 *
 * - `graphql-response`: `application/graphql-response+json`. A response with a `data` entry (null included) is 200; one
 *   without is the status of its first error, a request that is not well-formed or fails validation (the contract's
 *   422 `validation_error`) being 400.
 * - `json`: `application/json` named by the client. Everything GraphQL answered is 200 (the spec: a client cannot tell
 *   a 4xx of the server from one of a proxy); a request that is not well-formed GraphQL over HTTP (a body that is no
 *   JSON, no `query`, a member of the wrong type) is 400.
 * - `contract`: neither named (a wildcard, no `Accept`, or only types the service lacks, which the spec lets it disregard):
 *   `application/json` with the statuses of the contract, which existing clients read (docs/decisions.md#conventions).
 *
 * Refusals made before GraphQL ran (401, 413, 415, 429) keep their status in every mode; so do `extensions.code` and
 * `extensions.status`, which always say the code and its status in the contract.
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
  readonly errors?: readonly { readonly extensions?: { readonly code?: unknown; readonly status?: unknown } }[];
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

/** Sends a /graphql answer in the media type the request asked for, with that type's status. */
export function sendGraphQLAnswer(request: FastifyRequest, reply: FastifyReply, answer: GraphQLAnswer): FastifyReply {
  const mode = answerMode(request.headers.accept);
  const type = mode === 'graphql-response' ? 'application/graphql-response+json' : 'application/json';
  return reply.status(answerStatus(mode, answer)).header('vary', 'accept').type(`${type}; charset=utf-8`).send(answer.body);
}
