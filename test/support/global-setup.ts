import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createTemplateDatabase, deadRuns, holdRunLock, RUN_ENV, TEMPLATE_ENV, usingEmbeddedDatabase } from './database.ts';

const dropInBackground = (run: string) => spawn(process.execPath, ['test/support/drop-run-databases.ts', run], { detached: true, stdio: 'ignore' }).unref();

/**
 * Once per vitest run, before any test file: the dashboard's build, which the service serves at /dashboard/ (about a
 * second), the migrated template every test database copies and the run's name for them (test/support/database.ts).
 * The workers are forked after this, with this process's environment. As the run ends, a process of its own drops
 * its PostgreSQL databases, the template's too: the run need not wait for their checkpoints. Those a killed run left
 * are dropped by the next run to start (deadRuns).
 */
export default async function setup(): Promise<() => Promise<void>> {
  // vitest sets NODE_ENV=test, which would give Vite React's development build: the tests drive what `npm start` serves.
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'error'], { stdio: 'inherit', env });
  const run = randomBytes(4).toString('hex');
  process.env[RUN_ENV] = run;
  const releaseRunLock = await holdRunLock(run);
  for (const dead of await deadRuns()) dropInBackground(dead);
  const { template, drop } = await createTemplateDatabase();
  process.env[TEMPLATE_ENV] = template;
  return async () => {
    await drop();
    await releaseRunLock();
    if (!usingEmbeddedDatabase()) dropInBackground(run);
  };
}
