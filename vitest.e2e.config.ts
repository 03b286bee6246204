import { defineConfig } from 'vitest/config';

// Browser tests: Chromium (see test/e2e/chromium.ts) driven by playwright-core against the real server.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts', 'test/paths/**/*.paths.test.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    environment: 'node',
    // Two files at a time, each on its own server (test/e2e/globalSetup.ts): a browser test mostly waits.
    maxWorkers: 2,
    // A worker keeps playwright, axe and the models it has loaded from one file to the next; each file still gets its
    // own browser, pages and hooks (harness.ts), and no file replaces a module.
    isolate: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // `expect.poll` waits as long as Playwright's own waits (30 s), not vitest's default second: a page that a busy
    // machine draws slowly is still waited for (no test may depend on speed).
    expect: { poll: { timeout: 30_000, interval: 100 } },
  },
});
