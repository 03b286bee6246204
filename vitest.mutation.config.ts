import { defineConfig } from 'vitest/config';

// The tests Stryker runs for each mutant of the `rules` and `machines` groups (scripts/mutation-score.mjs): the unit
// and machine tests, which exercise src/domain and machines directly and start no database or server process. The
// server's groups run their own API files (vitest.mutation.server.config.ts); with every API file, one surviving
// mutant of a shared schema cost half a minute (docs/mutation.md).
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/machine/**/*.test.ts'],
    exclude: ['test/unit/data-lock.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
