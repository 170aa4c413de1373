import { request } from 'node:http';

/**
 * A fetch that sends every request to the test service (`baseUrl`, 127.0.0.1) whatever host its URL names, with that
 * host in the Host header: a custom domain without DNS, as a proxy in front would forward it. No redirect is followed.
 */
export type FetchLike = (
  input: string,
  init?: { method?: string | undefined; headers?: HeadersInit | undefined; body?: unknown; redirect?: RequestRedirect | undefined },
) => Promise<Response>;

export function fetchVia(baseUrl: string): FetchLike {
  const service = new URL(baseUrl);
  return async (input, init = {}) => {
    const url = new URL(input);
    const headers = new Headers(init.headers);
    headers.set('host', url.host);
    const body = init.body == null ? undefined : await bytesOf(init.body);
    if (body !== undefined) headers.set('content-length', String(body.length));
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(
        { host: service.hostname, port: service.port, method: init.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: Object.fromEntries(headers) },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const received = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) received.append(name, one);
            }
            const status = incoming.statusCode ?? 502;
            resolve(new Response([204, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: received }));
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}

async function bytesOf(body: unknown): Promise<Buffer> {
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(String(body));
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}
