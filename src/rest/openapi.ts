import { STATUS_CODES } from 'node:http';
import {
  getNamedType,
  getNullableType,
  GraphQLNonNull,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  typeFromAST,
  valueFromASTUntyped,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type TypeNode,
} from 'graphql';
import { PROTOCOL_STATUS_BY_CODE } from '../http/client-error.ts';
import { IDS_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../domain/pagination.ts';
import { STATUS_BY_CODE } from '../errors.ts';
import { operationRule } from '../graphql/authorize-operation.ts';
import { OPERATION_PERMISSIONS, type OperationRule } from '../auth/operation-permissions.ts';
import { rootFieldAreas } from '../graphql/schema.ts';
import { SERVICE_VERSION } from '../process/version.ts';
import { SCOPE_VARIABLES } from './adapter.ts';
import { AUDIT_STREAM } from './audit-stream.ts';
import { JsonSchemaConverter, scalarSchema, type JsonSchema } from './json-schema.ts';
import type { RestOperation } from './operation.ts';
import { expandRoutes, successStatus, type ExpandedRoute, type HttpMethod } from './routes.ts';
import { madeOnce } from '../made-once.ts';

export type OpenApiMethod = Lowercase<HttpMethod>;

/** `x-itemSchema`: OpenAPI 3.2's `itemSchema` (each event of a `text/event-stream`), an extension in 3.1. */
export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly 'x-itemSchema'?: JsonSchema;
}

export interface OpenApiResponse {
  readonly description: string;
  readonly headers: Record<string, { $ref: string }>;
  readonly content?: Readonly<Record<string, OpenApiMediaType>>;
}

