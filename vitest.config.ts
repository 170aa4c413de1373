import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first.ts';

/**
 * `npm test` runs everything but the browser suites, which need Debian's Chromium; `npm run test:browser`
 * (GATEHOUSE_TESTS=browser) runs only those. CI runs both.
 */
const browserSuites = 'test/browser/**/*.test.ts';
const browser = process.env['GATEHOUSE_TESTS'] === 'browser';

// Suites of the embedded database itself (its lock, its socket, the CLI through it): whatever TEST_DATABASE_URL says,
// the database they test is embedded, so a run on PostgreSQL would only repeat the embedded run's.
const embeddedDatabaseSuites = ['test/api/embedded-database.test.ts', 'test/api/embedded-start-race.test.ts', 'test/api/cli.test.ts'];
const onPostgresql = Boolean(process.env['TEST_DATABASE_URL']);

// A suite that replaces a module (vi.mock) gets a module registry of its own; the others share their worker's, which
// spares each file a second or more of loading the service's modules again (every file starts its own service).
const suitesReplacingModules = ['test/api/email-render-outside-transaction.test.ts'];

// Node's compile cache for every process the run starts (its workers, each `node src/process/main.ts` a suite spawns): a
// spawned service compiles the service's modules and their dependencies once per run, not at each start.
process.env['NODE_COMPILE_CACHE'] ??= join(tmpdir(), 'gatehouse-test-compile-cache');

const exclude = [...configDefaults.exclude, ...(browser ? [] : [browserSuites]), ...(onPostgresql ? embeddedDatabaseSuites : [])];

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) with no `exports` map: Node loads the CommonJS one for
    // everyone, Vite would give our sources the ESM one, and graphql's instanceof checks then fail across the two.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  // @gatehouse/client's TypeScript source (packages/client/package.json), as tsconfig.json's customConditions: its
  // dist/ is built only when it is packed.
  ssr: { resolve: { conditions: ['gatehouse-source', ...defaultServerConditions] } },
  test: {
    // One migrated database per run, copied by every test file's (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each file starts its own service on its own database; a loaded 2-core machine needs patience, not retries.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll's own default (1 s) is a few of a busy browser's repaints: a poll waits as long as it must.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-modules',
          include: browser ? [browserSuites] : ['test/**/*.test.ts'],
          exclude: [...exclude, ...suitesReplacingModules],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own-modules', include: browser ? [] : suitesReplacingModules, exclude },
      },
    ],
  },
});
