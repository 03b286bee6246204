import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs for the mutants of one group of the server's files (scripts/mutation-run.mjs names them in
// MUTATION_TEST_FILES): the API tests that drive those rules through the routes on a seeded database, and the unit
// tests. A surviving mutant runs every test that reaches it, so each group names the API files written for its rules
// rather than all of them (with all of them, a survivor in the pricing rules cost the whole API suite, about a
// minute). A file that replaces modules (vi.mock) runs in a project of its own, as in vitest.config.ts.
const named = (process.env.MUTATION_TEST_FILES ?? '').split(',').filter(Boolean);
const replacesModules = named.filter((f) => /\bvi\.(mock|doMock)\(/.test(readFileSync(f, 'utf8')));
const shared = named.filter((f) => !replacesModules.includes(f));

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    globalSetup: ['test/api/globalSetup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: [...shared, 'test/unit/**/*.test.{ts,tsx}'],
          exclude: ['test/unit/data-lock.test.ts'],
          isolate: false,
        },
      },
      ...(replacesModules.length ? [{ extends: true as const, test: { name: 'own modules', include: replacesModules } }] : []),
    ],
  },
});
