import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { postForm } from '../support/oauth.ts';

/**
 * A token request whose client hangs up before its body arrives is not handed to the OP: no one is left to answer,
 * and the OP, finding the stream ended, prints a warning outside the JSON log (that a parser read the body before it).
 * Its own service, so that the first request meets a provider not yet built: slow enough for the client to be gone.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
});
afterAll(async () => app?.close());

describe('a client that hangs up before its token request’s body arrives', () => {
  it('gets nothing, the OP warns of nothing, and the next request is answered', async () => {
    const warn = vi.spyOn(console, 'warn');
    try {
      const { hostname, port, host } = new URL(app.baseUrl);
      // Gone at once, while the service routes the request, or while the OP reads the body.
      for (const delayMs of [0, 1, 5, 20, 0, 1, 5, 20]) {
        const socket = connect(Number(port), hostname);
        await new Promise((resolve) => socket.once('connect', resolve));
        socket.write(`POST /oauth2/token HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type=cli`);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        socket.destroy();
      }
      const answer = await postForm(`${app.baseUrl}/oauth2/token`, { grant_type: 'client_credentials' });
      expect(answer.status).toBe(401);
      expect(warn.mock.calls.flat().join('\n')).not.toContain('oidc-provider');
    } finally {
      warn.mockRestore();
    }
  });
});
