import { defineConfig } from 'vitest/config';

// The tests Stryker runs for each mutant (stryker.config.json): the unit and machine tests, which exercise
// src/domain and machines directly and start no database or server process. The API tests are left out of the
// per-mutant runs: each API file starts its own database (about 1 s), so a surviving mutant that twenty of them
// cover costs half a minute, and a full run would take hours on two cores (docs/mutation.md).
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/machine/**/*.test.ts'],
    exclude: ['test/unit/data-lock.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});
