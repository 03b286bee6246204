import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const TEST_DIRS = ['test/unit', 'test/machine', 'test/api'];
const isTestFile = (file: string) => /\.test\.tsx?$/.test(file);

// A file that replaces a module (vi.mock) needs modules of its own: in a worker that already loaded the real one for
// an earlier file, the replacement would not reach the modules that import it.
const replacesModules = TEST_DIRS
  .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`))
  .filter((file) => isTestFile(file) && /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'node',
    globalSetup: ['test/api/globalSetup.ts'],
    // Vitest's default is one worker per core but one; both cores run test files here.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: ['test/unit/**/*.test.{ts,tsx}', 'test/machine/**/*.test.ts', 'test/api/**/*.test.ts'],
          exclude: replacesModules,
          // A worker keeps the modules it has loaded from one file to the next (loading the server again for every
          // file took a third of the run). Files share no state through them: each API file makes its own app and
          // database (test/api/setup.ts), and the machines and rules hold none.
          isolate: false,
        },
      },
      ...(replacesModules.length ? [{ extends: true as const, test: { name: 'own modules', include: replacesModules } }] : []),
    ],
  },
});
