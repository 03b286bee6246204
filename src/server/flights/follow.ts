// What a flight's news does to the bookings on it (issue 42 §3, decision 58): each booking still waiting for its
// passenger (not on board, not finished, not cancelled) and still meant for this flight moves its pickup with the
// landing, says so on its timeline, and tells the driver, the office and the passenger of a move worth telling, once.
// Everything here runs in the caller's transaction, the bookings locked.
import type { Queryable } from '../db/index';
import { recordChange, tellOffice } from '../bookings/bookingHistory';
import { loadBooking } from '../bookings/queries';
import { enqueueEmail, enqueueSms } from '../mail/queue';
import { pickupMovedMail } from '../mail/templates';
import { pickupMovedText, textable } from '../mail/texts';
import {
  airportOf, flightText, flightWords, followedPickup, parseFlightNumber, ukClock, worthTelling, type FlightSettings, type FlightState,
  type FlightStatus,
} from '../../domain/flights';
import { ukLocalToInstant } from '../../domain/ukTime';
import type { Settings } from '../../domain/settings';
import type { FlightStatusService } from '../flightStatus/service';

/** Jobs past these statuses no longer follow the flight: the passenger is on board (or it is over). */
export const FOLLOWING = "b.status = 'confirmed' AND (b.job_status IS NULL OR b.job_status NOT IN ('on_board', 'completed', 'no_show'))";

export interface FlightRow {
  id: number; ident: string; flight_date: string; airport: string; checked_at: string | null; unavailable_since: string | null;
  failures: number; lease_until: string | null;
  found: boolean | null; status: FlightStatus | null; origin: string | null; scheduled_in: string | null; estimated_in: string | null;
  actual_in: string | null; terminal: string | null;
}
export const FLIGHT_COLUMNS = `id, ident, flight_date::text AS flight_date, airport, checked_at, unavailable_since, failures, lease_until, found,
  status, origin, scheduled_in, estimated_in, actual_in, terminal`;

export const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/** The flight a row holds, once the service found it. */
export function stateOf(f: Pick<FlightRow, 'found' | 'status' | 'origin' | 'scheduled_in' | 'estimated_in' | 'actual_in' | 'terminal'>): FlightState | null {
  if (!f.found || !f.status || !f.scheduled_in) return null;
  return { status: f.status, origin: f.origin, scheduledIn: iso(f.scheduled_in)!, estimatedIn: iso(f.estimated_in), actualIn: iso(f.actual_in), terminal: f.terminal };
}

/** Whether two answers say the same of a flight (whatever order a provider wrote them in). */
export const sameFlight = (a: FlightState | null, b: FlightState | null) => (a === null || b === null ? a === b
  : a.status === b.status && a.origin === b.origin && a.scheduledIn === b.scheduledIn && a.estimatedIn === b.estimatedIn
    && a.actualIn === b.actualIn && a.terminal === b.terminal);

/** The instant a booking's date and time (UK, "07:15") name: its pickup as booked. */
export const bookedAt = (date: string, time: string) => {
  const [h, m] = time.split(':').map(Number);
  return ukLocalToInstant(date, h, m);
};

/** What a booking as it stands should follow: its flight's number, date and airport, and the instant booked; null for none. */
export function wantedLink(b: { pick_up_address: string; flight_no: string | null; pick_up_date: string; pick_up_time: string }) {
  const airport = airportOf(b.pick_up_address);
  const number = parseFlightNumber(b.flight_no);
  if (!airport || !number) return null;
  return { ident: flightText(number), date: b.pick_up_date, airport: airport.iata, booked: bookedAt(b.pick_up_date, b.pick_up_time).toISOString() };
}

export const BY_SERVICE = (service: Pick<FlightStatusService, 'provider' | 'name'>) => ({
  staffId: null, name: `Flight status (${service.provider === 'test' ? 'test service' : service.name})`,
});

interface Following {
  id: number; booking_number: string; pickup_at: string; booked_at: string; told_pickup_at: string; told_status: string | null;
  company_email: string; driver: { name?: string; mobile?: string } | null;
  pick_up_address: string; flight_no: string | null; pick_up_date: string; pick_up_time: string;
}

/**
 * The bookings on a flight that still follow it, locked for the change (one booking alone with `only`). A booking
 * changed since it was linked (another flight, date, time or airport on the manage page) is left out: the next round
 * links it again, and news of its old flight must not move it meanwhile.
 */
export async function following(tx: Queryable, flight: Pick<FlightRow, 'id' | 'ident' | 'flight_date' | 'airport'>, only?: number): Promise<Following[]> {
  const rows = await tx.query<Following>(
    `SELECT b.id, b.booking_number, b.pickup_at, bf.booked_at, bf.told_pickup_at, bf.told_status, c.contact_email AS company_email, b.driver,
            b.pick_up_address, b.flight_no, b.pick_up_date::text AS pick_up_date, b.pick_up_time
       FROM booking_flights bf JOIN bookings b ON b.id = bf.booking_id JOIN companies c ON c.id = b.company_id
      WHERE bf.flight_id = $1 AND ($2::int IS NULL OR b.id = $2) AND ${FOLLOWING} ORDER BY b.id FOR UPDATE OF b, bf`, [flight.id, only ?? null]);
  return rows.filter((b) => {
    const want = wantedLink(b);
    return want !== null && want.ident === flight.ident && want.date === flight.flight_date && want.airport === flight.airport
      && want.booked === iso(b.booked_at);
  });
}

export interface FollowDeps { service: Pick<FlightStatusService, 'provider' | 'name'>; siteUrl: string }

/** Moves each following booking's pickup with the flight; tells everyone of a move worth telling, once. */
export async function followFlight(tx: Queryable, deps: FollowDeps, flight: Pick<FlightRow, 'id' | 'ident' | 'flight_date' | 'airport'>,
  state: FlightState, s: FlightSettings, settings: Settings, now: Date, only?: number): Promise<void> {
  const words = flightWords(flight.ident, state);
  for (const b of await following(tx, flight, only)) {
    const booked = new Date(b.booked_at);
    const pickup = followedPickup(booked, state, s);
    const was = new Date(b.pickup_at);
    if (pickup.getTime() !== was.getTime()) {
      await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1', [b.id, pickup.toISOString()]);
    }
    await recordChange(tx, BY_SERVICE(deps.service), `Flight: ${words}`, b.id, '',
      { pickup: ukClock(was.toISOString()) }, { pickup: ukClock(pickup.toISOString()), status: state.status, said_at: now.toISOString() });
    if (worthTelling(new Date(b.told_pickup_at), pickup, s)) {
      await tellMove(tx, deps, b, pickup, booked, words, settings);
      await tx.query('UPDATE booking_flights SET told_pickup_at = $2 WHERE booking_id = $1', [b.id, pickup.toISOString()]);
    }
    if ((state.status === 'cancelled' || state.status === 'diverted') && b.told_status !== state.status) {
      await tellOffice(tx, { settings, siteUrl: deps.siteUrl }, b, `Flight ${state.status}: ${flight.ident}`,
        [['Flight', words], ['What now', 'Call the passenger and decide the pickup']], BY_SERVICE(deps.service).name);
      await tx.query('UPDATE booking_flights SET told_status = $2 WHERE booking_id = $1', [b.id, state.status]);
    }
  }
}

/** The driver (a text), the office (an e-mail) and the passenger (an e-mail and a text) learn the new time. */
async function tellMove(tx: Queryable, deps: FollowDeps, b: Following, pickup: Date, booked: Date, words: string, settings: Settings) {
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
