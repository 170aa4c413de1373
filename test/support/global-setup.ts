import { createTemplateDatabase, TEMPLATE_ENV } from './database.ts';

/**
 * Once per vitest run, before any test file: the migrated template every test database copies (test/support/database.ts).
 * The workers are forked after this, with this process's environment.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const { template, drop } = await createTemplateDatabase();
  process.env[TEMPLATE_ENV] = template;
  return drop;
}
