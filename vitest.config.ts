import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test` runs everything but the browser suites, which need Debian's Chromium; `npm run test:browser`
 * (GATEHOUSE_TESTS=browser) runs only those. CI runs both.
 */
const browserSuites = 'test/browser/**/*.test.ts';
const browser = process.env['GATEHOUSE_TESTS'] === 'browser';

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) with no `exports` map: Node loads the CommonJS one for
    // everyone, Vite would give our sources the ESM one, and graphql's instanceof checks then fail across the two.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: browser ? [browserSuites] : ['test/**/*.test.ts'],
    exclude: browser ? configDefaults.exclude : [...configDefaults.exclude, browserSuites],
    // One migrated database per run, copied by every test file's (test/support/database.ts).
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each file starts its own service on its own database; a loaded 2-core machine needs patience, not retries.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
