import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * Behind a proxy every request comes from the proxy's address: with TRUST_PROXY naming it, the client's address is
 * the one the proxy puts in X-Forwarded-For, and each client has its own rate limit. Without it, X-Forwarded-For is
 * the client's own claim: ignored, so that inventing addresses buys no fresh buckets.
 */
const limitedApp = (trustProxy: Config['trustProxy']) =>
  startTestApp({ trustProxy, rateLimit: { max: 2, windowMs: 60_000, redisPrefix: `gatehouse-test-${crypto.randomUUID()}-` } });

/** The statuses of `count` requests without credentials (401s, counted against the client address) from `client`. */
async function statusesFrom(app: TestApp, client: string, count: number): Promise<number[]> {
  const statuses = [];
  for (let i = 0; i < count; i += 1) statuses.push((await app.as({}).get('/users', { headers: { 'x-forwarded-for': client } })).status);
  return statuses;
}

describe.each([
  ['the proxy by address', ['127.0.0.1']],
  ['the proxy by range name', ['loopback']],
  ['one proxy hop', 1],
] as const)('TRUST_PROXY naming %s', (_name, trustProxy) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await limitedApp(typeof trustProxy === 'number' ? trustProxy : [...trustProxy]);
  });
  afterAll(async () => app?.close());

  it('counts each forwarded client on its own', async () => {
    expect(await statusesFrom(app, '203.0.113.1', 3)).toEqual([401, 401, 429]);
    expect(await statusesFrom(app, '203.0.113.2', 1)).toEqual([401]);
    // A client's own X-Forwarded-For entries before the proxy's are not believed beyond the trusted hops.
    expect(await statusesFrom(app, '198.51.100.7, 203.0.113.1', 1)).toEqual([429]);
  });

  it('reads an entry with a port as its address, and counts entries that are no address as the proxy', async () => {
    expect(await statusesFrom(app, '203.0.113.5:1000', 2)).toEqual([401, 401]);
    expect(await statusesFrom(app, '203.0.113.5:2000', 1)).toEqual([429]);
    expect(await statusesFrom(app, '[2001:db8:9::1]:443', 2)).toEqual([401, 401]);
    expect(await statusesFrom(app, '2001:db8:9::2', 1)).toEqual([429]);
    // A proxy passing the client's text on: each text would be a fresh budget (and a log field) were it believed.
    expect([
      ...(await statusesFrom(app, 'unknown', 1)),
      ...(await statusesFrom(app, 'x'.repeat(2000), 1)),
      ...(await statusesFrom(app, '203.0.113.5:99999', 1)),
    ]).toEqual([401, 401, 429]);
  });

  it('counts an IPv6 client by its /64, which one host holds: its other addresses buy no fresh budget', async () => {
    const statuses = [];
    for (let i = 1; i <= 4; i += 1) statuses.push(...(await statusesFrom(app, `2001:db8:1:2::${i.toString(16)}`, 1)));
    expect(statuses).toEqual([401, 401, 429, 429]);
    // Another /64 is another client.
    expect(await statusesFrom(app, '2001:db8:1:3::1', 1)).toEqual([401]);
  });
});

describe('without TRUST_PROXY', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await limitedApp(false);
  });
  afterAll(async () => app?.close());

  it('ignores X-Forwarded-For: every claimed address shares the connection’s bucket', async () => {
    expect(await statusesFrom(app, '203.0.113.1', 2)).toEqual([401, 401]);
    expect(await statusesFrom(app, '203.0.113.2', 1)).toEqual([429]);
  });
});
