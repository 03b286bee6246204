// The flight watcher (issue 42 §3, §4, decision 58): airport pickups follow their flights. Every minute each process
// (1) links the confirmed airport bookings with a flight number to their flight (./links.ts), (2) claims a flight due
// a check with a lease, as the message queue claims messages, so N processes make one call per flight per interval,
// (3) asks the service within the provider's allowance, and (4) moves each booking's pickup with the landing
// (./follow.ts), then claims the next, until none is due. A provider that fails, stalls or talks nonsense changes
// nothing but "unavailable since", and is asked again later and later (up to an hour); the checks go on.
import type { Db } from '../db/index';
import { recordChange } from '../bookings/bookingHistory';
import {
  airportByCode, flightSettings, nextCheckAt, retryMinutes, withinHorizon, type FlightSettings,
} from '../../domain/flights';
import { ukLocalToInstant } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import { checkedAnswer, withDeadline, type FlightAnswer, type FlightStatusService } from '../flightStatus/service';
import { takeCall } from '../flightStatus/allowance';
import { BY_SERVICE, FLIGHT_COLUMNS, FOLLOWING, followFlight, following, iso, sameFlight, stateOf, type FlightRow } from './follow';
import { linkBookings } from './links';

export type { FlightRow } from './follow';
export { FLIGHT_COLUMNS, stateOf } from './follow';
export { linkOne, readLinks } from './links';

export interface WatcherDeps {
  db: Db;
  service: FlightStatusService;
  settings: () => Promise<Settings>;
  siteUrl: string;
  now: () => Date;
  /** The message queue's kick: what the watcher wrote goes out at once. */
  kick?: () => void;
  log?: (line: string) => void;
  /** A lookup not answered within this long is a fault (default 10 s). */
  timeoutMs?: number;
}

/** A claimed flight's lease: longer than one lookup's timeout. */
export const FLIGHT_LEASE_SECONDS = 60;
/** Flights checked in one round at most (the rest wait for the next round, a minute later). */
export const ROUND_LIMIT = 200;

/**
 * (2) Claims the flight due longest that a following booking is on: this process's alone for the lease, its
 * `lease_until` the token that what it writes back is still its own.
 */
export async function claimDue(db: Db, now: Date): Promise<FlightRow | null> {
  const [row] = await db.query<FlightRow>(
    `UPDATE flights SET lease_until = $1::timestamptz + make_interval(secs => $2)
      WHERE id = (SELECT f.id FROM flights f
                   WHERE f.next_check_at <= $1::timestamptz AND (f.lease_until IS NULL OR f.lease_until < $1::timestamptz)
                     AND EXISTS (SELECT 1 FROM booking_flights bf JOIN bookings b ON b.id = bf.booking_id
                                  WHERE bf.flight_id = f.id AND ${FOLLOWING} AND b.pickup_at > $1::timestamptz - interval '12 hours')
                   ORDER BY f.next_check_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING ${FLIGHT_COLUMNS}`, [now.toISOString(), FLIGHT_LEASE_SECONDS]);
  return row ?? null;
}

/** The earliest booked pickup on a flight: when it is expected to land, before the service has said. */
async function expectedLanding(db: Db, flightId: number, fallback: Date): Promise<Date> {
  const [r] = await db.query<{ at: string | null }>('SELECT min(booked_at) AS at FROM booking_flights WHERE flight_id = $1', [flightId]);
  return r?.at ? new Date(r.at) : fallback;
}

/** When the flight is asked again: by what it said; a flight not found as if it lands when booked, then not at all. */
async function nextCheck(db: Db, f: FlightRow, answer: FlightAnswer, now: Date, s: FlightSettings, horizonDays: number): Promise<Date | null> {
  const landingDay = ukLocalToInstant(f.flight_date, 0, 0);
  if (answer.found === null) return new Date(Math.max(now.getTime() + s.checkMinutes * 60_000, landingDay.getTime() - (horizonDays - 1) * 86_400_000));
  return nextCheckAt(now, answer.found ? answer.flight : null, await expectedLanding(db, f.id, landingDay), s);
}

/** The claim still ours: the lease we took is the row's (another process took it when ours ran out: it is theirs). */
const STILL_OURS = 'id = $1 AND lease_until = $2::timestamptz';

/**
 * (3) and (4) for one claimed flight. A lookup is made only within the provider's horizon and its allowance; over
 * the allowance the flight stays due and is let go. What is written back is written only while the lease is ours.
 */