export interface OpenApiOperation {
  readonly operationId: string;
  /** The area: the SDL file of schema/ that defines the operation's root field. */
  readonly tags: readonly [string];
  readonly summary: string;
  readonly description: string;
  /** What the credentials must hold to run it: the permission table's rules of every field it selects. */
  readonly 'x-permissions': readonly string[];
  /** Needed besides `x-permissions` when the operation acts in one tenant (the tenant path, or tenant-bound credentials). */
  readonly 'x-tenant-scope-permissions'?: readonly string[];
  /** Refused to tenant-scoped credentials. */
  readonly 'x-application-level'?: true;
  readonly parameters: JsonSchema[];
  readonly requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  readonly responses: Record<string, OpenApiResponse | { $ref: string }>;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { title: string; version: string; description: string };
  readonly servers: { url: string }[];
  readonly security: Record<string, string[]>[];
  readonly tags: { name: string }[];
  readonly paths: Record<string, Partial<Record<OpenApiMethod, OpenApiOperation>>>;
  readonly components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    headers: Record<string, { description: string; required?: boolean; schema: JsonSchema }>;
    parameters: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

const JSON_TYPE = 'application/json';
const EVERY_RESPONSE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'];

/** `required`: present on every response that references it (API.md: every response, errors included). */
const HEADERS: OpenApiDocument['components']['headers'] = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window for these credentials (per client address without any).', required: true, schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', required: true, schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the current window resets.', required: true, schema: { type: 'integer' } },
  'X-Request-Id': { description: "The request's id: the caller's own `X-Request-Id` when it is sane, else a new one.", required: true, schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer' } },
  'WWW-Authenticate': {
    description: 'How to authenticate: `Bearer realm="gatehouse"` (or the `X-API-Key` header), with `error="invalid_token"` when the Bearer token sent was refused.',
    required: true,
    schema: { type: 'string' },
  },
  'WWW-Authenticate-Insufficient-Scope': {
    description: 'Sent with a 403 when an `Authorization` header was: `Bearer realm="gatehouse", error="insufficient_scope"` (RFC 6750 3.1).',
    schema: { type: 'string' },
  },
  'Retry-After-Key-In-Use': {
    description: 'Sent with a 409 `idempotency_conflict` whose `Idempotency-Key` has a first request still writing: seconds to wait before sending it again.',
    schema: { type: 'integer' },
  },
  'Idempotent-Replayed': {
    description: 'Present when this is the stored response to an earlier request with the same `Idempotency-Key` (a write’s success or refusal).',
    schema: { type: 'string', const: 'true' },
  },
};

/** Every error code with its status: the operations' (STATUS_BY_CODE), and those of requests the HTTP parser refuses. */
const ALL_STATUS_BY_CODE: Readonly<Record<string, number>> = { ...STATUS_BY_CODE, ...PROTOCOL_STATUS_BY_CODE };

/**
 * Answers to a request the HTTP parser refused: the request was never read, so no rate limit counted it (no
 * X-RateLimit-* headers), and the connection closes.
 */
const PROTOCOL_NOTE = 'The request was not read: no rate-limit headers; the connection closes.';

/** The error responses, by status; the codes of each come from ALL_STATUS_BY_CODE. */
const ERROR_RESPONSES: Readonly<Record<number, { name: string; description: string; protocol?: true }>> = {
  401: { name: 'Unauthenticated', description: 'Missing, unknown, revoked or expired credentials.' },
  403: { name: 'Forbidden', description: 'The credentials lack the permission, or aim at another tenant than their own.' },
  404: { name: 'NotFound', description: 'Absent, or in another application or tenant.' },
  408: { name: 'RequestTimeout', description: `The request line and headers did not arrive in time. ${PROTOCOL_NOTE}`, protocol: true },
  409: { name: 'Conflict', description: 'A duplicate, a built-in record that cannot be deleted, the console’s last way to sign in, a tenancy rule, or an `Idempotency-Key` reused for another request or whose first request is still writing (then with `Retry-After`).' },
  413: { name: 'PayloadTooLarge', description: 'The request body is larger than 1 MiB.' },
  415: { name: 'UnsupportedMediaType', description: 'The request body is not `application/json` (an empty body is no body, whatever its `Content-Type`).' },
  422: {
    name: 'ValidationError',
    description: 'An invalid input; `field` names it. (A request that is not well-formed HTTP/1.1 is one too, on `field` `request`, without rate-limit headers: it was not read.)',
  },
  429: { name: 'RateLimited', description: 'Too many requests; retry after `Retry-After` seconds.' },
  431: { name: 'RequestHeaderFieldsTooLarge', description: `The request line and headers exceed 16 KiB (a query string or a header too long). ${PROTOCOL_NOTE}`, protocol: true },
  500: { name: 'InternalError', description: 'An unexpected failure; idempotent calls may be retried with backoff.' },
  503: { name: 'ServiceUnavailable', description: 'The service is overloaded (no database connection came free in time); retry after `Retry-After` seconds.' },
};

const ERROR_BODY: JsonSchema = {
  description: 'Every error response has this body.',
  type: 'object',
  properties: {
    code: { type: 'string', enum: Object.keys(ALL_STATUS_BY_CODE), description: 'Machine-readable error code.' },
    message: { type: 'string', description: 'Human-readable message.' },
    field: { type: 'string', description: 'The offending input, on validation errors (and some conflicts).' },
    details: {
      type: 'array',
      description: 'Structured particulars, e.g. each tenant and kind of data that blocks a change.',
      items: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
    },
  },
  required: ['code', 'message'],
  additionalProperties: false,
};

/** API.md: every list takes `pageSize` (1..100, default 20) and an opaque `cursor`. */
const LIST_PARAMETERS: Readonly<Record<string, { description: string; schema?: JsonSchema }>> = {
  pageSize: { description: 'Records per page.', schema: { minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT } },
  cursor: { description: 'The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident.' },
  ids: { description: 'Only the items of these ids.', schema: { minItems: 1, maxItems: IDS_MAX } },
};

const FORM_NOTES: Readonly<Record<ExpandedRoute['form'], string>> = {
  fixed: '',
  credentials: 'The application, and the tenant if any, are those of the credentials.',
  application: 'Acts on application `appId`; the tenant, if any, is that of the credentials.',
  tenant: 'Acts on tenant `tenantId` of application `appId`, always.',
};

const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const pathParamNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);

/** A write's refusal by its operation is stored under its Idempotency-Key and replayed (withIdempotency). */
const REPLAYED = { 'Idempotent-Replayed': 'Idempotent-Replayed' };

/** Headers an error status carries beyond every response's: each header's name and its component. */
const EXTRA_ERROR_HEADERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '401': { 'WWW-Authenticate': 'WWW-Authenticate' },
  '403': { 'WWW-Authenticate': 'WWW-Authenticate-Insufficient-Scope', ...REPLAYED },
  '404': REPLAYED,
  '409': { 'Retry-After': 'Retry-After-Key-In-Use', ...REPLAYED },
  '422': REPLAYED,
  '429': { 'Retry-After': 'Retry-After' },
  '503': { 'Retry-After': 'Retry-After' },
};
const extraHeaderRefs = (status: string) =>
  Object.fromEntries(Object.entries(EXTRA_ERROR_HEADERS[status] ?? {}).map(([name, component]) => [name, { $ref: `#/components/headers/${component}` }]));

