// The flight watcher (issue 42 §3, §4, decision 58): airport pickups follow their flights. Every minute each process
// (1) links the confirmed airport bookings with a flight number to their flight (one row per number, date and
// airport: ../db/migrations/027_flights.sql), (2) claims the flights due a check with a lease, as the message queue
// claims messages, so N processes make one call per flight per interval, (3) asks the service within the provider's
// allowance, and (4) moves each booking's pickup with the landing, on its timeline, telling the driver, the office and
// the passenger once per move worth telling. A provider that fails, stalls or talks nonsense changes nothing but
// "unavailable since"; the checks go on.
import type { Db, Queryable } from '../db/index';
import { recordChange, tellOffice } from '../bookings/bookingHistory';
import { loadBooking } from '../bookings/queries';
import { enqueueEmail, enqueueSms } from '../mail/queue';
import { pickupMovedMail } from '../mail/templates';
import { pickupMovedText, textable } from '../mail/texts';
import {
  airportByCode, airportOf, flightSettings, flightText, flightWords, followedPickup, nextCheckAt, parseFlightNumber, ukClock,
  worthTelling, type FlightSettings, type FlightState, type FlightStatus,
} from '../../domain/flights';
import { ukLocalToInstant } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import { checkedAnswer, withDeadline, type FlightAnswer, type FlightStatusService } from '../flightStatus/service';
import { takeCall } from '../flightStatus/allowance';

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
/** Flights checked in one round at most. */
const CLAIM_BATCH = 10;
/** Jobs past these statuses no longer follow the flight: the passenger is on board (or it is over). */
const FOLLOWING = "b.status = 'confirmed' AND (b.job_status IS NULL OR b.job_status NOT IN ('on_board', 'completed', 'no_show'))";

export interface FlightRow {
  id: number; ident: string; flight_date: string; airport: string; checked_at: string | null; unavailable_since: string | null;
  found: boolean | null; status: FlightStatus | null; origin: string | null; scheduled_in: string | null; estimated_in: string | null;
  actual_in: string | null; terminal: string | null;
}
export const FLIGHT_COLUMNS = `id, ident, flight_date::text AS flight_date, airport, checked_at, unavailable_since, found, status, origin,
  scheduled_in, estimated_in, actual_in, terminal`;

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** The flight a row holds, once the service found it. */
export function stateOf(f: FlightRow): FlightState | null {
  if (!f.found || !f.status || !f.scheduled_in) return null;
  return { status: f.status, origin: f.origin, scheduledIn: iso(f.scheduled_in)!, estimatedIn: iso(f.estimated_in), actualIn: iso(f.actual_in), terminal: f.terminal };
}

/** Whether two answers say the same of a flight (whatever order a provider wrote them in). */
const sameFlight = (a: FlightState | null, b: FlightState | null) => (a === null || b === null ? a === b
  : a.status === b.status && a.origin === b.origin && a.scheduledIn === b.scheduledIn && a.estimatedIn === b.estimatedIn
    && a.actualIn === b.actualIn && a.terminal === b.terminal);

const bookedAt = (date: string, time: string) => {
  const [h, m] = time.split(':').map(Number);
  return ukLocalToInstant(date, h, m);
};

/** What a booking should be linked to: its flight's number, date and airport and the instant booked; null for none. */
function wantedLink(b: { pick_up_address: string; flight_no: string | null; pick_up_date: string; pick_up_time: string }) {
  const airport = airportOf(b.pick_up_address);
  const number = parseFlightNumber(b.flight_no);
  if (!airport || !number) return null;
  return { ident: flightText(number), date: b.pick_up_date, airport: airport.iata, booked: bookedAt(b.pick_up_date, b.pick_up_time).toISOString() };
}

export interface LinkRow {
  id: number; pick_up_address: string; flight_no: string | null; pick_up_date: string; pick_up_time: string;
  flight_id: number | null; booked_at: string | null; ident: string | null; flight_date: string | null; airport: string | null;
}
const LINK_COLUMNS = `b.id, b.pick_up_address, b.flight_no, b.pick_up_date::text AS pick_up_date, b.pick_up_time, bf.flight_id, bf.booked_at,
  f.ident, f.flight_date::text AS flight_date, f.airport`;
const LINK_FROM = 'bookings b LEFT JOIN booking_flights bf ON bf.booking_id = b.id LEFT JOIN flights f ON f.id = bf.flight_id';

/** Whether a booking's link is what it should be (nothing to do). */
function linkStands(r: LinkRow): boolean {
  const want = wantedLink(r);
  if (!want) return r.flight_id === null;
  return r.ident === want.ident && r.flight_date === want.date && r.airport === want.airport && iso(r.booked_at) === want.booked;
}

