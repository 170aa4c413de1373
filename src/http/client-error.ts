import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance, FastifyReply } from 'fastify';
import { STATUS_BY_CODE, type ErrorBody } from '../errors.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them, answered in the contract's shape. Two codes exist only
 * here: the contract's list has none for them (docs/decisions.md, Conventions).
 */
export const PROTOCOL_STATUS_BY_CODE = {
  request_header_fields_too_large: 431,
  request_timeout: 408,
} as const;

export type ProtocolErrorCode = keyof typeof PROTOCOL_STATUS_BY_CODE;

export interface ClientErrorBody {
  readonly code: ErrorBody['code'] | ProtocolErrorCode;
  readonly message: string;
  /** `request`: what a validation error names when the HTTP message itself is malformed. */
  readonly field?: string;
}

const STATUS: Readonly<Record<ClientErrorBody['code'], number>> = { ...STATUS_BY_CODE, ...PROTOCOL_STATUS_BY_CODE };

/** Undefined: dropped unanswered (a socket failure has no request). Never a byte of the request, which may hold a credential. */
export function clientErrorBody(error: Pick<ConnectionError, 'code'>): ClientErrorBody | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'request_header_fields_too_large',
        message: `The request line and headers are larger than ${Math.floor(maxHeaderSize / 1024)} KiB (a query string or a header is too long)`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'payload_too_large', message: 'The chunk extensions of the request body are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request did not arrive in time' };
    default:
      // The contract has no 400 (Apollo's 400s are 422s too).
      return code.startsWith('HPE_') ? { code: 'validation_error', message: `The request is not well-formed HTTP/1.1 (${code})`, field: 'request' } : undefined;
  }
}

/** `headers`: a routed request's rate-limit headers (a 408 of a late body); one never read counted nothing. The
 *  connection closes after it: the parser cannot resume. */
export function clientErrorResponse(body: ClientErrorBody, requestId: string, now = new Date(), headers: Readonly<Record<string, string>> = {}): string {
  const status = STATUS[body.code];
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `Date: ${now.toUTCString()}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

/** The response a connection is answering, if any. Node's own default handler reads the same private field
 *  (lib/_http_server.js, socketOnError). */
const inFlight = (socket: Socket): ServerResponse | null | undefined => (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;

/** A pipelined request's: an answer now would corrupt it. */
const responseStarted = (socket: Socket): boolean => inFlight(socket)?.headersSent === true;

/** Each routed request's reply by its response, for a 408 that arrives while its body is read. */
const routed = new WeakMap<ServerResponse, FastifyReply>();

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/** Lets a 408 of a request already routed (its body late) answer with its request id and the rate limit's headers. */
export function followRouted(reply: FastifyReply): void {
  routed.set(reply.raw, reply);
}

/** The routed request's id and the rate-limit headers its route set, when the connection was reading its body. */
function routedRequestOf(socket: Socket): { id: string; headers: Record<string, string> } | undefined {
  const response = inFlight(socket);
  const reply = response == null ? undefined : routed.get(response);
  if (reply === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const name of RATE_LIMIT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { id: reply.request.id, headers };
}

export function answerClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
  const body = socket.destroyed ? undefined : clientErrorBody(error);
  if (body === undefined || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  const request = routedRequestOf(socket);
  const requestId = request?.id ?? randomUUID();
  // Neither the error (its rawPacket holds the request's bytes: credentials) nor the request is logged.
  this.log.info({ reqId: requestId, clientError: error.code, statusCode: STATUS[body.code] }, 'refused a request the HTTP parser could not read');
  socket.end(clientErrorResponse(body, requestId, new Date(), request?.headers), () => socket.destroy());
}