function errorResponses(): Record<string, OpenApiResponse> {
  const responses: Record<string, OpenApiResponse> = {};
  for (const [status, { name, description, protocol }] of Object.entries(ERROR_RESPONSES)) {
    const codes = Object.keys(ALL_STATUS_BY_CODE).filter((code) => String(ALL_STATUS_BY_CODE[code]) === status);
    responses[name] = {
      description: `${description} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
      headers: protocol === true ? headerRefs(['X-Request-Id']) : { ...headerRefs(EVERY_RESPONSE_HEADERS), ...extraHeaderRefs(status) },
      content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/ErrorBody', properties: { code: { enum: codes } } } } },
    };
  }
  return responses;
}

/**
 * Unique operation ids: the operation's name for the first route that runs it; the other routes that run it (the path
 * forms of an owned row, or rows at several scopes) add the scope their path names, then a number if still taken.
 */
function operationIds(routes: readonly { readonly name: string; readonly url: string }[]): string[] {
  const taken = new Set<string>();
  return routes.map((route) => {
    let id = route.name;
    if (taken.has(id)) id += route.url.includes(':tenantId') ? 'InTenant' : 'InApplication';
    for (let n = 2; taken.has(id); n += 1) id = `${id.replace(/\d+$/, '')}${n}`;
    taken.add(id);
    return id;
  });
}

/** Whether an input names records by id (a UUID anywhere in it): a request may name one that is absent. */
function namesRecords(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (isScalarType(named)) return named.name === 'UUID';
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((field) => namesRecords(field.type, seen));
}

/**
 * Which errors a route can answer with: every route can fail authentication, permission, validation and limits
 * (the request's own size and pace among them: 408, 431, before any route is known);
 * 404 when its path or its body names a record (`POST /users` with a `tenantId` that does not exist), and on every
 * DELETE: what it deletes may be absent even when no id names it (a tenant's key removing an override it lacks).
 */
function errorStatuses(route: ExpandedRoute, body: GraphQLInputType | undefined): number[] {
  return [
    401,
    403,
    ...(route.method === 'DELETE' || pathParamNames(route.url).length > 0 || (body !== undefined && namesRecords(body)) ? [404] : []),
    408,
    ...(route.method === 'GET' ? [] : [409]),
    // Every write reads a body, whether its operation takes one or not (a route without input refuses a JSON one with
    // 422): one over 1 MiB is 413, one that is not JSON 415 (an empty one is none). A GET's body is not read.
    ...(route.method === 'GET' ? [] : [413, 415]),
    422,
    429,
    431,
    500,
    503,
  ];
}

class DocumentBuilder {
  private readonly schema: GraphQLSchema;
  private readonly converter: JsonSchemaConverter;
  private readonly areas = rootFieldAreas();

  constructor(schema: GraphQLSchema, fragments: ReadonlyMap<string, FragmentDefinitionNode>) {
    this.schema = schema;
    this.converter = new JsonSchemaConverter(schema, fragments);
  }

  get schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.converter.components].sort(([a], [b]) => a.localeCompare(b)));
  }

  private variableType(operation: RestOperation, name: string): GraphQLInputType {
    const node = operation.variables.get(name) as TypeNode;
    const type = typeFromAST(this.schema, node as never);
    if (type === undefined || !isInputType(type)) throw new Error(`${operation.name}: $${name} has no input type in the schema`);
    return type;
  }

  /** The root field's argument bound to `$name`, whose SDL description documents the parameter. */
  private argumentDescription(operation: RestOperation, name: string): string | undefined {
    const root = operation.definition.selectionSet.selections[0] as FieldNode;
    const argument = root.arguments?.find((arg) => arg.value.kind === Kind.VARIABLE && arg.value.name.value === name);
    const rootType = this.schema.getRootType(operation.definition.operation);
    const definition = rootType?.getFields()[root.name.value]?.args.find((arg) => arg.name === argument?.name.value);
    return definition?.description ?? undefined;
  }

  private parameter(operation: RestOperation, name: string, location: 'path' | 'query'): JsonSchema {
    const type = this.variableType(operation, name);
    const definition = operation.definition.variableDefinitions?.find((v) => v.variable.name.value === name);
    // A query string cannot carry null: an absent parameter is the variable's null.
    let schema = this.converter.input(isNonNullType(type) ? type : new GraphQLNonNull(type));
    if (definition?.defaultValue !== undefined) schema = { ...schema, default: valueFromASTUntyped(definition.defaultValue) };
    const convention = LIST_PARAMETERS[name];
    if (convention?.schema !== undefined) schema = { ...schema, ...convention.schema };
    const description = this.argumentDescription(operation, name) ?? convention?.description;
    const required = location === 'path' || (isNonNullType(type) && definition?.defaultValue === undefined);
    // As the adapter reads a list: comma-separated, one parameter.
    const style = isListType(getNullableType(type)) ? { style: 'form', explode: false } : {};
    return { name, in: location, required, ...(description === undefined ? {} : { description }), ...style, schema };
  }

  operation(route: ExpandedRoute, operationId: string): OpenApiOperation {
    const { operation } = route;
    const pathParams = pathParamNames(route.url);
    // As the adapter reads them: the rest of the variables but the body and the scope.
    const queryParams = [...operation.variables.keys()].filter((name) => name !== 'input' && !pathParams.includes(name) && !SCOPE_VARIABLES.has(name));
    const parameters = [
      ...pathParams.map((name) => this.parameter(operation, name, 'path')),
      ...queryParams.map((name) => this.parameter(operation, name, 'query')),
      ...(route.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
    ];
    const body = operation.variables.has('input') ? this.variableType(operation, 'input') : undefined;
    const status = successStatus(route);
    const root = operation.definition.selectionSet.selections[0] as FieldNode;
    const rootType = this.schema.getRootType(operation.definition.operation);
    const rootField = rootType?.getFields()[root.name.value];
    const area = this.areas.get(`${rootType?.name}.${root.name.value}`);
    if (rootField === undefined || area === undefined) throw new Error(`${operation.name}: no root field ${root.name.value} in schema/`);
    const success: OpenApiResponse = {
      description: STATUS_CODES[status] ?? String(status),
      headers: headerRefs(route.idempotent ? [...EVERY_RESPONSE_HEADERS, 'Idempotent-Replayed'] : EVERY_RESPONSE_HEADERS),
      ...(status === 204 ? {} : { content: { [JSON_TYPE]: { schema: this.converter.output(rootField.type, root.selectionSet) } } }),
    };
    const responses: OpenApiOperation['responses'] = { [String(status)]: success };
    for (const error of errorStatuses(route, body)) {
      responses[String(error)] = { $ref: `#/components/responses/${ERROR_RESPONSES[error]?.name}` };
    }
    return {
      operationId,
      tags: [area],
      summary: route.summary,
      description: [rootField.description ?? '', FORM_NOTES[route.form]].filter((text) => text !== '').join('\n\n'),
      ...ruleExtensions(operationRule(this.schema, operation.document, operation.definition)),
      parameters,
      // Required where the operation's input is (`Input!`); an optional one (a rotation's, a preview's) may be left out.
      ...(body === undefined ? {} : { requestBody: { required: isNonNullType(body), content: { [JSON_TYPE]: { schema: this.converter.input(body) } } } }),
      responses,
    };
  }
}

