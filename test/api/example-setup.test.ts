import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { freePort, root } from '../support/spawned-service.ts';

/**
 * `npm run example:setup` (README, quick start) when it cannot do its work: one line on stderr saying what is wrong and
 * what to do, exit code 1, and no stack. Its success is test/browser/quick-start.test.ts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
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
    expect(await exampleSetup({ GATEHOUSE_URL: app.baseUrl })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'setup: set GATEHOUSE_API_KEY to the key Gatehouse printed on its first start\n',
    });
  });

  it('gives Gatehouse’s refusal of the key in one line', async () => {
    const refused = await exampleSetup({ GATEHOUSE_URL: app.baseUrl, GATEHOUSE_API_KEY: 'ghk_unknown' });
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^setup: list applications: 401 \{"code":"unauthenticated","message":"[^"\n]+"\}\n$/);
  });
});
