import { HeaderMap } from '@apollo/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getOperationAST, Kind, OperationTypeNode, print, visit, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../context.ts';
import type { GraphQLServer } from './apollo.ts';
import { GatehouseError, invalid, STATUS_BY_CODE, toGraphQLErrorBody, type GraphQLErrorBody } from '../errors.ts';
import { inlineHashes } from '../http/html-security.ts';
import { isName } from './input-refusals.ts';
import { canonicalUuid, parseIdempotencyKey, REPLAYED_HEADER, requestFingerprint, withIdempotency } from '../http/idempotency.ts';
import { READS_ASKED_BY_POST } from '../http/reads-asked-by-post.ts';
import { sendGraphQLAnswer, type GraphQLResponseBody } from './http-media.ts';
import { parseClientDocument } from './operation-limits.ts';
import type { subscriptionRunner } from './subscriptions.ts';
import type { graphqlWebSocket } from './websocket.ts';

type RunSubscription = ReturnType<typeof subscriptionRunner>;

/**
 * `POST` runs an operation through Apollo or, asked as `text/event-stream`, a subscription (subscriptions.ts); `GET`
 * serves GraphiQL, and its WebSocket upgrade subscriptions (websocket.ts).
 */
export function registerGraphQLEndpoint(
  app: FastifyInstance,
  apollo: GraphQLServer,
  contextFor: (request: FastifyRequest) => Promise<RequestContext>,
  runSubscription: RunSubscription,
  webSocket: ReturnType<typeof graphqlWebSocket>,
): void {
  // About 45 MB resident once loaded: loaded when first asked for.
  let graphiql: Promise<Playground> | undefined;
  app.route({
    method: 'GET',
    url: '/graphql',
    preHandler: webSocket.preHandler,
    wsHandler: webSocket.wsHandler,
    handler: async (request, reply) => {
      // A client sending its query over GET would get the page's HTML with a 200, and fail on it without a word. A
      // browser asks for HTML: GraphiQL keeps the query in its own URL, which a reload sends back.
      if (!asksForHtml(request) && OPERATION_PARAMETERS.some((name) => name in (request.query as Record<string, unknown>))) {
        reply.header('allow', 'POST');
        throw new GatehouseError('method_not_allowed', 'GraphQL operations are sent with POST; GET /graphql serves GraphiQL to a browser');
      }
      const { html, policy } = await (graphiql ??= renderPlayground());
      return reply.type('text/html; charset=utf-8').header('content-security-policy', policy).send(html);
    },
  });
  app.post('/graphql', { config: { authenticated: true } }, async (request, reply) => handleGraphQL(apollo, contextFor, runSubscription, request, reply));
}

const asksForHtml = (request: FastifyRequest) => /\btext\/html\b/i.test(request.headers.accept ?? '');

/** GraphQL over HTTP's parameters of a GET request. */
const OPERATION_PARAMETERS = ['query', 'operationName', 'variables', 'extensions'];

/** As format-error.ts does. */
export function graphqlErrors({ code, message, ...rest }: GraphQLErrorBody) {
  return { errors: [{ message, extensions: { code, status: STATUS_BY_CODE[code], ...rest } }] };
}

interface Playground {
  readonly html: string;
  readonly policy: string;
}

/** Its own inline scripts by hash and nothing else, images and fonts from data: URLs, requests to this origin only. */
async function renderPlayground(): Promise<Playground> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL({ endpoint: '/graphql', title: 'Gatehouse GraphQL' });
  const policy = [
    "default-src 'none'",
    `script-src ${inlineHashes(html, 'script').join(' ')}`,
    // Monaco makes workers from blobs and inserts style sheets as it goes: styles run nothing, so any inline one may apply.
    'worker-src blob:',
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { html, policy };
}

/**
 * So HTTP clients and proxies see failures as failures; a partial result stays 200, as GraphQL requires. Read from the
 * body, so it also covers requests Apollo refuses before its pipeline (answered 400, a status the contract lacks).
 */
function statusOfFailure({ data, errors }: GraphQLResponseBody): number | undefined {
  const status = errors?.[0]?.extensions?.status;
  return data == null && typeof status === 'number' ? status : undefined;
}

interface GraphQLRequestBody {
  readonly query?: string;
  readonly operationName?: string | null;
  readonly variables?: Record<string, unknown> | null;
  readonly extensions?: unknown;
}

const isMap = (value: unknown) => value === null || (typeof value === 'object' && !Array.isArray(value));

/** GraphQL over HTTP: the POST body. */
const REQUEST_MEMBERS: Readonly<Record<string, { readonly is: (value: unknown) => boolean; readonly shape: string }>> = {
  query: { is: (value) => typeof value === 'string', shape: 'a string' },
  operationName: { is: (value) => value === null || typeof value === 'string', shape: 'a string or null' },
  variables: { is: isMap, shape: 'a JSON object or null' },
  extensions: { is: isMap, shape: 'a JSON object or null' },
};

/**
 * Refused here with the member as `field` (Apollo's refusals name none), so Apollo only answers well-formed requests
 * (http-media.ts).
 */
