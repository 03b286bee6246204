import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    include: ['test/unit/**/*.test.{ts,tsx}', 'test/machine/**/*.test.ts', 'test/api/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/api/globalSetup.ts'],
    // Vitest's default is one worker per core but one; both cores run test files here.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
