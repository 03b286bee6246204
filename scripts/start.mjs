// `npm start`: runs the compiled server (scripts/compile-server.mjs), compiling it first when a source changed.
import { pathToFileURL } from 'node:url';
import { compiledServer } from './compile-server.mjs';

await import(pathToFileURL(await compiledServer()).href);
