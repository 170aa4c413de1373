import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { isNonNullType, Kind, typeFromAST, type GraphQLInputType, type GraphQLSchema, type TypeNode } from 'graphql';
import { retryAfterOf, sayWhenToRetry } from '../http/retry-after.ts';
import { inChildSpan } from '../observability/spans.ts';
import type { RequestContext } from '../context.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, pathTenant } from '../graphql/authorize-operation.ts';
import { isName } from '../graphql/input-refusals.ts';
import type { OperationExecutor, PreparedOperation } from '../graphql/operation-executor.ts';
import { GatehouseError, invalid, STATUS_BY_CODE, type ErrorBody, type ErrorCode } from '../errors.ts';
import { canonicalUuid, parseIdempotencyKey, REPLAYED_HEADER, requestFingerprint, withIdempotency, type StoredResponse } from '../http/idempotency.ts';
import { expandRoutes, successStatus, type ExpandedRoute, type HttpMethod } from './routes.ts';
import type { CachedJson, ReadCache } from './read-cache.ts';
import { listShapeRefusal } from './strict-lists.ts';
import { unroutedMessage } from '../http/unrouted.ts';

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

const listType = (type: TypeNode): boolean => type.kind === Kind.LIST_TYPE || (type.kind === Kind.NON_NULL_TYPE && listType(type.type));

/** A list is comma-separated (OpenAPI `style: form, explode: false`), since a repeated parameter is refused. */
function coerceQueryValue(type: TypeNode, raw: string): unknown {
  if (listType(type)) return raw === '' ? [] : raw.split(',').map((item) => coerceScalar(type, item));
  return coerceScalar(type, raw);
}

