import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

/**
 * /healthz, /readyz and /metrics are the orchestrator's and the scraper's, asked every few seconds from one address (a proxy's, for everyone): they
 * neither spend nor meet the rate limit of that address, and leave no line in the request log; the API beside them does.
 */
describe('the probes', () => {
  let app: TestApp;
  const written: string[] = [];
  const loggedUrls = () => written.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter((url) => url !== undefined);

  beforeAll(async () => {
    app = await startTestApp({ rateLimit: { max: 3, windowMs: 60_000, redisPrefix: `gatehouse-test-${randomUUID()}-` } }, { logStream: { write: (line) => written.push(line) } });
  });
  afterAll(async () => app?.close());

  it('answer past the address rate limit, unlogged, uncounted; the API from that address is limited and logged', async () => {
    const probes = [];
    for (let i = 0; i < 5; i += 1) probes.push(await fetch(`${app.baseUrl}/healthz`), await fetch(`${app.baseUrl}/readyz`), await fetch(`${app.baseUrl}/metrics`));
    expect(probes.map((response) => response.status)).toEqual(Array(15).fill(200));
    for (const response of probes) expect(response.headers.get('x-ratelimit-limit')).toBeNull();

    // The address's budget of 3 is whole: two refusals for lack of credentials, then the limit.
    const api = [];
    for (let i = 0; i < 4; i += 1) api.push((await app.as({}).get('/users')).status);
    expect(api).toEqual([401, 401, 401, 429]);
    expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);

    expect(loggedUrls()).toContain('/api/v1/users');
    // The refusal of the limit is a warning with its reason; the 401s before it (not a burst) are not.
    const completions = written.map((line) => JSON.parse(line) as { msg: string; level: number; status?: number; reason?: string }).filter((line) => line.msg === 'request completed');
    expect(completions.map(({ level, status, reason }) => ({ level, status, reason }))).toEqual([
      ...Array(3).fill({ level: 30, status: 401, reason: 'unauthenticated' }),
      { level: 40, status: 429, reason: 'rate_limited' },
    ]);
    expect(loggedUrls().filter((url) => ['/healthz', '/readyz', '/metrics'].includes(url))).toEqual([]);
  });
});
