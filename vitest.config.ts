import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 ships CommonJS (`main`) and ESM (`module`) with no `exports` map: Node loads the CommonJS one for
    // everyone, Vite would give our sources the ESM one, and graphql's instanceof checks then fail across the two.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each file starts its own service on its own database; a loaded 2-core machine needs patience, not retries.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
