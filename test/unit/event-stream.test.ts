import { once } from 'node:events';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.ts';
import { EventStreams, type EventStream } from '../../src/http/event-stream.ts';
import { droppedRequest } from '../support/http.ts';

/**
 * A stream opened once its client has left (it went while the stream's start was read): nothing ever tells it so
 * again, so it is closed at once and its credentials' slot given back.
 */
const app = Fastify();
const streams = new EventStreams(app, 20, 1);
const principal = { credentialId: 'api_key:one' } as Principal;
const opened: EventStream[] = [];
const handled: (() => void)[] = [];

app.get('/stream', async (request, reply) => {
  const slot = streams.take(principal);
  if (!request.raw.socket.destroyed) await once(request.raw.socket, 'close');
  opened.push(streams.open(reply, slot));
  handled.shift()?.();
});

let baseUrl: string;
beforeAll(async () => {
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => app.close());

describe('EventStreams.open', () => {
  it('closes a stream whose client left before it opened and gives its slot back, every time', async () => {
    for (let round = 0; round < 3; round += 1) {
      const done = new Promise<void>((resolve) => handled.push(resolve));
      await droppedRequest(baseUrl, 'GET', '/stream', {});
      await done;
      expect(opened.at(-1)?.closed).toBe(true);
      // One slot per credential: the next stream takes it, and gives it back.
      streams.take(principal).release();
    }
  });
});
