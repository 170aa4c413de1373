import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { GatehouseError, INTERNAL_ERROR, STATUS_BY_CODE, toGraphQLErrorBody, type GraphQLErrorBody } from '../errors.ts';
import { gatehouseErrorOf } from '../gatehouse-error-of.ts';
import { readInputRefusal } from './input-refusals.ts';

/** Refused before any resolver ran: the spec has every validation error name a field, so one naming none gets one. */
const INPUT_FIELDS: ReadonlyMap<unknown, string> = new Map([
  ['GRAPHQL_PARSE_FAILED', 'query'],
  ['GRAPHQL_VALIDATION_FAILED', 'query'],
  ['BAD_USER_INPUT', 'variables'],
]);

/** graphql-js's whole refusal of a document past its validation budget (same-named fields are compared pairwise). */
const VALIDATION_ABORTED = 'Validation aborted.';
const TOO_REPETITIVE = 'The document repeats fields too often to be validated (the same field or fragment selected thousands of times): send a smaller one';

/** A request Apollo cannot run at all (no query, a batch, CSRF prevention, an unselected operation, APQ). */
const REQUEST_FIELDS: ReadonlyMap<unknown, string> = new Map([
  ['BAD_REQUEST', 'request'],
  ['OPERATION_RESOLUTION_FAILURE', 'operationName'],
  ['PERSISTED_QUERY_NOT_SUPPORTED', 'extensions'],
]);

/** Refused input becomes 422 `validation_error` naming the input, never quoting it (input-refusals.ts), as over REST. */
function classifyError(schema: GraphQLSchema, formatted: GraphQLFormattedError, error: unknown): GraphQLErrorBody | undefined {
  const unwrapped = unwrapResolverError(error);
  // A refusal raised before execution keeps its document node, and its GatehouseError as the cause.
  const original = unwrapped instanceof GraphQLError && unwrapped.originalError instanceof GatehouseError ? unwrapped.originalError : unwrapped;
  // Thrown by a plugin before execution (the permission check): Apollo wraps it with no path.
  if (original instanceof GraphQLError && original.originalError instanceof GatehouseError) return toGraphQLErrorBody(original.originalError);
  const refusal = gatehouseErrorOf(original);
  if (refusal !== undefined) return toGraphQLErrorBody(refusal);
  const apolloCode = formatted.extensions?.['code'];
  const inputField = INPUT_FIELDS.get(apolloCode);
  if (inputField !== undefined) {
    if (formatted.message === VALIDATION_ABORTED) return { code: 'validation_error', message: TOO_REPETITIVE, field: inputField };
    const refusal = error instanceof GraphQLError ? readInputRefusal(schema, error) : undefined;
    return { code: 'validation_error', message: formatted.message, field: inputField, ...refusal };
  }
  const requestField = REQUEST_FIELDS.get(apolloCode);
  if (requestField !== undefined) return { code: 'validation_error', message: formatted.message, field: requestField };
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
