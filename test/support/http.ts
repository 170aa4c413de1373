import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** A small REST + GraphQL client for the end-to-end suites: real HTTP against the running service. */
export interface HttpResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** A raw body sent as is (with its own Content-Type header). */
  raw?: string | Uint8Array<ArrayBuffer>;
}

export class HttpClient {
  readonly baseUrl: string;
  readonly credentials: { apiKey?: string; bearer?: string };

  constructor(baseUrl: string, credentials: { apiKey?: string; bearer?: string }) {
    this.baseUrl = baseUrl;
    this.credentials = credentials;
  }

  private authHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.credentials.apiKey !== undefined) headers['x-api-key'] = this.credentials.apiKey;
    if (this.credentials.bearer !== undefined) headers['authorization'] = `Bearer ${this.credentials.bearer}`;
    return headers;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...this.authHeaders(), ...options.headers };
    let body: string | Uint8Array<ArrayBuffer> | undefined = options.raw;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.body);
    }
    const url = path.startsWith('/api/') || path.startsWith('/graphql') || path.startsWith('/') ? `${this.baseUrl}${path}` : path;
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) }).catch((error: unknown) => {
      // fetch says only "fetch failed": name the request and the socket's reason, so a failure in CI can be read.
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new Error(`${method} ${url}: ${reason}`, { cause: error });
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', `/api/v1${path}`, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', `/api/v1${path}`, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', `/api/v1${path}`, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', `/api/v1${path}`, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', `/api/v1${path}`, options);
  }

  /** POST /graphql; returns the whole GraphQL response (`data`, `errors`). */
  graphql<T = any>(query: string, variables: Record<string, unknown> = {}, options: RequestOptions = {}) {
    return this.request<{ data?: T; errors?: { message: string; extensions: Record<string, any> }[] }>('POST', '/graphql', {
      ...options,
      body: { query, variables },
    });
  }
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A request sent as written, on its own connection: any method (fetch refuses TRACE and spells no QUERY) and any
 * framing (chunked, or a Content-Length the caller sets).
 */
export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A request written whole on its own connection, which is then dropped without waiting for an answer: a client gone. */
export function droppedRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, body = ''): Promise<void> {
  const url = new URL(baseUrl);
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${url.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== '') lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () =>
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`, () => {
        socket.destroy();
        resolve();
      }),
    );
    socket.on('error', reject);
  });
}
