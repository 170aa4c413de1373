import { describe, expect, it } from 'vitest';
import { clientErrorBody, clientErrorResponse } from '../../src/http/client-error.ts';

describe('answers to requests the HTTP parser refuses', () => {
  it('maps llhttp’s and Node’s codes onto the contract’s codes, and drops the connection on anything else', () => {
    expect(clientErrorBody({ code: 'HPE_HEADER_OVERFLOW' })).toEqual({ code: 'request_header_fields_too_large', message: expect.stringContaining('KiB') });
    expect(clientErrorBody({ code: 'HPE_CHUNK_EXTENSIONS_OVERFLOW' })?.code).toBe('payload_too_large');
    expect(clientErrorBody({ code: 'ERR_HTTP_REQUEST_TIMEOUT' })?.code).toBe('request_timeout');
    for (const code of ['HPE_INVALID_CONTENT_LENGTH', 'HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_METHOD']) {
      expect(clientErrorBody({ code })).toEqual({ code: 'validation_error', message: `The request is not well-formed HTTP/1.1 (${code})`, field: 'request' });
    }
    for (const code of ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', '']) expect(clientErrorBody({ code }), code).toBeUndefined();
  });

  it('writes a whole HTTP/1.1 response: status, the body’s exact length, a request id, Connection: close', () => {
    const body = { code: 'request_header_fields_too_large', message: 'Trop long — 16 KiB' } as const;
    const response = clientErrorResponse(body, 'f5b8a0c2-8f5e-4a43-9a54-0ab5f6b0c8d1', new Date('2026-11-24T05:00:00Z'));
    const [head, json] = response.split('\r\n\r\n');
    expect(head?.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Date: Tue, 24 Nov 2026 05:00:00 GMT',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(JSON.stringify(body))}`,
      'X-Request-Id: f5b8a0c2-8f5e-4a43-9a54-0ab5f6b0c8d1',
      'Connection: close',
    ]);
    expect(JSON.parse(json!)).toEqual(body);
    expect(clientErrorResponse({ code: 'validation_error', message: 'm' }, 'id').split('\r\n')[0]).toBe('HTTP/1.1 422 Unprocessable Entity');
    expect(clientErrorResponse({ code: 'request_timeout', message: 'm' }, 'id').split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  });
});