function ruleExtensions(rule: OperationRule): Pick<OpenApiOperation, 'x-permissions' | 'x-tenant-scope-permissions' | 'x-application-level'> {
  return {
    'x-permissions': rule.permissions,
    ...(rule.tenantScope === undefined ? {} : { 'x-tenant-scope-permissions': rule.tenantScope }),
    ...(rule.applicationLevel === true ? { 'x-application-level': true } : {}),
  };
}

/** A JSON text in an event's `data:`. */
const jsonData = (schema: JsonSchema): JsonSchema => ({ type: 'string', contentMediaType: JSON_TYPE, contentSchema: schema });

/**
 * A path of the audit stream (src/rest/audit-stream.ts, outside the table: it holds its connection), from `list`, the
 * operation of the list at the same path less `/stream`: its tag, path ids, filters, record and refusals, with the
 * stream's own rule, words and `Last-Event-ID`.
 */
function auditStreamOperation(list: OpenApiOperation, form: ExpandedRoute['form'], operationId: string): OpenApiOperation {
  const { 200: page, ...errors } = list.responses;
  const record = (page as OpenApiResponse | undefined)?.content?.[JSON_TYPE]?.schema['properties'] as { data?: { items?: JsonSchema } } | undefined;
  const parameter = (name: string) => {
    const found = list.parameters.find((each) => each['name'] === name);
    if (found === undefined) throw new Error(`${list.operationId} has no parameter ${name} for the audit stream`);
    return found;
  };
  if (page === undefined || '$ref' in page || record?.data?.items === undefined) throw new Error(`${list.operationId}: no page of records for the audit stream`);
  const pathIds = list.parameters.filter((each) => each['in'] === 'path').map((each) => each['name'] as string);
  return {
    operationId,
    tags: list.tags,
    summary: AUDIT_STREAM.summary,
    description: [AUDIT_STREAM.description, FORM_NOTES[form]].filter((text) => text !== '').join('\n\n'),
    ...ruleExtensions(OPERATION_PERMISSIONS[AUDIT_STREAM.coordinate]),
    parameters: [
      ...pathIds.map(parameter),
      ...AUDIT_STREAM.filters.map(parameter),
      ...AUDIT_STREAM.resumption.map((name) => ({ name, in: 'query', required: false, description: AUDIT_STREAM[name], schema: scalarSchema(name === 'after' ? 'UUID' : 'String') })),
      { name: 'Last-Event-ID', in: 'header', required: false, description: AUDIT_STREAM.lastEventId, schema: { type: 'string' } },
    ],
    responses: {
      200: {
        description: 'The stream: `event: audit` per record, `: heartbeat` comments, `event: end` once a `to` is reached.',
        headers: page.headers,
        content: {
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-Sent Events; each event is described by `x-itemSchema`.' },
            'x-itemSchema': {
              oneOf: [
                {
                  description: 'A record.',
                  type: 'object',
                  properties: { event: { const: 'audit' }, id: { type: 'string', description: 'The record’s id.' }, data: jsonData(record.data.items) },
                  required: ['event', 'id', 'data'],
                },
                {
                  description: 'Every record before `to` was sent: the stream ends.',
                  type: 'object',
                  properties: { event: { const: 'end' }, data: jsonData({ type: 'object', properties: { to: parameter('to')['schema'] }, required: ['to'] }) },
                  required: ['event', 'data'],
                },
              ],
            },
          },
        },
      },
      ...errors,
    },
  };
}

