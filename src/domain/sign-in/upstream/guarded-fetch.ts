import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, Readable, Transform } from 'node:stream';
import type { CustomFetch } from 'openid-client';
import { isLoopbackAddress, resolveHost, type InternalReach } from '../../address-guard.ts';

/** A connection the guard did not open; thrown, as a failed connection is, so the sign-in fails as an unreachable upstream. */
export class UpstreamAddressError extends Error {}

/** An answer past ANSWER_LIMIT_BYTES; the body fails with it, as a dropped connection's would. */
export class UpstreamAnswerTooLargeError extends Error {}

/** Real answers are kilobytes, and openid-client reads and parses one whole on the event loop: unbounded, an upstream
 *  could fill the memory and hold every other request. */
const ANSWER_LIMIT_BYTES = 256 * 1024;

/** Hands the socket the address that was checked, whatever the name would resolve to now. */
const pinned =
  (address: string): LookupFunction =>
  (_host, options, callback) => {
    const family = isIP(address);
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** Stops reading (and drops the connection) at the first byte past the limit. */
function limited(incoming: IncomingMessage): Readable {
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      done(received > ANSWER_LIMIT_BYTES ? new UpstreamAnswerTooLargeError(`upstream: an answer over ${ANSWER_LIMIT_BYTES} bytes`) : null, chunk);
    },
  });
  // The error reaches the reader through `counted`; pipeline destroys `incoming` with it.
  return pipeline(incoming, counted, () => undefined);
}

function responseOf(incoming: IncomingMessage, method: string): Response {
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) headers.append(incoming.rawHeaders[index]!, incoming.rawHeaders[index + 1]!);
  const status = incoming.statusCode ?? 0;
  const empty = method === 'HEAD' || status === 204 || status === 304;
  if (empty) incoming.resume();
  return new Response(empty ? null : (Readable.toWeb(limited(incoming)) as ReadableStream<Uint8Array>), { status, statusText: incoming.statusMessage ?? '', headers });
}

async function checkedAddress(url: URL, reach: InternalReach): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const found = await resolveHost(host, reach);
  if ('unresolved' in found) throw new UpstreamAddressError(`upstream: cannot resolve ${host} (${found.unresolved})`);
  if ('refused' in found) {
    throw new UpstreamAddressError(
      `upstream: ${host} resolves to ${found.refused}, an internal address; the service does not connect there (UPSTREAM_ALLOW_PRIVATE_HOSTS)`,
    );
  }
  // openid-client lets a loopback issuer's configuration use http everywhere: plain http goes to loopback alone.
  if (url.protocol === 'http:' && !isLoopbackAddress(found.address)) throw new UpstreamAddressError(`upstream: http to ${host} (${found.address}), which is not loopback`);
  return found.address;
}

/**
 * openid-client's fetch for every request of an upstream (discovery, JWKS, token, userinfo): it connects to the
 * address it checked. Node's http(s) rather than the global fetch, whose connector (undici's) takes no lookup here.
 */
export function guardedFetch(reach: InternalReach): CustomFetch {
  return async (input, init) => {
    // The bodies openid-client sends are fetch's; only TypeScript's Uint8Array<ArrayBufferLike> differs from BodyInit.
    const request = new Request(input, init as RequestInit);
    const url = new URL(request.url);
    const address = await checkedAddress(url, reach);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(url, { method: request.method, headers: Object.fromEntries(request.headers), lookup: pinned(address), signal: init.signal }, (incoming) => {
        try {
          resolve(responseOf(incoming, request.method));
        } catch (error) {
          incoming.destroy();
          reject(new Error('upstream: an answer fetch cannot read (its status)', { cause: error }));
        }
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
