// JSON in, errors out as JSON: the API's body parsers, and its error handler, the one serializer of a refusal outside GraphQL.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { GatehouseError, INTERNAL_ERROR, STATUS_BY_CODE, toErrorBody, toGraphQLErrorBody, type ErrorBody } from '../errors.ts';
import { gatehouseErrorOf } from '../gatehouse-error-of.ts';
import { graphqlErrors } from '../graphql/http-endpoint.ts';
import { sendGraphQLAnswer } from '../graphql/http-media.ts';
import { parseJsonBody } from './json-body.ts';
import { sayWhenToRetry } from './retry-after.ts';
import { unroutedMessage } from './unrouted.ts';

const NOT_JSON = 'Request bodies must be application/json';

/** An empty body is no body, whatever its Content-Type. Anything else is 415. */
export function registerJsonErrors(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const coding = contentCoding(request);
    if (coding !== undefined && (body as Buffer).length > 0) {
      return done(new GatehouseError('unsupported_media_type', `Content-Encoding ${coding} is not supported: send the JSON body uncompressed`), undefined);
    }
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as GatehouseError, undefined);
    }
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    readNoBody(request, payload, (error) => done(error ?? null, undefined));
  });
  app.setErrorHandler((thrown: FastifyError | GatehouseError, request, reply) => {
    const error = gatehouseErrorOf(thrown) ?? thrown;
    let body: ErrorBody;
    if (error instanceof GatehouseError) {
      body = toErrorBody(error);
    } else {
      const mapped = fromFastifyError(error, request);
      if (mapped === undefined) request.log.error({ err: error }, 'unexpected error');
      body = mapped ?? INTERNAL_ERROR;
    }
    const status = STATUS_BY_CODE[body.code];
    // RFC 9110 15.5.16: a 415 for a content coding says which codings are taken.
    if (status === 415 && contentCoding(request) !== undefined) void reply.header('accept-encoding', 'identity');
    sayWhenToRetry(reply, status, error instanceof GatehouseError ? error.retryAfterSeconds : undefined);
    // GraphQL clients read errors in the GraphQL shape, whichever layer refused the request.
    if (request.routeOptions.url === '/graphql') {
      return sendGraphQLAnswer(request, reply, { status, body: graphqlErrors(error instanceof GatehouseError ? toGraphQLErrorBody(error) : body), fromGraphQL: false });
    }
    return reply.status(status).send(body);
  });
}

/** A coding other than `identity` (RFC 9110 8.4), or undefined: bodies are read as they come, never decoded. */
function contentCoding(request: FastifyRequest): string | undefined {
  const header = request.headers['content-encoding'];
  if (header === undefined) return undefined;
  const codings = header.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity');
  return codings.length === 0 ? undefined : codings.join(', ');
}

function fromFastifyError(error: FastifyError, request: FastifyRequest): ErrorBody | undefined {
  switch (error.code) {
    // A QUERY (RFC 10008) without a Content-Type on a path no route takes: the 404 any other method gets.
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return request.is404
        ? { code: 'not_found', message: unroutedMessage(request.method, request.url) }
        : { code: 'unsupported_media_type', message: NOT_JSON };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: 'The request body is larger than 1 MiB' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'unsupported_media_type', message: NOT_JSON };
    default:
      return undefined;
  }
}

/** Zero bytes are no body (`curl -X POST -d ''` to an unlock); a first byte is 415, without reading on. */
function readNoBody(request: FastifyRequest, payload: NodeJS.ReadableStream, done: (error?: GatehouseError | Error) => void): void {
  const { 'content-length': length, 'transfer-encoding': chunked } = request.headers;
  if (request.is404) return done();
  if (chunked === undefined) return done(length === undefined || Number(length) === 0 ? undefined : new GatehouseError('unsupported_media_type', NOT_JSON));
  const finish = (error?: Error) => {
    payload.pause();
    payload.off('data', onData).off('end', finish).off('error', finish);
    done(error);
  };
  const onData = (chunk: Buffer | string) => {
    if (chunk.length > 0) finish(new GatehouseError('unsupported_media_type', NOT_JSON));
  };
  payload.on('data', onData).on('end', finish).on('error', finish);
}
