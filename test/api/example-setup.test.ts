import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSample } from '../../examples/express-app/app.ts';
import { setUp } from '../../examples/express-app/setup.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freePort, root } from '../support/spawned-service.ts';

/**
 * `npm run example:setup` and `npm run example:start` (README, quick start) when they cannot do their work: one line on
 * stderr saying what is wrong and what to do, exit code 1, and no stack; and the addresses setup writes, as Gatehouse
 * and the sample use them. The sign-in itself is test/browser/quick-start.test.ts.
 */
let app: TestApp;
/** Gatehouse's PUBLIC_URL, http://127.0.0.1:{port}: its issuer. */
let issuer: string;
beforeAll(async () => {
  app = await startTestApp({}, { reachablePublicUrl: true });
  issuer = app.gatehouse.services.config.publicUrl;
});
afterAll(async () => app?.close());

// Not the npm_* settings of an `npm test` around this run: npm would read them as its own.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

async function exampleSetup(settings: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const withoutKey = { ...env, GATEHOUSE_API_KEY: '' };
  const answer = await promisify(execFile)('npm', ['run', '--silent', 'example:setup'], { cwd: root, env: { ...withoutKey, ...settings } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  return { code: answer.code, stdout: answer.stdout, stderr: answer.stderr };
}

describe('the example’s setup script, refused', () => {
  it('says Gatehouse cannot be reached at GATEHOUSE_URL, and what to do', async () => {
    const gatehouseUrl = `http://localhost:${await freePort()}`;
    expect(await exampleSetup({ GATEHOUSE_URL: gatehouseUrl, GATEHOUSE_API_KEY: 'ghk_unknown' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `setup: cannot reach Gatehouse at ${gatehouseUrl} (ECONNREFUSED): start it (npm start), or set GATEHOUSE_URL to its address (its PUBLIC_URL)\n`,
    });
  });

  it('says which key it needs when none is given', async () => {
    expect(await exampleSetup({ GATEHOUSE_URL: issuer })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'setup: set GATEHOUSE_API_KEY to the key Gatehouse printed on its first start\n',
    });
  });

  it('gives Gatehouse’s refusal of the key in one line', async () => {
    const refused = await exampleSetup({ GATEHOUSE_URL: issuer, GATEHOUSE_API_KEY: 'ghk_unknown' });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^setup: list applications: 401 \{"code":"unauthenticated","message":"[^"\n]+"\}\n$/);
  });
});

describe('the example’s setup script, its addresses', () => {
  it('refuses a GATEHOUSE_URL that reaches Gatehouse but is not its issuer, naming the issuer', async () => {
    const elsewhere = issuer.replace('127.0.0.1', 'localhost');
    // An unknown key: a setup that went ahead would stop at the first call, not write gatehouse.local.json.
    expect(await exampleSetup({ GATEHOUSE_URL: elsewhere, GATEHOUSE_API_KEY: 'ghk_unknown' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `setup: Gatehouse at ${elsewhere} names its issuer ${issuer}: set GATEHOUSE_URL to the service's PUBLIC_URL, ${issuer}\n`,
    });
  });

  it('writes the issuer Gatehouse reports and APP_URL as its origin, trailing slashes or not, and registers one client', async () => {
    const first = await setUp({ gatehouseUrl: `${issuer}/`, apiKey: app.root.apiKey, appUrl: 'http://localhost:4617/' });
    expect(first.config).toMatchObject({ issuer, appUrl: 'http://localhost:4617' });
    const again = await setUp({ gatehouseUrl: issuer, apiKey: app.root.apiKey, appUrl: 'http://localhost:4617' });
    expect(again.config).toMatchObject({ issuer, appUrl: 'http://localhost:4617', clientId: first.config.clientId });
    const clients = (await app.http.get('/oauth-clients?pageSize=100')).body.data as { redirectUris: string[] }[];
    expect(clients.filter((client) => client.redirectUris.includes('http://localhost:4617/callback'))).toHaveLength(1);
    expect(clients.flatMap((client) => client.redirectUris)).not.toContain('http://localhost:4617//callback');
  });
});

describe('the example app, unable to start', () => {
  /** What `npm run example:start` prints on stderr and its exit code, with `configFile` as gatehouse.local.json. */
  async function sampleStart(configFile: URL): Promise<{ code: number; stderr: string }> {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const started = await startSample(configFile);
      if (typeof started !== 'number') {
        await new Promise((resolve) => started.close(resolve));
        throw new Error('the sample started');
      }
      return { code: started, stderr: errors.mock.calls.map((call) => `${call.join(' ')}\n`).join('') };
    } finally {
      errors.mockRestore();
    }
  }

  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'gatehouse-sample-'));
  });
  afterAll(async () => rm(directory, { recursive: true, force: true }));

  it('without gatehouse.local.json: says to run the setup, in one line', async () => {
    const missing = pathToFileURL(join(directory, 'gatehouse.local.json'));
    expect(await sampleStart(missing)).toEqual({ code: 1, stderr: `sample: ${missing.pathname} is missing: run npm run example:setup first (README, "Quick start")\n` });
  });

  it('while Gatehouse does not answer: says so in one line', async () => {
    const gatehouseUrl = `http://127.0.0.1:${await freePort()}`;
    const configFile = pathToFileURL(join(directory, 'unreachable.json'));
    const config = { issuer: gatehouseUrl, appUrl: 'http://localhost:4617', clientId: 'c', clientSecret: 's', tenant: 'acme', apiIdentifier: 'https://notes.example.com', permission: 'notes:read' };
    await writeFile(configFile, JSON.stringify(config));
    expect(await sampleStart(configFile)).toEqual({ code: 1, stderr: `sample: cannot reach Gatehouse at ${gatehouseUrl} (ECONNREFUSED): start it (npm start), or run npm run example:setup with GATEHOUSE_URL set to its PUBLIC_URL\n` });
  });
});
