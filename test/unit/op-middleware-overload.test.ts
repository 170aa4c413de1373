import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors, type Configuration } from 'oidc-provider';
import { afterEach, describe, expect, it } from 'vitest';
import { useAnsweringOverload } from '../../src/oidc/overload.ts';

/**
 * useAnsweringOverload (src/oidc/overload.ts) on a bare OP: an overload thrown by middleware, once the OP's endpoint
 * has answered, is answered by the OP's own error handler, once. The service's middleware meeting a real pool timeout
 * is test/api/overload.test.ts.
 */
const JWKS = { keys: [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })] };
const DISCOVERY = '/.well-known/openid-configuration';

const overloaded = () => Object.assign(new errors.TemporarilyUnavailable('The service is overloaded: try again shortly'), { status: 503, statusCode: 503, expose: true });

let server: Server | undefined;
afterEach(() => server?.close());

/** An OP whose discovery is followed by three middleware, the innermost failing with an overload once it has answered. */
async function opFailingAfterDiscovery(renderError: Configuration['renderError']): Promise<string> {
  const provider = new Provider('http://op.test', { jwks: JWKS, renderError, features: { devInteractions: { enabled: false } } });
  const passing = async (_ctx: unknown, next: () => Promise<unknown>) => {
    await next();
  };
  const failing = async (_ctx: unknown, next: () => Promise<unknown>) => {
    await next();
    throw overloaded();
  };
  useAnsweringOverload(provider, [passing, passing, failing]);
  const handle = provider.callback();
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${DISCOVERY}`;
}

describe('middleware given to the OP through useAnsweringOverload', () => {
  it('answers an overload as the OP’s endpoints do: JSON 503 temporarily_unavailable with Retry-After, or its error page', async () => {
    const rendered: string[] = [];
    const url = await opFailingAfterDiscovery(async (ctx, out) => {
      rendered.push(out.error);
      ctx.type = 'html';
      ctx.body = `<p>${out.error}</p>`;
    });
    const json = await fetch(url, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(503);
    expect(json.headers.get('retry-after')).toBe('2');
    expect(await json.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'The service is overloaded: try again shortly' });

    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('2');
    expect(await page.text()).toBe('<p>temporarily_unavailable</p>');
    expect(rendered).toEqual(['temporarily_unavailable']);
  });

  it('tries its answer once: an error page that meets the overload too is not rendered again by the middleware around it', async () => {
    let rendered = 0;
    const url = await opFailingAfterDiscovery(async () => {
      rendered += 1;
      throw overloaded();
    });
    const page = await fetch(url, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(rendered).toBe(1);
  });
});