function refuseMalformedRequest(body: unknown): GraphQLRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'POST /graphql takes one JSON object: {"query": "…", "variables": {…}}');
  for (const [name, value] of Object.entries(body)) {
    const member = Object.hasOwn(REQUEST_MEMBERS, name) ? REQUEST_MEMBERS[name] : undefined;
    if (member === undefined) throw invalid(isName(name) ? name : 'body', `Unknown request member ${JSON.stringify(name)}: POST /graphql takes ${Object.keys(REQUEST_MEMBERS).join(', ')}`);
    if (!member.is(value)) throw invalid(name, `${name} must be ${member.shape}`);
  }
  if (!('query' in body)) throw invalid('query', 'query is required: the document itself (persisted queries are not offered)');
  return body as GraphQLRequestBody;
}

/** Under the client document limits first: one nested too deep is refused before Apollo's recursive parser exhausts the stack. */
function clientOperation(body: GraphQLRequestBody): { document: DocumentNode; operation: OperationDefinitionNode } | undefined {
  if (typeof body.query !== 'string') return undefined;
  let document: DocumentNode;
  try {
    document = parseClientDocument(body.query);
  } catch (error) {
    if (error instanceof GatehouseError) throw error;
    return undefined;
  }
  const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
  const operation = getOperationAST(document, operationName);
  return operation === null || operation === undefined ? undefined : { document, operation };
}

const acceptsEventStream = (request: FastifyRequest) => /\btext\/event-stream\b/i.test(request.headers.accept ?? '');

/** Every root field one of the mutations that only read (fragments are not followed: such a request stays keyed). */
const onlyReads = (operation: OperationDefinitionNode): boolean =>
  operation.selectionSet.selections.every((selection) => selection.kind === Kind.FIELD && READS_ASKED_BY_POST.has(selection.name.value));

/** What Apollo runs, not how it was written (a null member and `{}` count as absent); another is another request (409). */
function graphqlFingerprint(document: DocumentNode, { operationName, variables, extensions }: GraphQLRequestBody): string {
  const canonical = visit(document, { StringValue: (node) => ({ ...node, value: canonicalUuid(node.value) }) });
  return requestFingerprint('graphql', print(canonical), operationName ?? null, variables ?? {}, extensions ?? {});
}

async function handleGraphQL(
  apollo: GraphQLServer,
  contextFor: (request: FastifyRequest) => Promise<RequestContext>,
  runSubscription: RunSubscription,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let context: RequestContext;
  let idempotency: { key: string; fingerprint: string } | undefined;
  try {
    context = await contextFor(request);
    // Apollo's words for it depend on the Content-Type (a CSRF refusal for a form's).
    if (request.body === undefined) throw invalid('body', 'POST /graphql takes a JSON body: {"query": "…", "variables": {…}}');
    const body = refuseMalformedRequest(request.body);
    const chosen = clientOperation(body);
    const kind = chosen?.operation.operation;
    if (chosen !== undefined && kind === OperationTypeNode.SUBSCRIPTION) {
      if (!acceptsEventStream(request)) throw invalid('query', 'A subscription is answered as Server-Sent Events: send it with Accept: text/event-stream');
      const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
      const refused = await runSubscription(context, reply, chosen.document, operationName, body.variables ?? {});
      return refused === undefined ? reply : sendGraphQLAnswer(request, reply, { status: refused.status, body: refused.body, fromGraphQL: true });
    }
    // Reads are not keyed, as over REST (GET): a query's answer replayed for a day would be stale, and so would a
    // mutation's that only reads (an introspection, a check).
    // Replayed only to a request the permission table admits now: Apollo's gate checks only as it runs the operation.
    // One refused runs unkeyed, for Apollo to refuse in its own words, its key unread (as over REST: 403 before 422).
    if (chosen !== undefined && kind === OperationTypeNode.MUTATION && !onlyReads(chosen.operation) && request.headers['idempotency-key'] !== undefined) {
      const { principal } = context;
      const { document, operation } = chosen;
      if (await passes(() => apollo.checkOperation(principal, document, operation, body.variables ?? {}))) {
        const key = parseIdempotencyKey(request.headers['idempotency-key']);
        if (key !== undefined) idempotency = { key, fingerprint: graphqlFingerprint(document, body) };
      }
    }
  } catch (error) {
    if (!(error instanceof GatehouseError)) throw error;
    return sendGraphQLAnswer(request, reply, { status: error.status, body: graphqlErrors(toGraphQLErrorBody(error)), fromGraphQL: false });
  }
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  // The media type is chosen by sendGraphQLAnswer.
  headers.set('accept', 'application/json');
  const execute = async (operationContext: RequestContext) => {
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: request.method, headers, search: '', body: request.body },
      context: async () => operationContext,
    });
    if (response.body.kind !== 'complete') throw new Error('incremental delivery is not enabled');
    const body = JSON.parse(response.body.string) as GraphQLResponseBody;
    return { status: statusOfFailure(body) ?? response.status ?? 200, body };
  };
  const result =
    idempotency === undefined
      ? { ...(await execute(context)), replayed: false }
      : await withIdempotency(context, idempotency.key, idempotency.fingerprint, execute);
  if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
  return sendGraphQLAnswer(request, reply, { status: result.status, body: result.body as GraphQLResponseBody, fromGraphQL: true });
}

/** False on 403, any other failure thrown. */
async function passes(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch (error) {
    if (error instanceof GatehouseError) return false;
    throw error;
  }
}
