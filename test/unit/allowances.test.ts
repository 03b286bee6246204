// Issue 28: the allowances are the numbers the README promises (its "Allowances" table), written here as numbers,
// so a changed limit fails here until the README and this promise change with it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { LIMITS as SIGN_IN } from '../../src/server/auth/throttle';

const PROMISED: Record<string, { max: number; minutes: number }> = {
  accountCreations: { max: 5, minutes: 60 },
  accountLookups: { max: 10, minutes: 60 },
  contactMessages: { max: 5, minutes: 60 },
  quoteRequests: { max: 5, minutes: 60 },
  bookings: { max: 10, minutes: 60 },
  confirmationsToAddress: { max: 3, minutes: 60 },
  bookingLookups: { max: 10, minutes: 60 },
  linksPerBooking: { max: 3, minutes: 60 },
  bookingChanges: { max: 20, minutes: 60 },
  cardFailures: { max: 5, minutes: 60 },
  cardFailuresPerBooking: { max: 3, minutes: 24 * 60 },
};

const readme = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
/** The README's allowance rows: the allowance's words by its RATE_LIMITS name. */
const rows = Object.fromEntries([...readme.matchAll(/^\| [^|]+ \| ([^|]+) \| `(\w+)` \|$/gm)].map((m) => [m[2], m[1].trim()]));

describe('the allowances', () => {
  it('are the numbers the README promises, each named in its table', () => {
    expect(Object.keys(rows).sort()).toEqual(Object.keys(PROMISED).sort());
    for (const [name, promise] of Object.entries(PROMISED)) {
      expect(rows[name], name).toMatch(new RegExp(`^${promise.max} (an hour|per)`));
      expect({ max: DEFAULT_LIMITS[name as keyof typeof DEFAULT_LIMITS].max, minutes: DEFAULT_LIMITS[name as keyof typeof DEFAULT_LIMITS].windowMinutes }, name)
        .toEqual(promise);
    }
  });

  it('count password checks 10 per e-mail and address, 50 per address, 100 per e-mail, as the README says', () => {
    expect(readme).toContain('| password checks (below) | 10 per e-mail and address, 50 per address, 100 per e-mail, each per 15 minutes | (fixed) |');
    expect(SIGN_IN).toEqual({ pair: 10, client: 50, account: 100 });
  });
});
