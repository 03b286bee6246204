// `npm install` runs this (postinstall): builds the embedded database's template, an empty cluster with every
// migration applied (src/server/db/pgliteTemplate.ts), and from it the prepared demo database that a first
// `npm start` on a new data folder copies (src/server/operator/demoImage.ts); then compiles the server
// (scripts/compile-server.mjs). Never fails the install: without them a start does each the slower way.
import { ensureTemplate, templateFile } from '../src/server/db/pgliteTemplate.ts';
import { demoImageDir, ensureDemoImage } from '../src/server/operator/demoImage.ts';
import { compileServer } from './compile-server.mjs';

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
