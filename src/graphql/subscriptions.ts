import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import {
  getOperationAST,
  GraphQLError,
  specifiedRules,
  subscribe,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { RequestContext } from '../context.ts';
import type { EventStreams } from '../event-stream.ts';
import { authorize, operationRules, operationTenants, stillAuthorized } from './authorize-operation.ts';
import { KnownOperationTypesRule, OperationLimitsRule } from './operation-limits.ts';
import { variablesRefusal } from './variable-coercion.ts';

/**
 * Subscriptions as GraphQL over Server-Sent Events (the protocol's distinct connections mode): `POST /graphql` with
 * `Accept: text/event-stream`. The operation passes the checks every operation passes (graphql-js's rules and the
 * limits, the permission table, the variables' bounded check) before graphql-js's `subscribe` runs it; each result is
 * an `event: next`, the end an `event: complete`. A refusal before the stream opens is a JSON answer, as for a query.
 */

export interface SubscriptionDeps {
  readonly schema: GraphQLSchema;
  readonly serializeError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  readonly streams: EventStreams;
  /** The request's credentials authenticated anew, as a new request's: asked before each result is sent. */
  readonly authenticateAgain: (request: FastifyRequest) => Promise<Principal>;
}

/** A refused subscription: its errors as the JSON answer shows them, with the status of the first. */
export interface SubscriptionRefusal {
  readonly status: number;
  readonly body: { readonly errors: GraphQLFormattedError[] };
}

const RULES = [...specifiedRules, KnownOperationTypesRule, OperationLimitsRule];

export function subscriptionRunner(deps: SubscriptionDeps) {
  const rules = operationRules();
  const tenants = operationTenants();
  const formatted = (errors: readonly GraphQLError[]): SubscriptionRefusal => {
    const shown = errors.map((error) => deps.serializeError(error.toJSON(), error));
    const status = shown[0]?.extensions?.['status'];
    return { status: typeof status === 'number' ? status : 422, body: { errors: shown } };
  };

  /** Runs the subscription `document` asks, streaming on `reply`; or the refusal to answer instead. */
  return async function run(
    context: RequestContext,
    reply: FastifyReply,
    document: DocumentNode,
    operationName: string | undefined,
    variables: Record<string, unknown>,
  ): Promise<SubscriptionRefusal | undefined> {
    const invalid = validate(deps.schema, document, RULES);
    if (invalid.length > 0) return formatted(invalid);
    const operation = getOperationAST(document, operationName);
    if (operation === null || operation === undefined) return formatted([new GraphQLError('The operation to run is not named, or not in the document')]);
    const rule = rules(deps.schema, document, operation);
    const pathTenants = tenants(document, operation, variables);
    await authorize(context.principal, rule, pathTenants);
    const refused = variablesRefusal(deps.schema, operation.variableDefinitions ?? [], variables);
    if (refused !== undefined) throw refused;
    const results = await subscribe({ schema: deps.schema, document, operationName, variableValues: variables, contextValue: context });
    if (!(Symbol.asyncIterator in results)) return formatted(results.errors ?? []);
    const stream = deps.streams.open(reply);
    // A client gone: the source stops at its next wake, and the loop below at once.
    reply.raw.once('close', () => void results.return?.());
    try {
      for await (const result of results) {
        if (!(await stillAuthorized(() => deps.authenticateAgain(reply.request), rule, pathTenants))) break;
        const shown = result.errors === undefined ? result : { ...result, errors: formatted(result.errors).body.errors };
        await stream.send('next', JSON.stringify(shown));
        if (stream.closed) break;
      }
      if (!stream.closed) await stream.send('complete', '');
    } finally {
      await results.return?.();
      stream.finish();
    }
    return undefined;
  };
}
