import { ApolloServerErrorCode } from '@apollo/server/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CredentialSource } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import {
  getOperationAST,
  GraphQLError,
  Kind,
  OperationTypeNode,
  specifiedRules,
  subscribe,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ASTVisitor,
  type SelectionNode,
  type ValidationContext,
} from 'graphql';
import type { RequestContext } from '../context.ts';
import { GatehouseError } from '../errors.ts';
import type { EventStreams, StreamSlot } from '../http/event-stream.ts';
import { authorize, authorizedNow, operationRules, operationTenants, refusalNow } from './authorize-operation.ts';
import { KnownOperationTypesRule, OperationLimitsRule } from './operation-limits.ts';
import { variablesRefusal } from './variable-coercion.ts';
import { countOperation, operationLabels } from './operation-metrics.ts';
import { noteRequest } from '../observability/log.ts';

/**
 * Subscriptions over Server-Sent Events (below) and WebSocket (websocket.ts): one copy of the checks every operation
 * passes, and each result sent only while its credentials, asked again, may still run it.
 */

export type SerializeError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export interface SubscriptionDeps {
  readonly subscriptions: SubscriptionStarter;
  readonly streams: EventStreams;
  /** The request's credentials authenticated anew: through the caches before each result, from the database per read. */
  readonly authenticateAgain: (request: FastifyRequest, source: CredentialSource) => Promise<Principal>;
}

/** A refused subscription: its errors as the JSON answer shows them, with the status of the first. */
export interface SubscriptionRefusal {
  readonly status: number;
  readonly body: { readonly errors: GraphQLFormattedError[] };
}

export interface SubscriptionHold {
  readonly authenticateAgain: (source: CredentialSource) => Promise<Principal>;
  /** One of the credential's streams (EventStreams.take), taken once the operation passed its checks. */
  readonly take: () => StreamSlot;
  /** Where the subscription has read to, a resumption token (RequestContext's `reached`); a transport that carries it. */
  readonly reached?: (token: string) => void;
}

/** A subscription refused (its errors, for the transport's serializer), or running: its results as sent, and its stream. */
export type StartedSubscription =
  | { readonly refused: readonly GraphQLError[] }
  | { readonly results: AsyncIterableIterator<FormattedExecutionResult>; readonly slot: StreamSlot };

/**
 * graphql-js 16 refuses a subscription of more than one root field, not one whose only field is skipped (`@skip`,
 * `@include`), which `subscribe` then throws on: a condition on the root selections is refused instead.
 */