function coerceScalar(type: TypeNode, raw: string): unknown {
  switch (namedType(type)) {
    case 'Int':
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case 'Boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}

/** Named by the path or the credentials, never the query. */
export const SCOPE_VARIABLES: ReadonlySet<string> = new Set(['appId', 'tenantId']);

/** Quoted as JSON, so an empty name or one holding quotes reads unambiguously; `field` is `query` when not a name. */
function unknownQueryParameter(name: string): GatehouseError {
  return invalid(isName(name) ? name : 'query', `Unknown query parameter ${JSON.stringify(name)}`);
}

function variablesFor(route: ExpandedRoute, inputType: GraphQLInputType | undefined, request: FastifyRequest): Record<string, unknown> {
  const { operation } = route;
  const variables: Record<string, unknown> = { ...(request.params as Record<string, string>) };
  const query = request.query as Record<string, string | string[]>;
  for (const [name, value] of Object.entries(query)) {
    const type = operation.variables.get(name);
    const pathOnly = name in variables || SCOPE_VARIABLES.has(name);
    if (type === undefined || name === 'input' || pathOnly) throw unknownQueryParameter(name);
    if (typeof value !== 'string') throw invalid(name, `${name} may be given once`);
    variables[name] = coerceQueryValue(type, value);
  }
  const body = request.body;
  if (inputType !== undefined) {
    const refusal = listShapeRefusal(inputType, body, ['input']);
    if (refusal !== undefined) throw invalid(refusal.field ?? 'body', refusal.message);
    // A body left out is an optional input's `{}`; a required one is refused by coercion, as on /graphql.
    variables['input'] = body ?? (isNonNullType(inputType) ? body : {});
  } else if (body !== undefined && body !== null && !(typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0)) {
    throw invalid('body', `${route.method} ${route.url} takes no request body`);
  }
  return variables;
}

/** The body is the operation's `input` argument: a refusal of it as a whole is named as a malformed body is. */
const restFieldName = (field: string): string => (field === 'input' ? 'body' : field);

function errorResponse(extensions: Record<string, unknown> | undefined, message: string): StoredResponse {
  const code = (extensions?.['code'] as ErrorCode | undefined) ?? 'internal_error';
  const body: ErrorBody = { code, message };
  if (typeof extensions?.['field'] === 'string') body.field = restFieldName(extensions['field']);
  if (Array.isArray(extensions?.['details'])) body.details = extensions['details'] as ErrorBody['details'];
  return { status: STATUS_BY_CODE[code] ?? 500, body, retryAfterSeconds: retryAfterOf(extensions) };
}

/**
 * "The same request" for an Idempotency-Key: the route's row, the scope its path form resolves to and the other
 * variables, not the bytes (an optional body left out and `{}` are one). The credentials' own scope adds nothing, so
 * every path form of it fingerprints as `/users` does.
 */
export function restFingerprint(route: ExpandedRoute, variables: Record<string, unknown>, principal: Principal): string {
  if (!route.owned) return requestFingerprint(route.method, route.url, variables);
  const { appId, tenantId, ...others } = variables;
  const application = typeof appId === 'string' ? canonicalUuid(appId) : principal.applicationId;
  const tenant = typeof tenantId === 'string' ? canonicalUuid(tenantId) : principal.tenantId;
  const own = application === principal.applicationId && tenant === principal.tenantId;
  return requestFingerprint(route.method, route.path, own ? others : { ...others, appId: application, tenantId: tenant });
}

export interface RestAdapterDeps {
  schema: GraphQLSchema;
  operations: OperationExecutor;
  contextFor(request: FastifyRequest): Promise<RequestContext>;
  readCache: ReadCache;
}

/** Plus 405 answers for the methods a path does not have. */
export function registerRestRoutes(app: FastifyInstance, deps: RestAdapterDeps): void {
  const routes = expandRoutes();
  // Once per operation, however many path forms serve it.
  const prepared = new Map<string, PreparedOperation>();
  for (const { operation } of routes) {
    if (!prepared.has(operation.name)) prepared.set(operation.name, deps.operations.prepare(operation.name, operation.document));
  }
  const methodsByUrl = new Map<string, Set<HttpMethod>>();
  for (const route of routes) {
    const { operation } = route;
    const runnable = prepared.get(operation.name)!;
    const inputNode = operation.variables.get('input');
    const inputType = inputNode === undefined ? undefined : (typeFromAST(deps.schema, inputNode) as GraphQLInputType | undefined);
    methodsByUrl.set(route.url, (methodsByUrl.get(route.url) ?? new Set()).add(route.method));

    app.route({
      method: route.method,
      url: `/api/v1${route.url}`,
      config: { authenticated: true, operation: operation.name },
      preParsing: refuseEmptyParameters,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const context = await deps.contextFor(request);
        // The permission table first: a caller who may not run the operation is refused before its body is read in depth.
        await authorize(context.principal, runnable.rule, [pathTenant((request.params as Record<string, string>)['tenantId'])]);
        const idempotencyKey = route.idempotent ? parseIdempotencyKey(request.headers['idempotency-key']) : undefined;
        const variables = variablesFor(route, inputType, request);
        const execute = async (operationContext = context): Promise<StoredResponse> => {
          const { data, errors } = await inChildSpan(`operation ${operation.name}`, () => runnable.run(variables, operationContext));
          const [error] = errors;
          if (error !== undefined) return errorResponse(error.extensions, error.message);
          const status = successStatus(route);
          return { status, body: status === 204 ? undefined : data?.[operation.rootField] };
        };
        const { reads } = route;
        if (reads !== undefined) {
          return sendAnswer(reply, await deps.readCache.answer(reads, operation.name, context.principal, variables, execute));
        }
        const result =
          idempotencyKey === undefined
            ? { ...(await execute()), replayed: false }
            : await withIdempotency(
                context,
                idempotencyKey,
                restFingerprint(route, variables, context.principal),
                execute,
              );
        if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
        return sendAnswer(reply, result);
      },
    });
  }
  for (const [url, methods] of methodsByUrl) refuseOtherMethods(app, `/api/v1${url}`, [...methods], { management: true });
}

function sendAnswer(reply: FastifyReply, answer: StoredResponse | CachedJson): FastifyReply {
  reply.status(answer.status);
  // An operation's own 429 (a render under way, the hour's test mails spent), or 503.
  sayWhenToRetry(reply, answer.status, 'retryAfterSeconds' in answer ? answer.retryAfterSeconds : undefined);
  if ('json' in answer) return reply.type('application/json; charset=utf-8').send(answer.json);
  return answer.body === undefined ? reply.send() : reply.send(answer.body);
}

/**
 * The router fills a parameter with an empty segment (`/users/`, `/users//sessions`): that is a path no route takes,
 * answered as the 404 handler does, after the rate limit counted it, and before the body is read.
 */
export async function refuseEmptyParameters(request: FastifyRequest): Promise<void> {
  if (Object.values(request.params as Record<string, string>).includes('')) {
    throw new GatehouseError('not_found', unroutedMessage(request.method, request.url));
  }
}

/** QUERY of RFC 10008 and TRACE included. */
const ANSWERABLE_METHODS: readonly HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY', 'TRACE'];

/**
 * 405 with `Allow` (the router alone would answer 404). Refused before the body is read: Fastify's own check of a
 * QUERY's Content-Type, which runs with body parsing, would otherwise answer first (a 500). On a management path the
 * credentials sent choose the rate limit's bucket, as on its routes.
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, methods: readonly HTTPMethods[], { management }: { management: boolean }): void {
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
  const allow = allowed.join(', ');
  const others = ANSWERABLE_METHODS.filter((method) => !allowed.includes(method));
  if (others.length === 0) return;
  app.route({
    method: others,
    url,
    config: { countsCredentials: management },
    preParsing: async (request, reply) => {
      await refuseEmptyParameters(request);
      reply.header('allow', allow);
      throw new GatehouseError('method_not_allowed', `Allowed methods: ${allow}`);
    },
    handler: async () => {
      throw new Error('refused before its body is read');
    },
  });
}