/** Per schema and public URL, the document served as JSON text, made once however many servers a process starts. */
const served = new WeakMap<GraphQLSchema, Map<string, string>>();

export function servedOpenApiJson(schema: GraphQLSchema, publicUrl: string): string {
  const byUrl = madeOnce(served, schema, () => new Map<string, string>());
  return madeOnce(byUrl, publicUrl, () => JSON.stringify(buildOpenApiDocument(schema, publicUrl)));
}

/** The OpenAPI 3.1 document of /api/v1, derived from the route table, its operations and the GraphQL schema. */
export function buildOpenApiDocument(schema: GraphQLSchema, publicUrl: string, routes: readonly ExpandedRoute[] = expandRoutes()): OpenApiDocument {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of routes.flatMap((route) => route.operation.document.definitions)) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const builder = new DocumentBuilder(schema, fragments);
  const ids = operationIds([
    ...routes.map((route) => ({ name: route.operation.name, url: route.url })),
    ...AUDIT_STREAM.paths.map((url) => ({ name: AUDIT_STREAM.operationId, url })),
  ]);
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  const add = (url: string, method: OpenApiMethod, operation: OpenApiOperation) => {
    const path = url.replace(/:(\w+)/g, '{$1}');
    tags.add(operation.tags[0]);
    paths[path] = { ...paths[path], [method]: operation };
  };
  const built = routes.map((route, index) => builder.operation(route, ids[index] as string));
  routes.forEach((route, index) => add(route.url, route.method.toLowerCase() as OpenApiMethod, built[index] as OpenApiOperation));
  AUDIT_STREAM.paths.forEach((url, index) => {
    const listAt = routes.findIndex((route) => route.method === 'GET' && `${route.url}/stream` === url);
    const list = routes[listAt];
    if (list === undefined || `Query.${list.operation.rootField}` !== AUDIT_STREAM.coordinate) {
      throw new Error(`${url}: no list of ${AUDIT_STREAM.coordinate} at its path less /stream`);
    }
    add(url, 'get', auditStreamOperation(built[listAt] as OpenApiOperation, list.form, ids[routes.length + index] as string));
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse management API',
      version: SERVICE_VERSION,
      description:
        'Every route is also a GraphQL operation at `/graphql`. Lists take `pageSize` and `cursor` and return `{data, next}`; cursors are opaque. ' +
        'Every id is a UUIDv7: any other value in a path, query or body (another UUID version or the nil UUID too) is 422 `validation_error` with `field` naming it.',
    },
    servers: [{ url: `${publicUrl}/api/v1` }],
    // Either credential alone, or both: the API key authenticates and the token narrows it to a user.
    security: [{ apiKey: [] }, { bearer: [] }, { apiKey: [], bearer: [] }, { bearer: [], operator: [] }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY, ...builder.schemas },
      responses: errorResponses(),
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`.',
          schema: { type: 'string', format: 'uuid' },
        },
      },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A management API key, scoped to one application and optionally one tenant.' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "An access token of this service's issuer, acting as its user." },
        operator: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Gatehouse-Application',
          description: 'Beside the Bearer token of a user of the organization’s console application (an operator): the id of the application it acts on, with the roles that application gives the operator.',
        },
      },
    },
  };
}
