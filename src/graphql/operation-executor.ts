import { execute, validate, type DocumentNode, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context.ts';

/** What a named operation answers: the root data (absent when the request failed before execution) and its errors, serialized. */
export interface OperationResult {
  readonly data: Record<string, unknown> | null | undefined;
  readonly errors: readonly GraphQLFormattedError[];
}

export interface OperationExecutor {
  /** Checks a standalone operation document against the schema; throws at startup, not at the first request. */
  prepare(name: string, document: DocumentNode): void;
  run(document: DocumentNode, operationName: string, variables: Record<string, unknown>, context: RequestContext): Promise<OperationResult>;
}

type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/**
 * Runs the REST adapter's operations on the schema Apollo serves at /graphql: the same resolvers, the same context and
 * the same error serializer (format-error.ts), without Apollo's per-request pipeline (hashing the source, the document
 * cache, plugins), which an operation parsed and validated once at startup does not need.
 */
export function createOperationExecutor(schema: GraphQLSchema, formatError: FormatError): OperationExecutor {
  // Apollo's code for a request refused before any resolver ran (variable coercion): the serializer maps it to 422.
  const asUserInputError = (error: GraphQLError): GraphQLFormattedError => {
    const formatted = error.toJSON();
    return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_USER_INPUT' } };
  };
  return {
    prepare(name, document) {
      const [error] = validate(schema, document);
      if (error !== undefined) throw new Error(`operations.graphql: ${name} does not match the schema: ${error.message}`);
    },
    async run(document, operationName, variables, context) {
      const result = await execute({ schema, document, operationName, variableValues: variables, contextValue: context });
      const beforeExecution = !('data' in result);
      const errors = (result.errors ?? []).map((error) => formatError(beforeExecution ? asUserInputError(error) : error.toJSON(), error));
      return { data: result.data, errors };
    },
  };
}
