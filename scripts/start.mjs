// `npm start`: runs the compiled server (scripts/compile-server.mjs), compiling it first when a source changed.
// Where it cannot be compiled (no esbuild, a read-only folder), the sources run through tsx as before.
import { pathToFileURL } from 'node:url';
import { compiledServer } from './compile-server.mjs';

let entry;
try {
  entry = pathToFileURL(await compiledServer()).href;
} catch (err) {
  console.warn(`Could not compile the server (${err.message}); running its sources with tsx instead.`);
  (await import('tsx/esm/api')).register();
  entry = new URL('../src/server/main.ts', import.meta.url).href;
}
await import(entry);
