import { defineConfig } from 'vitest/config';

// The tests Stryker runs for each mutant of the `rules` group and the machines' groups (scripts/mutation-score.mjs):
// unit and machine tests, which exercise src/domain and machines directly and start no database or server process.
// A machines group names its own (MUTATION_TEST_FILES): its static mutants run every one of them. The server's
// groups run their own API files (vitest.mutation.server.config.ts); with every API file, one surviving mutant of a
// shared schema cost half a minute (docs/mutation.md).
const named = (process.env.MUTATION_TEST_FILES ?? '').split(',').filter(Boolean);

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: named.length ? named : ['test/unit/**/*.test.{ts,tsx}', 'test/machine/**/*.test.ts'],
    exclude: ['test/unit/data-lock.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
