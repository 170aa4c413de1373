import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { GatehouseError, INTERNAL_ERROR, STATUS_BY_CODE, toErrorBody, type ErrorBody } from '../errors.ts';

/**
 * The GraphQL serializer of errors: every error leaves with `extensions.code`, `status` and, where known,
 * `field` and `details`. Variable-coercion failures (a malformed UUID, an unknown enum value or input field) become
 * 422 `validation_error` naming the offending input, so REST and GraphQL read the same.
 */
export function classifyError(formatted: GraphQLFormattedError, error: unknown): ErrorBody | undefined {
  const original = unwrapResolverError(error);
  if (original instanceof GatehouseError) return toErrorBody(original);
  const apolloCode = formatted.extensions?.['code'];
  if (apolloCode === 'BAD_USER_INPUT' || apolloCode === 'GRAPHQL_VALIDATION_FAILED' || apolloCode === 'GRAPHQL_PARSE_FAILED') {
    const body: ErrorBody = { code: 'validation_error', message: formatted.message };
    const field = fieldOf(formatted.message);
    if (field !== undefined) body.field = field;
    return body;
  }
  if (apolloCode === 'BAD_REQUEST' || apolloCode === 'OPERATION_RESOLUTION_FAILURE' || apolloCode === 'PERSISTED_QUERY_NOT_SUPPORTED') {
    return { code: 'validation_error', message: formatted.message };
  }
  return undefined;
}

/**
 * The input a coercion message is about: `Variable "$input" got invalid value … at "input.a.b"; Field "c" is not
 * defined…` → `a.b.c`. The variable of a REST body is `input`, which a REST client never sees, so it is dropped.
 */
export function fieldOf(message: string): string | undefined {
  const variable = /^Variable "\$([\w]+)"/.exec(message)?.[1];
  if (variable === undefined) return undefined;
  const at = / at "([\w.[\]]+)"/.exec(message)?.[1];
  const inner = /Field "([\w]+)" (?:is not defined|of required type)/.exec(message)?.[1];
  const segments = (at ?? variable).split('.');
  if (inner !== undefined) segments.push(inner);
  if (segments[0] === 'input' && segments.length > 1) segments.shift();
  return segments.join('.');
}

export function formatError(log: (error: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const body = classifyError(formatted, error);
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