/**
 * (1) Links each following airport booking to its flight; a new flight is due at once (the look-up at booking). Read
 * first without locks (most bookings need nothing), then each that does is locked and read again: another process may
 * have linked it meanwhile, and a second link would put back the time booked and tell everyone again.
 */
export async function linkBookings(db: Db, now: Date): Promise<number[]> {
  const relinked: number[] = [];
  for (const stale of await readLinks(db, now)) {
    if (!linkStands(stale) && await linkOne(db, stale)) relinked.push(stale.id);
  }
  return relinked;
}

/** The following airport bookings with a flight number and their links, read without locks. */
export function readLinks(db: Db, now: Date): Promise<LinkRow[]> {
  return db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM ${LINK_FROM}
      WHERE ${FOLLOWING} AND b.flight_no IS NOT NULL AND b.flight_no <> '' AND b.pickup_at > $1::timestamptz - interval '12 hours'`,
    [now.toISOString()]);
}

/** Links one booking as it is once locked (what was read of it may be stale); whether it was linked anew. */
export function linkOne(db: Db, stale: Pick<LinkRow, 'id'>): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [stale.id]);
    const [r] = await tx.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM ${LINK_FROM} WHERE b.id = $1 AND ${FOLLOWING}`, [stale.id]);
    if (!r || linkStands(r)) return false;
    const want = wantedLink(r);
    if (!want) {
      // Not (or no longer) a flight to an airport: the pickup goes back to the time booked.
      await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1',
        [r.id, iso(r.booked_at)]);
      await tx.query('DELETE FROM booking_flights WHERE booking_id = $1', [r.id]);
      return false;
    }
    const [flight] = await tx.query<{ id: number }>(
      `INSERT INTO flights (ident, flight_date, airport) VALUES ($1, $2, $3)
         ON CONFLICT (ident, flight_date, airport) DO UPDATE SET ident = excluded.ident RETURNING id`, [want.ident, want.date, want.airport]);
    await tx.query(
      `INSERT INTO booking_flights (booking_id, flight_id, booked_at, told_pickup_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (booking_id) DO UPDATE SET flight_id = excluded.flight_id, booked_at = excluded.booked_at,
           told_pickup_at = excluded.told_pickup_at, told_status = NULL`, [r.id, flight.id, want.booked]);
    await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1', [r.id, want.booked]);
    return true;
  });
}

/** (2) Claims the flights due a check that a following booking is on: each is this process's alone for the lease. */
export async function claimDue(db: Db, now: Date): Promise<FlightRow[]> {
  return db.query<FlightRow>(
    `UPDATE flights SET lease_until = $1::timestamptz + make_interval(secs => $2)
      WHERE id IN (SELECT f.id FROM flights f
                    WHERE f.next_check_at <= $1::timestamptz AND (f.lease_until IS NULL OR f.lease_until < $1::timestamptz)
                      AND EXISTS (SELECT 1 FROM booking_flights bf JOIN bookings b ON b.id = bf.booking_id
                                   WHERE bf.flight_id = f.id AND ${FOLLOWING} AND b.pickup_at > $1::timestamptz - interval '12 hours')
                    ORDER BY f.next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING ${FLIGHT_COLUMNS}`, [now.toISOString(), FLIGHT_LEASE_SECONDS, CLAIM_BATCH]);
}

/** The earliest booked pickup on a flight: when it is expected to land, before the service has said. */
async function expectedLanding(db: Queryable, flightId: number, fallback: Date): Promise<Date> {
  const [r] = await db.query<{ at: string | null }>('SELECT min(booked_at) AS at FROM booking_flights WHERE flight_id = $1', [flightId]);
  return r?.at ? new Date(r.at) : fallback;
}

/** When the flight is asked again: by what it said; a flight not found is asked again as if it lands when booked. */
async function nextCheck(db: Queryable, f: FlightRow, answer: FlightAnswer, now: Date, s: FlightSettings, horizonDays: number): Promise<Date | null> {
  const landingDay = ukLocalToInstant(f.flight_date, 0, 0);
  if (answer.found === null) return new Date(Math.max(now.getTime() + s.checkMinutes * 60_000, landingDay.getTime() - horizonDays * 86_400_000));
  return nextCheckAt(now, answer.found ? answer.flight : null, await expectedLanding(db, f.id, landingDay), s);
}

/**
 * (3) and (4) for one claimed flight. Returns whether the service answered. A lookup is made only within the
 * allowance; over it, the flight stays due and is let go for the next round.
 */
