import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (too large, malformed): answered in the contract's
 * error body, with an X-Request-Id and `Connection: close`, and logged without their bytes.
 */
let app: TestApp;
const logged: string[] = [];
beforeAll(async () => {
  app = await startTestApp({}, { logStream: { write: (line) => logged.push(line) } });
});
afterAll(async () => app?.close());

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: any;
}

/** Sends bytes as they are (fetch would refuse to send a malformed request) and reads the answer until the server closes. */
function sendRaw(request: string, to: TestApp = app, trickle?: { readonly everyMs: number }): Promise<RawResponse> {
  const { port } = new URL(to.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const [head, body = ''] = trickle === undefined ? [request] : [request.slice(0, request.indexOf('\r\n\r\n') + 4), request.slice(request.indexOf('\r\n\r\n') + 4)];
    // A body sent a byte at a time, until it is all sent or the server closes.
    let sent = 0;
    const drip = trickle === undefined ? undefined : setInterval(() => (sent < body.length && !socket.destroyed ? socket.write(body[sent++]!) : clearInterval(drip)), trickle.everyMs);
    socket.on('close', () => clearInterval(drip));
    const chunks: Buffer[] = [];
    // The answer stops the drip; a byte already on its way when the server closed fails (EPIPE): its close, not an error.
    socket.on('data', (chunk) => {
      clearInterval(drip);
      chunks.push(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (drip === undefined || (error.code !== 'EPIPE' && error.code !== 'ECONNRESET')) reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body === '' ? '' : JSON.parse(body) });
    });
    socket.write(head);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requests the HTTP parser refuses', () => {
  it('answers a request line or a header over 16 KiB with 431 in the contract’s body', async () => {
    const secret = `Bearer ${'s'.repeat(17_000)}`;
    for (const [label, response] of [
      ['long query string', await app.http.get(`/applications?x=${'a'.repeat(20_000)}`)],
      ['long Authorization header', await app.as({}).get('/applications', { headers: { authorization: secret } })],
      ['long header on /graphql', await app.as({}).request('POST', '/graphql', { body: { query: '{ version }' }, headers: { 'x-padding': 'p'.repeat(17_000) } })],
    ] as const) {
      expect(response.status, label).toBe(431);
      expect(response.body, label).toEqual({ code: 'request_header_fields_too_large', message: expect.stringContaining('16 KiB') });
      expect(response.headers.get('content-type'), label).toBe('application/json; charset=utf-8');
      expect(response.headers.get('connection'), label).toBe('close');
      expect(response.headers.get('x-request-id'), label).toMatch(UUID);
      // Never counted (no credential or client address was read): no rate-limit headers to invent.
      expect(response.headers.get('x-ratelimit-remaining'), label).toBeNull();
    }
    // Logged with the request id it answered, and without the request's bytes.
    const lines = logged.filter((line) => line.includes('refused a request the HTTP parser could not read'));
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, clientError: 'HPE_HEADER_OVERFLOW', statusCode: 431, reqId: expect.stringMatching(UUID) });
    expect(logged.join('\n')).not.toContain('sssssssssssssssss');
  });

  it('answers a malformed request with 422 validation_error in the contract’s body, and closes the connection', async () => {
    const requests = {
      'Content-Length: abc': 'GET /api/v1/applications HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n',
      'header line without a colon': 'GET /api/v1/applications HTTP/1.1\r\nHost: localhost\r\nX-Api-Key ghk_secret\r\n\r\n',
      'not HTTP': 'HELLO\r\n\r\n',
    };
    for (const [label, request] of Object.entries(requests)) {
      const response = await sendRaw(request);
      expect(response.status, label).toBe(422);
      expect(response.body, label).toEqual({ code: 'validation_error', message: expect.stringMatching(/^The request is not well-formed HTTP\/1\.1 \(HPE_\w+\)$/), field: 'request' });
      expect(response.headers.get('x-request-id'), label).toMatch(UUID);
      expect(response.headers.get('connection'), label).toBe('close');
      expect(Number(response.headers.get('content-length')), label).toBe(Buffer.byteLength(JSON.stringify(response.body)));
    }
    expect(logged.join('\n')).not.toContain('ghk_secret');
    // The service is unharmed.
    expect((await app.http.get('/applications')).status).toBe(200);
  });
});

describe('a request that does not arrive in time', () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await startTestApp({ requestTimeoutMs: 1_500 });
  });
  afterAll(async () => slow?.close());

  const post = (body: string) =>
    `POST /api/v1/applications HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${slow.root.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;

  it('answers a body sent a byte at a time past the deadline with 408 in the contract’s body, and closes', async () => {
    const response = await sendRaw(post(`{"name":"${'x'.repeat(500)}"}`), slow, { everyMs: 100 });
    expect(response.status).toBe(408);
    expect(response.body).toEqual({ code: 'request_timeout', message: 'The request did not arrive in time' });
    expect(response.headers.get('connection')).toBe('close');
    expect(response.headers.get('x-request-id')).toMatch(UUID);
    // Nothing was made of the part that came.
    const names = ((await slow.http.get('/applications')).body as { data: { name: string }[] }).data.map((application) => application.name);
    expect(names.some((name) => name.startsWith('xxx'))).toBe(false);
  });

  it('a 408 of a request whose headers were read (the body late) answers as that request: its id and the rate limit’s headers', async () => {
    const before = Number((await slow.http.get('/applications')).headers.get('x-ratelimit-remaining'));
    const request = post(`{"name":"${'y'.repeat(500)}"}`).replace('Connection: close', 'X-Request-Id: slow-body-1\r\nConnection: close');
    const response = await sendRaw(request, slow, { everyMs: 100 });
    expect(response.status).toBe(408);
    expect(response.headers.get('x-request-id')).toBe('slow-body-1');
    // Counted when it was routed, against its credentials: the next request sees one less.
    expect(response.headers.get('x-ratelimit-remaining')).toBe(String(before - 1));
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(response.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect((await slow.http.get('/applications')).headers.get('x-ratelimit-remaining')).toBe(String(before - 2));
  });

  it('a 408 of headers that never all came carries no rate-limit headers: nothing was read or counted', async () => {
    const response = await sendRaw(`GET /api/v1/applications HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: ${slow.root.apiKey}\r\n`, slow);
    expect(response.status).toBe(408);
    expect(response.headers.get('x-request-id')).toMatch(UUID);
    expect(response.headers.get('x-ratelimit-remaining')).toBeUndefined();
  });

  it('serves a body that comes slowly but whole within the deadline', async () => {
    const response = await sendRaw(post('{"name":"Slow but whole"}'), slow, { everyMs: 10 });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'Slow but whole' });
  });
});
