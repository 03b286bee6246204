// How long the site keeps what it no longer needs, as the default Privacy Policy
// (src/domain/sitePages.ts) says: contact messages and quote requests 12 months,
// sent e-mails 90 days after sending, reset codes and sign-in records 30 days, drivers' codes a day and their ended
// sessions at once, a car's position three hours after it was sent.
// Bookings are the operator's accounts and are not deleted here. Runs at start
// and with the periodic jobs of main.ts.
import type { Queryable } from '../db/index';

/** Table, the time its rows count from, and how long they are kept. */
export const RETENTION = [
  ['contact_messages', 'created_at', '12 months'],
  ['quote_requests', 'created_at', '12 months'],
  // From when it was sent: one still waiting, held or failed stays until it is sent or looked at.
  ['outbound_emails', 'sent_at', '90 days'],
  ['password_reset_codes', 'created_at', '30 days'],
  // Sign-in limits' windows, and sign-in tokens (which end after 30 days in all anyway).
  ['auth_throttle', 'window_started', '30 days'],
  ['passenger_tokens', 'created_at', '30 days'],
  // Allowances (limits.ts): the longest window is a day.
  ['rate_limits', 'window_started', '2 days'],
  // Drivers' sign-in codes (they work for 10 minutes), and their sessions once ended by 30 days unused (issue 41).
  ['driver_codes', 'created_at', '1 day'],
  ['driver_sessions', 'last_used_at', '30 days'],
  // The car's last position: gone as the job moves on (migration 025), and in any case three hours after it was sent.
  ['job_positions', 'recorded_at', '3 hours'],
  // Calls counted against the flight provider's allowance (the longest window is a day), and the flights followed:
  // what the service said of a flight is kept 90 days after it (the bookings' timelines keep what it meant for them).
  ['provider_calls', 'at', '2 days'],
  ['flights', 'flight_date', '90 days'],
] as const;

/** Deletes what has passed its time; answers how many rows went, per table. */
export async function purgeExpiredRecords(db: Queryable, now: Date = new Date()): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const [table, since, age] of RETENTION) {
    const rows = await db.query(`DELETE FROM ${table} WHERE ${since} < $1::timestamptz - $2::interval RETURNING 1`, [now.toISOString(), age]);
    removed[table] = rows.length;
  }
  return removed;
}
