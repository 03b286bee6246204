#!/usr/bin/env node
// `npm run test:mutation:check` (and .ci/run): fails when a file Stryker mutates changed since its score in
// bench/results/mutation.json was measured, or the total fell (issue 28; checkRecord in mutation-score.mjs). The cure
// for a changed file is `npm run test:mutation -- --stale`, which measures again only the groups holding it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { THRESHOLDS, checkRecord, mutatedFiles, sha256 } from './mutation-score.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const record = JSON.parse(readFileSync(path.join(root, 'bench/results/mutation.json'), 'utf8'));
const current = Object.fromEntries(mutatedFiles(root).map((f) => [f, sha256(readFileSync(path.join(root, f), 'utf8'))]));
const { problems, below } = checkRecord(record, current);
if (problems.length) {
  console.error(`Mutation score not fresh or too low (bench/results/mutation.json):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  console.error('Run `npm run test:mutation -- --stale` (incremental: only what changed is measured again), then commit bench/results.');
  process.exit(1);
}
console.log(`Mutation score ${record.total.score}% over ${Object.keys(current).length} files, each as it was measured`
  + ` (at least ${Math.min(THRESHOLDS.total, record.floor ?? THRESHOLDS.total)}% required).`);
if (below.length) console.log(`Not yet at ${THRESHOLDS.file}% (required once the total reaches ${THRESHOLDS.total}%):\n${below.map((b) => `- ${b}`).join('\n')}`);
