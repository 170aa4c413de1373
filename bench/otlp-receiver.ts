/**
 * A local OTLP/HTTP receiver for bench/observability.ts, in its own process as a collector would be: in the bench's
 * process it took the load generator's time, which the service then spent waiting for requests. It takes every export,
 * answers an empty success, and answers `{ count: true }` on its IPC channel with the exports and bytes received.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceiverCounts {
  readonly exports: number;
  readonly bytes: number;
}

let exports = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on('data', (chunk: Buffer) => (bytes += chunk.length));
  request.on('end', () => {
    exports += 1;
    // An empty ExportTraceServiceResponse: success with nothing rejected.
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', () => process.send?.({ exports, bytes } satisfies ReceiverCounts));
process.on('disconnect', () => server.close());