export async function checkFlight(deps: WatcherDeps, f: FlightRow, settings: Settings): Promise<'answered' | 'failed' | 'over'> {
  const { db, service } = deps;
  const s = flightSettings(settings);
  const now = deps.now();
  const airport = airportByCode(f.airport)!;
  const farAhead = ukLocalToInstant(f.flight_date, 0, 0).getTime() - now.getTime() > service.horizonDays * 86_400_000;
  let answer: FlightAnswer;
  if (farAhead) {
    answer = { found: null };
  } else {
    if (!await takeCall(db, service.provider, { perMinute: s.callsPerMinute, perDay: s.callsPerDay }, now)) {
      await db.query('UPDATE flights SET lease_until = NULL WHERE id = $1', [f.id]);
      return 'over';
    }
    try {
      answer = checkedAnswer(await withDeadline(service.lookup(f.ident, f.flight_date, airport, now), deps.timeoutMs ?? 10_000));
    } catch (err) {
      await failed(deps, f, (err as Error).message ?? String(err), s, now);
      return 'failed';
    }
  }
  const next = await nextCheck(db, f, answer, now, s, service.horizonDays);
  const after = answer.found ? answer.flight : null;
  await db.transaction(async (tx) => {
    // Compared with the row as it is now, locked: what another process (or the details step) stored meanwhile counts.
    const [current] = await tx.query<FlightRow>(`SELECT ${FLIGHT_COLUMNS} FROM flights WHERE id = $1 FOR UPDATE`, [f.id]);
    const was = current ?? f;
    const changed = answer.found !== was.found || !sameFlight(stateOf(was), after) || was.unavailable_since !== null;
    await tx.query(
      `UPDATE flights SET checked_at = $2, unavailable_since = NULL, last_error = NULL, lease_until = NULL, next_check_at = coalesce($3::timestamptz, 'infinity'),
              found = $4, status = $5, origin = $6, scheduled_in = $7, estimated_in = $8, actual_in = $9, terminal = $10
        WHERE id = $1`,
      [f.id, now.toISOString(), next?.toISOString() ?? null, answer.found, after?.status ?? null, after?.origin ?? null, after?.scheduledIn ?? null,
        after?.estimatedIn ?? null, after?.actualIn ?? null, after?.terminal ?? null]);
    if (after && changed) await followFlight(tx, deps, f.id, f.ident, after, s, settings, now);
  });
  deps.kick?.();
  return 'answered';
}

