#!/usr/bin/env node
// QA's generated paths in Chromium (test/paths): every transition of every machine, on the real page against the
// real server. `npm run test:paths` runs them all (and checks each machine's transitions are all taken);
// `npm run test:paths -- --grep card` runs the paths whose name contains "card" (coverage is then only reported);
// `--machine account` runs one machine's file. Other arguments go to vitest.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const passed = [];
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--grep') passed.push('-t', args[++i]);
  else if (args[i] === '--machine') files.push(`test/paths/${args[++i]}.paths.test.ts`);
  else passed.push(args[i]);
}
const run = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...(files.length ? files : ['test/paths']), ...passed], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
