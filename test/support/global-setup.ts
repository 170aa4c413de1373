import { execFileSync } from 'node:child_process';
import { createTemplateDatabase, TEMPLATE_ENV } from './database.ts';

/**
 * Once per vitest run, before any test file: the dashboard's build, which the service serves at /dashboard/ (about a
 * second), and the migrated template every test database copies (test/support/database.ts). The workers are forked
 * after this, with this process's environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // vitest sets NODE_ENV=test, which would give Vite React's development build: the tests drive what `npm start` serves.
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'dashboard/vite.config.ts', '--logLevel', 'error'], { stdio: 'inherit', env });
  const { template, drop } = await createTemplateDatabase();
  process.env[TEMPLATE_ENV] = template;
  return drop;
}
