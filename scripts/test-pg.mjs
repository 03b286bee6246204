// Runs the API test suite again on a real PostgreSQL server when
// TEST_DATABASE_URL names one (.ci/run starts a throwaway cluster and sets it).
import { spawnSync } from 'node:child_process';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.log('TEST_DATABASE_URL is not set: the API suite ran on embedded PGlite only. (.ci/run also runs it on PostgreSQL.)');
  process.exit(0);
}
console.log(`API suite on PostgreSQL: ${url.replace(/\/\/[^@]*@/, '//***@')}`);
const result = spawnSync('npx', ['vitest', 'run', 'test/api'], {
  stdio: 'inherit',
  env: { ...process.env, API_TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);
