// `npm install` runs this (postinstall), so the first `npm start` has nothing left to make:
// - the embedded database's template, an empty cluster with every migration applied (src/server/db/pgliteTemplate.ts);
// - from it, the prepared demo database a new data folder is copied from (src/server/operator/demoImage.ts);
// - the compiled server (scripts/compile-server.mjs);
// - the website in dist/, when it is missing or older than its sources (src/server/spaBuild.ts).
// Each is skipped when it is up to date. Never fails the install: whatever could not be made here, a start makes
// (or does without) as before.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureTemplate, templateFile } from '../src/server/db/pgliteTemplate.ts';
import { demoImageDir, ensureDemoImage } from '../src/server/operator/demoImage.ts';
import { buildSpa, spaIsStale } from '../src/server/spaBuild.ts';
import { compileServer } from './compile-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = (began) => `${((Date.now() - began) / 1000).toFixed(1)} s`;
let began = Date.now();
if (await ensureTemplate()) console.log(`Database template ready: ${templateFile()} (${seconds(began)})`);
began = Date.now();
if (await ensureDemoImage()) console.log(`Demo database ready: ${demoImageDir()} (${seconds(began)})`);
began = Date.now();
try {
  console.log(`Server compiled: ${await compileServer()} (${seconds(began)})`);
} catch (err) {
  console.warn(`Could not compile the server (${err.message}); npm start will compile it.`);
}
const dist = path.join(root, 'dist');
if (process.env.SKIP_SPA_BUILD !== '1' && spaIsStale(root, dist)) {
  try {
    buildSpa(root, dist);
  } catch (err) {
    console.warn(`${err.message} npm start will try again.`);
  }
}