function UnconditionalSubscriptionRootRule(context: ValidationContext): ASTVisitor {
  const conditional = (selections: readonly SelectionNode[]): SelectionNode | undefined => {
    for (const selection of selections) {
      if (selection.directives?.some((directive) => directive.name.value === 'skip' || directive.name.value === 'include')) return selection;
      const inner =
        selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : selection.kind === Kind.FRAGMENT_SPREAD ? context.getFragment(selection.name.value)?.selectionSet : undefined;
      const found = inner === undefined ? undefined : conditional(inner.selections);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return {
    OperationDefinition(node) {
      const found = node.operation === OperationTypeNode.SUBSCRIPTION ? conditional(node.selectionSet.selections) : undefined;
      if (found !== undefined) context.reportError(new GraphQLError('A subscription selects exactly one root field: it cannot be skipped or included conditionally', { nodes: found }));
    },
  };
}

const RULES = [...specifiedRules, KnownOperationTypesRule, OperationLimitsRule, UnconditionalSubscriptionRootRule];

/** graphql-js's single-field rule evaluates `@include(if: $v)` without variables and throws for a non-null `$v`. */
function validated(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  try {
    return validate(schema, document, RULES);
  } catch (error) {
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
}

/** A GatehouseError as a GraphQL error the serializer words as the contract's (format-error.ts); anything else thrown on. */
export function refusalOf(error: unknown): GraphQLError {
  if (!(error instanceof GatehouseError)) throw error;
  return new GraphQLError(error.message, { originalError: error });
}

/** graphql-js's refusal of a client's document under the code Apollo gives it, so that it reads as a query's (422). */
export function inputRefusal(error: GraphQLError, code: ApolloServerErrorCode.GRAPHQL_PARSE_FAILED | ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError ?? error,
    extensions: { ...error.extensions, code },
  });
}

export function subscriptionStarter(schema: GraphQLSchema, serializeError: SerializeError) {
  const rules = operationRules();
  const tenants = operationTenants();
  const show = (errors: readonly GraphQLError[]) => errors.map((error) => serializeError(error.toJSON(), error));

  async function start(
    context: RequestContext,
    document: DocumentNode,
    operationName: string | undefined,
    variables: Record<string, unknown>,
    hold: SubscriptionHold,
  ): Promise<StartedSubscription> {
    const operation = getOperationAST(document, operationName) ?? undefined;
    const labels = operationLabels(schema, operation);
    noteRequest({ operation: `${labels.type} ${labels.field}` });
    const refused = (errors: readonly GraphQLError[]): StartedSubscription => {
      // graphql-js's own refusals (validation, variables) carry no GatehouseError: they are the contract's 422.
      const first = errors[0]?.originalError;
      countOperation(labels, errors, first instanceof GatehouseError ? first.code : first == null || first instanceof GraphQLError ? 'validation_error' : 'error');
      return { refused: errors };
    };
    const invalid = validated(schema, document);
    if (invalid.length > 0) return refused(invalid.map((error) => inputRefusal(error, ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED)));
    if (operation === undefined) {
      return refused([refusalOf(new GatehouseError('validation_error', 'The operation to run is not named, or not in the document', { field: 'operationName' }))]);
    }
    const rule = rules(schema, document, operation);
    const pathTenants = tenants(document, operation, variables);
    let slot: StreamSlot;
    try {
      await authorize(context.principal, rule, pathTenants);
      const badVariables = variablesRefusal(schema, operation.variableDefinitions ?? [], variables);
      if (badVariables !== undefined) return refused([badVariables]);
      slot = hold.take();
    } catch (error) {
      return refused([refusalOf(error)]);
    }
    const refusal = (source: CredentialSource) => refusalNow(() => hold.authenticateAgain(source), rule, pathTenants);
    try {
      const contextValue: RequestContext = {
        ...context,
        authorizedFromDatabase: () => authorizedNow(() => hold.authenticateAgain('database'), rule, pathTenants),
        reached: (token) => hold.reached?.(token),
      };
      const results = await subscribe({ schema, document, operationName, variableValues: variables, contextValue });
      if (Symbol.asyncIterator in results) {
        countOperation(labels, [], undefined);
        return { results: sent(results, () => refusal('cache'), slot), slot };
      }
      slot.release();
      return refused(results.errors ?? []);
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  /**
   * The results as sent while the credentials may still run the operation; then their refusal, the last result (asked
   * here before each result, or thrown by the source: RequestContext's `authorizedFromDatabase`). `return()` stops the
   * source at once (an async generator's would wait for the pending `next()`).
   */
  function sent(results: AsyncGenerator<ExecutionResult>, refusal: () => Promise<GatehouseError | undefined>, slot: StreamSlot): AsyncIterableIterator<FormattedExecutionResult> {
    let refused = false;
    const end = async (): Promise<IteratorReturnResult<undefined>> => {
      slot.release();
      await results.return(undefined);
      return { value: undefined, done: true };
    };
    const refuse = (error: GatehouseError): IteratorYieldResult<FormattedExecutionResult> => {
      refused = true;
      return { value: { errors: show([refusalOf(error)]) }, done: false };
    };
    const iterator: AsyncIterableIterator<FormattedExecutionResult> = {
      next: async () => {
        if (refused) return end();
        let next: IteratorResult<ExecutionResult>;
        try {
          next = await results.next();
        } catch (error) {
          if (error instanceof GatehouseError) return refuse(error);
          slot.release();
          throw error;
        }
        if (next.done === true) return end();
        const refusedNow = await refusal();
        if (refusedNow !== undefined) return refuse(refusedNow);
        const { errors, ...result } = next.value;
        return { value: errors === undefined ? result : { ...result, errors: show(errors) }, done: false };
      },
      return: end,
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  return { start, show };
}

export type SubscriptionStarter = ReturnType<typeof subscriptionStarter>;

export function subscriptionRunner(deps: SubscriptionDeps) {
  const { start, show } = deps.subscriptions;
  const formatted = (errors: readonly GraphQLError[]): SubscriptionRefusal => {
    const shown = show(errors);
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
    // Its first place (its start) comes as it starts, before the stream opens: held until then.
    const places: { stream?: ReturnType<EventStreams['open']>; first?: string } = {};
    const started = await start(context, document, operationName, variables, {
      authenticateAgain: (source) => deps.authenticateAgain(reply.request, source),
      take: () => deps.streams.take(context.principal),
      // A heartbeat's `id`, as the REST stream's: a client sent nothing still resumes where it was (`resumeAt`).
      reached: (token) => (places.stream === undefined ? (places.first = token) : places.stream.resumeAt(token)),
    });
    if ('refused' in started) return formatted(started.refused);
    const { results, slot } = started;
    const stream = deps.streams.open(reply, slot);
    places.stream = stream;
    if (places.first !== undefined) stream.resumeAt(places.first);
    // A client gone: the source stops at once, and the loop below with it; gone before it opened, nothing is read.
    reply.raw.once('close', () => void results.return?.());
    try {
      if (stream.closed) return undefined;
      for await (const result of results) {
        await stream.send('next', JSON.stringify(result));
        if (stream.closed) break;
      }
      if (!stream.closed) await stream.send('complete', '');
    } catch (error) {
      // Ended without `complete`: its client resumes (`after`) instead of taking what it got for all.
      reply.request.log.warn({ err: error }, 'subscription stream stopped');
    } finally {
      await results.return?.();
      stream.finish();
    }
    return undefined;
  };
}
