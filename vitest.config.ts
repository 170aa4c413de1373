import { defineConfig } from 'vitest/config';

export default defineConfig({
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
