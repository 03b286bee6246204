// One server for the browser tests of a run, started as `npm start` starts it.
// (The persistence test in book-and-pay-in-car.test.ts stops and restarts a server, so it has its own.)
import type { TestProject } from 'vitest/node';
import { E2E_TOKEN, removeDir, startServer } from './harness';

declare module 'vitest' {
  export interface ProvidedContext { e2eServer: { url: string; dataDir: string; token: string } }
}

export default async function setup(project: TestProject) {
  const server = await startServer();
  project.provide('e2eServer', { url: server.url, dataDir: server.dataDir, token: E2E_TOKEN });
  return async () => {
    await server.stop();
    removeDir(server.dataDir);
  };
}
