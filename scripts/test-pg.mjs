// `npm run test:pg`: the API test suite again, on a real PostgreSQL server.
//
// With TEST_DATABASE_URL set, on that server. Without it, on a throwaway
// PostgreSQL started here (scripts/pg-throwaway.mjs), stopped and its folder
// removed when the suite ends, fails, or the run is interrupted. Where neither
// can run, CI fails and a developer's machine skips, saying so (test-pg-plan.mjs).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED_PACKAGE, startThrowawayPostgres } from './pg-throwaway.mjs';
import { testPgPlan } from './test-pg-plan.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the API suite on url; resolves with vitest's exit code. */
function runApiSuite(url) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/api'], {
      cwd: ROOT, stdio: 'inherit', env: { ...process.env, API_TEST_DATABASE_URL: url },
    });
    running.vitest = child;
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (err) => { console.error(err); resolve(1); });
  });
}

const running = { vitest: null, stopPostgres: null };

const given = process.env.TEST_DATABASE_URL;
const plan = testPgPlan({
  url: given, platform: process.platform, arch: process.arch, ci: Boolean(process.env.CI && process.env.CI !== 'false'), embeddedPackage: EMBEDDED_PACKAGE,
});
if (plan.run === 'given') {
  console.log(`API suite on PostgreSQL: ${given.replace(/\/\/[^@]*@/, '//***@')}`);
  process.exit(await runApiSuite(given));
}
if (plan.run === 'none') {
  (plan.exitCode ? console.error : console.log)(plan.message);
  process.exit(plan.exitCode);
}

let cleaned = null;
function cleanup() {
  cleaned ??= (async () => {
    if (running.vitest && running.vitest.exitCode === null) running.vitest.kill('SIGTERM');
    await running.stopPostgres?.();
  })();
  return cleaned;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.error(`\ntest:pg: ${signal}: stopping PostgreSQL and removing its folder`);
    cleanup().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

let status = 1;
try {
  const postgres = await startThrowawayPostgres({ onStop: (stop) => { running.stopPostgres = stop; } });
  console.log(`API suite on a throwaway PostgreSQL ${postgres.version} from ${postgres.from} on 127.0.0.1:${postgres.port} `
    + `(initdb ${postgres.initSeconds.toFixed(1)} s, start ${postgres.startSeconds.toFixed(1)} s${postgres.asPostgresUser ? ', as the OS user postgres' : ''}; `
    + `data in ${postgres.dir}, removed afterwards)`);
  status = await runApiSuite(postgres.url);
} catch (err) {
  console.error(`test:pg: ${err.message}`);
  status = 1;
} finally {
  await cleanup();
}
process.exit(status);