/** A failed lookup: the bookings keep their last known time, "unavailable since" the first failure; asked again soon. */
async function failed(deps: WatcherDeps, f: FlightRow, reason: string, s: FlightSettings, now: Date) {
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE flights SET unavailable_since = coalesce(unavailable_since, $2::timestamptz), last_error = $3, lease_until = NULL,
              next_check_at = $4::timestamptz WHERE id = $1`,
      [f.id, now.toISOString(), reason.slice(0, 300), new Date(now.getTime() + s.nearMinutes * 60_000).toISOString()]);
    if (f.unavailable_since === null) {
      // Said once on each booking's timeline (and heard by its live pages), not at every failed check.
      for (const b of await following(tx, f.id)) {
        await recordChange(tx, BY_SERVICE(deps.service), `Flight status unavailable: ${f.ident}`, b.id, '', null, { error: reason.slice(0, 300) });
      }
    }
  });
  deps.log?.(`Flight ${f.ident} (${f.flight_date}, ${f.airport}) not checked: ${reason}; trying again in ${s.nearMinutes} min`);
}

const BY_SERVICE = (service: FlightStatusService) => ({ staffId: null, name: `Flight status (${service.provider === 'test' ? 'test service' : service.name})` });

interface Following {
  id: number; booking_number: string; pickup_at: string; booked_at: string; told_pickup_at: string; told_status: string | null;
  company_email: string; driver: { name?: string; mobile?: string } | null;
}

/** The bookings on a flight that still follow it, locked for the change. */
async function following(tx: Queryable, flightId: number): Promise<Following[]> {
  return tx.query<Following>(
    `SELECT b.id, b.booking_number, b.pickup_at, bf.booked_at, bf.told_pickup_at, bf.told_status, c.contact_email AS company_email, b.driver
       FROM booking_flights bf JOIN bookings b ON b.id = bf.booking_id JOIN companies c ON c.id = b.company_id
      WHERE bf.flight_id = $1 AND ${FOLLOWING} ORDER BY b.id FOR UPDATE OF b, bf`, [flightId]);
}

/** (4) Moves each following booking's pickup with the flight; tells everyone of a move worth telling, once. */
export async function followFlight(tx: Queryable, deps: Pick<WatcherDeps, 'service' | 'siteUrl'>, flightId: number, ident: string,
  flight: FlightState, s: FlightSettings, settings: Settings, now: Date): Promise<void> {
  const words = flightWords(ident, flight);
  for (const b of await following(tx, flightId)) {
    const booked = new Date(b.booked_at);
    const pickup = followedPickup(booked, flight, s);
    const was = new Date(b.pickup_at);
    if (pickup.getTime() !== was.getTime()) await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1', [b.id, pickup.toISOString()]);
    await recordChange(tx, BY_SERVICE(deps.service), `Flight: ${words}`, b.id, '',
      { pickup: ukClock(was.toISOString()) }, { pickup: ukClock(pickup.toISOString()), status: flight.status, said_at: now.toISOString() });
    const told = new Date(b.told_pickup_at);
    if (worthTelling(told, pickup, s)) {
      await tellMove(tx, deps, b, pickup, booked, words, settings);
      await tx.query('UPDATE booking_flights SET told_pickup_at = $2 WHERE booking_id = $1', [b.id, pickup.toISOString()]);
    }
    if ((flight.status === 'cancelled' || flight.status === 'diverted') && b.told_status !== flight.status) {
      await tellOffice(tx, { settings, siteUrl: deps.siteUrl }, b, `Flight ${flight.status}: ${ident}`,
        [['Flight', words], ['What now', 'Call the passenger and decide the pickup']], BY_SERVICE(deps.service).name);
      await tx.query('UPDATE booking_flights SET told_status = $2 WHERE booking_id = $1', [b.id, flight.status]);
    }
  }
}

/** The driver (a text), the office (an e-mail) and the passenger (an e-mail and a text) learn the new time. */
async function tellMove(tx: Queryable, deps: Pick<WatcherDeps, 'service' | 'siteUrl'>, b: Following, pickup: Date, booked: Date, words: string, settings: Settings) {
  const result = (await loadBooking(tx, b.id))!;
  const newTime = ukClock(pickup.toISOString());
  const rows: [string, string][] = [['Pickup time', `${newTime} (booked ${ukClock(booked.toISOString())})`], ['Flight', words]];
  const ref = b.booking_number;
  if (b.driver?.mobile && textable(b.driver.mobile)) {
    await enqueueSms(tx, { kind: 'pickup_moved_sms', to: b.driver.mobile, label: `Pickup moved: ${ref}`, text: pickupMovedText(result, newTime, words, true, settings), bookingId: b.id });
  }
  await tellOffice(tx, { settings, siteUrl: deps.siteUrl }, b, `Pickup moved to ${newTime}`, rows, BY_SERVICE(deps.service).name);
  const p = result.passengerDetails;
  if (p.passenger_email) await enqueueEmail(tx, { kind: 'pickup_moved', to: p.passenger_email, ...pickupMovedMail(result, rows, settings), bookingId: b.id });
  if (textable(p.passenger_contact_no)) {
    await enqueueSms(tx, { kind: 'pickup_moved_sms', to: p.passenger_contact_no, label: `Pickup moved: ${ref}`, text: pickupMovedText(result, newTime, words, false, settings), bookingId: b.id });
  }
}

/** One round: link, claim, check. Returns the calls answered, failed and put off (over the allowance). */
export async function watchFlights(deps: WatcherDeps): Promise<{ answered: number; failed: number; over: number }> {
  const tally = { answered: 0, failed: 0, over: 0 };
  const relinked = await linkBookings(deps.db, deps.now());
  const settings = await deps.settings();
  if (relinked.length) await applyKnown(deps, relinked, settings);
  for (const f of await claimDue(deps.db, deps.now())) {
    const outcome = await checkFlight(deps, f, settings);
    tally[outcome]++;
  }
  return tally;
}

/** Bookings just linked to a flight already known (another booking's) follow it at once. */
async function applyKnown(deps: WatcherDeps, bookingIds: number[], settings: Settings) {
  const flights = await deps.db.query<FlightRow>(
    `SELECT ${FLIGHT_COLUMNS} FROM flights WHERE id IN (SELECT flight_id FROM booking_flights WHERE booking_id = ANY($1::int[])) AND found`, [bookingIds]);
  for (const f of flights) {
    const state = stateOf(f);
    if (state) await deps.db.transaction((tx) => followFlight(tx, deps, f.id, f.ident, state, flightSettings(settings), settings, deps.now()));
  }
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
