import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { refusalOfDatabase } from '../domain/db-errors.ts';
import { GatehouseError, INTERNAL_ERROR, STATUS_BY_CODE, toGraphQLErrorBody, type GraphQLErrorBody } from '../errors.ts';
import { readInputRefusal } from './input-refusals.ts';

/** Client input refused before any resolver ran. */
const INPUT_CODES: ReadonlySet<unknown> = new Set(['BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED']);

/** A request Apollo cannot run at all: no query, a batch, CSRF prevention, an unselected operation, APQ. */
const REQUEST_CODES: ReadonlySet<unknown> = new Set(['BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE', 'PERSISTED_QUERY_NOT_SUPPORTED']);

/** Refused input becomes 422 `validation_error` naming the input, never quoting it (input-refusals.ts), as over REST. */
function classifyError(schema: GraphQLSchema, formatted: GraphQLFormattedError, error: unknown): GraphQLErrorBody | undefined {
  const unwrapped = unwrapResolverError(error);
  // A refusal raised before execution keeps its document node, and its GatehouseError as the cause.
  const original = unwrapped instanceof GraphQLError && unwrapped.originalError instanceof GatehouseError ? unwrapped.originalError : unwrapped;
  if (original instanceof GatehouseError) return toGraphQLErrorBody(original);
  // Thrown by a plugin before execution (the permission check): Apollo wraps it with no path.
  if (original instanceof GraphQLError && original.originalError instanceof GatehouseError) return toGraphQLErrorBody(original.originalError);
  const refusal = refusalOfDatabase(original);
  if (refusal !== undefined) return toGraphQLErrorBody(refusal);
  const apolloCode = formatted.extensions?.['code'];
  if (INPUT_CODES.has(apolloCode)) {
    const refusal = error instanceof GraphQLError ? readInputRefusal(schema, error) : undefined;
    return { code: 'validation_error', message: formatted.message, ...refusal };
  }
  if (REQUEST_CODES.has(apolloCode)) return { code: 'validation_error', message: formatted.message };
  return undefined;
}

export function formatError(schema: GraphQLSchema, log: (error: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const body = classifyError(schema, formatted, error);
    if (body === undefined) {
      log(unwrapResolverError(error));
      const { code, message } = INTERNAL_ERROR;
      return { message, path: formatted.path, extensions: { code, status: STATUS_BY_CODE.internal_error } };
    }
    const { code, message, ...rest } = body;
    return {
      message,
      ...(formatted.locations === undefined ? {} : { locations: formatted.locations }),
      ...(formatted.path === undefined ? {} : { path: formatted.path }),
      extensions: { code, status: STATUS_BY_CODE[code], ...rest },
    };
  };
}
