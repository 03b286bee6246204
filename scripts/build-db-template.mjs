// `npm install` runs this (postinstall): builds the embedded database's template, an empty cluster with every
// migration applied, so a first `npm start` on a new data folder skips initdb (src/server/db/pgliteTemplate.ts).
// Never fails the install: without a template a new database is made the slow way.
import { ensureTemplate, templateFile } from '../src/server/db/pgliteTemplate.ts';

const began = Date.now();
if (await ensureTemplate()) console.log(`Database template ready: ${templateFile()} (${((Date.now() - began) / 1000).toFixed(1)} s)`);