export async function checkFlight(deps: WatcherDeps, f: FlightRow, settings: Settings): Promise<'answered' | 'failed' | 'over' | 'lost'> {
  const { db, service } = deps;
  const s = flightSettings(settings);
  const now = deps.now();
  const lease = iso(f.lease_until)!;
  let answer: FlightAnswer;
  if (!withinHorizon(f.flight_date, now, service.horizonDays)) {
    answer = { found: null };
  } else {
    if (!await takeCall(db, service.provider, { perMinute: s.callsPerMinute, perDay: s.callsPerDay }, now)) {
      await db.query(`UPDATE flights SET lease_until = NULL WHERE ${STILL_OURS}`, [f.id, lease]);
      return 'over';
    }
    try {
      answer = checkedAnswer(await withDeadline(service.lookup(f.ident, f.flight_date, airportByCode(f.airport)!, now), deps.timeoutMs ?? 10_000));
    } catch (err) {
      return failed(deps, f, lease, (err as Error)?.message ?? String(err), s, now);
    }
  }
  const next = await nextCheck(db, f, answer, now, s, service.horizonDays);
  const after = answer.found ? answer.flight : null;
  const outcome = await db.transaction(async (tx) => {
    // Compared with the row as it is now, locked: what was stored meanwhile counts.
    const [was] = await tx.query<FlightRow>(`SELECT ${FLIGHT_COLUMNS} FROM flights WHERE id = $1 FOR UPDATE`, [f.id]);
    if (!was || iso(was.lease_until) !== lease) return 'lost' as const;
    const changed = answer.found !== was.found || !sameFlight(stateOf(was), after) || was.unavailable_since !== null;
    await tx.query(
      `UPDATE flights SET checked_at = $2, unavailable_since = NULL, failures = 0, last_error = NULL, lease_until = NULL,
              next_check_at = coalesce($3::timestamptz, 'infinity'), found = $4, status = $5, origin = $6, scheduled_in = $7, estimated_in = $8,
              actual_in = $9, terminal = $10
        WHERE id = $1`,
      [f.id, now.toISOString(), next?.toISOString() ?? null, answer.found, after?.status ?? null, after?.origin ?? null, after?.scheduledIn ?? null,
        after?.estimatedIn ?? null, after?.actualIn ?? null, after?.terminal ?? null]);
    if (after && changed) await followFlight(tx, deps, f, after, s, settings, now);
    return 'answered' as const;
  });
  if (outcome === 'answered') deps.kick?.();
  return outcome;
}

/**
 * A failed lookup: the bookings keep their last known time, "unavailable since" the first failure (said once on each
 * booking's timeline); asked again after nearMinutes, doubled at each failure in a row, at most an hour.
 */
async function failed(deps: WatcherDeps, f: FlightRow, lease: string, reason: string, s: FlightSettings, now: Date): Promise<'failed' | 'lost'> {
  const wait = retryMinutes(f.failures + 1, s);
  const mine = await deps.db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE flights SET unavailable_since = coalesce(unavailable_since, $3::timestamptz), failures = failures + 1, last_error = $4, lease_until = NULL,
              next_check_at = $3::timestamptz + make_interval(mins => $5) WHERE ${STILL_OURS} RETURNING id`,
      [f.id, lease, now.toISOString(), reason.slice(0, 300), wait]);
    if (!rows.length) return false;
    if (f.unavailable_since === null) {
      for (const b of await following(tx, f)) {
        await recordChange(tx, BY_SERVICE(deps.service), `Flight status unavailable: ${f.ident}`, b.id, '', null, { error: reason.slice(0, 300) });
      }
    }
    return true;
  });
  deps.log?.(`Flight ${f.ident} (${f.flight_date}, ${f.airport}) not checked: ${reason}; trying again in ${wait} min`);
  return mine ? 'failed' : 'lost';
}

/** One round: link, then claim and check one flight after another until none is due. */
export async function watchFlights(deps: WatcherDeps): Promise<{ answered: number; failed: number; over: number; lost: number }> {
  const tally = { answered: 0, failed: 0, over: 0, lost: 0 };
  const settings = await deps.settings();
  await linkBookings(deps.db, { service: deps.service, siteUrl: deps.siteUrl, now: deps.now(), settings });
  for (let i = 0; i < ROUND_LIMIT; i++) {
    const f = await claimDue(deps.db, deps.now());
    if (!f) break;
    const outcome = await checkFlight(deps, f, settings);
    tally[outcome]++;
    if (outcome === 'over') break;
  }
  return tally;
}

/** The watcher in the background: a round a minute, one at a time. */
export class FlightWatcher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private deps: WatcherDeps) {}

  round(): Promise<unknown> {
    this.running ??= watchFlights(this.deps)
      .catch((err) => this.deps.log?.(`Flight check round failed: ${(err as Error).message}`))
      .finally(() => { this.running = null; });
    return this.running;
  }

  start(intervalMs = 60_000) {
    this.timer = setInterval(() => { void this.round(); }, intervalMs);
    this.timer.unref();
    const first = setTimeout(() => { void this.round(); }, Math.min(intervalMs, 5_000));
    first.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
