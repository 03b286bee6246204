// A booking's flight as every page shows it (issue 42 §3): the board, the driver's job, the passenger's page and the
// console's booking read it here, so they say the same thing: the flight's status, the pickup as it stands now and
// the booked time beside it, or since when the service has not answered.
import type { Queryable } from '../db/index';
import {
  airportByCode, flightWords, movedWords, notFoundWords, unavailableWords, type BookingFlight,
} from '../../domain/flights';
import { stateOf, type FlightRow } from './follow';

/** The flights of these bookings, by booking id (bookings on no watched flight are absent). */
export async function bookingFlights(db: Queryable, bookingIds: number[]): Promise<Map<number, BookingFlight>> {
  const out = new Map<number, BookingFlight>();
  if (!bookingIds.length) return out;
  const rows = await db.query<Omit<FlightRow, 'failures' | 'lease_until'> & { booking_id: number; pickup_at: string; booked_at: string }>(
    `SELECT bf.booking_id, b.pickup_at, bf.booked_at, f.id, f.ident, f.flight_date::text AS flight_date, f.airport, f.checked_at,
            f.unavailable_since, f.found, f.status, f.origin, f.scheduled_in, f.estimated_in, f.actual_in, f.terminal
       FROM booking_flights bf JOIN flights f ON f.id = bf.flight_id JOIN bookings b ON b.id = bf.booking_id
      WHERE bf.booking_id = ANY($1::int[])`, [bookingIds]);
  for (const r of rows) {
    const state = stateOf(r);
    const pickup = new Date(r.pickup_at);
    const booked = new Date(r.booked_at);
    out.set(r.booking_id, {
      number: r.ident, status: state?.status ?? null, words: state ? flightWords(r.ident, state) : null, terminal: state?.terminal ?? null,
      pickup_at: pickup.toISOString(), booked_at: booked.toISOString(), moved: pickup.getTime() !== booked.getTime(),
      moved_words: movedWords(pickup, booked),
      unavailable: r.unavailable_since ? unavailableWords(new Date(r.unavailable_since)) : null,
      not_found: r.found === false ? notFoundWords(r.ident, airportByCode(r.airport)!, r.flight_date) : null,
    });
  }
  return out;
}

export async function bookingFlight(db: Queryable, bookingId: number): Promise<BookingFlight | null> {
  return (await bookingFlights(db, [bookingId])).get(bookingId) ?? null;
}
