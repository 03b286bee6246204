// Which flight a booking follows (issue 42 §2, §3, decision 58): each confirmed airport pickup with a flight number is
// linked to its flight's row (one per number, date and airport), a new flight due a check at once (the look-up at
// booking). A booking changed on the manage page (another flight, date or time, or no flight) is linked again, or
// unlinked and its pickup put back to the time booked. Read first without locks (most bookings need nothing), then
// each that does is locked and read again: another process may have linked it meanwhile, and linking it twice would
// put back the time booked and tell everyone again.
import type { Db } from '../db/index';
import { flightSettings } from '../../domain/flights';
import type { Settings } from '../../domain/settings';
import {
  FLIGHT_COLUMNS, FOLLOWING, bookedAt, followFlight, iso, stateOf, wantedLink, type FlightRow, type FollowDeps,
} from './follow';

export interface LinkRow {
  id: number; pick_up_address: string; flight_no: string | null; pick_up_date: string; pick_up_time: string;
  flight_id: number | null; booked_at: string | null; ident: string | null; flight_date: string | null; airport: string | null;
}
const LINK_COLUMNS = `b.id, b.pick_up_address, b.flight_no, b.pick_up_date::text AS pick_up_date, b.pick_up_time, bf.flight_id, bf.booked_at,
  f.ident, f.flight_date::text AS flight_date, f.airport`;
const LINK_FROM = 'bookings b LEFT JOIN booking_flights bf ON bf.booking_id = b.id LEFT JOIN flights f ON f.id = bf.flight_id';

/** Whether a booking's link is what it should be (nothing to do). */
export function linkStands(r: LinkRow): boolean {
  const want = wantedLink(r);
  if (!want) return r.flight_id === null;
  return r.ident === want.ident && r.flight_date === want.date && r.airport === want.airport && iso(r.booked_at) === want.booked;
}

/** The following bookings with a flight number or a link, read without locks. */
export function readLinks(db: Db, now: Date): Promise<LinkRow[]> {
  return db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM ${LINK_FROM}
      WHERE ${FOLLOWING} AND b.pickup_at > $1::timestamptz - interval '12 hours'
        AND ((b.flight_no IS NOT NULL AND b.flight_no <> '') OR bf.booking_id IS NOT NULL)`,
    [now.toISOString()]);
}

/**
 * Links one booking as it is once locked (what was read of it may be stale); whether it was linked anew. A flight
 * already known (another booking's, a visitor's look-up) is followed at once, in the same transaction, its row locked.
 */
export function linkOne(db: Db, deps: FollowDeps & { now: Date; settings: Settings }, stale: Pick<LinkRow, 'id'>): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [stale.id]);
    const [r] = await tx.query<LinkRow>(`SELECT ${LINK_COLUMNS} FROM ${LINK_FROM} WHERE b.id = $1 AND ${FOLLOWING}`, [stale.id]);
    if (!r || linkStands(r)) return false;
    const want = wantedLink(r);
    if (!want) {
      // No (longer a) flight to an airport: the pickup goes back to the time the booking names now.
      await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1',
        [r.id, bookedAt(r.pick_up_date, r.pick_up_time).toISOString()]);
      await tx.query('DELETE FROM booking_flights WHERE booking_id = $1', [r.id]);
      return false;
    }
    const [{ id }] = await tx.query<{ id: number }>(
      `INSERT INTO flights (ident, flight_date, airport) VALUES ($1, $2, $3)
         ON CONFLICT (ident, flight_date, airport) DO UPDATE SET ident = excluded.ident RETURNING id`, [want.ident, want.date, want.airport]);
    await tx.query(
      `INSERT INTO booking_flights (booking_id, flight_id, booked_at, told_pickup_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (booking_id) DO UPDATE SET flight_id = excluded.flight_id, booked_at = excluded.booked_at,
           told_pickup_at = excluded.told_pickup_at, told_status = NULL`, [r.id, id, want.booked]);
    await tx.query('UPDATE bookings SET original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = $2 WHERE id = $1', [r.id, want.booked]);
    const [flight] = await tx.query<FlightRow>(`SELECT ${FLIGHT_COLUMNS} FROM flights WHERE id = $1 FOR UPDATE`, [id]);
    const state = stateOf(flight);
    if (state) await followFlight(tx, deps, flight, state, flightSettings(deps.settings), deps.settings, deps.now, r.id);
    return true;
  });
}

/** Links every booking whose link does not stand; the ids linked anew. */
export async function linkBookings(db: Db, deps: FollowDeps & { now: Date; settings: Settings }): Promise<number[]> {
  const relinked: number[] = [];
  for (const stale of await readLinks(db, deps.now)) {
    if (!linkStands(stale) && await linkOne(db, deps, stale)) relinked.push(stale.id);
  }
  return relinked;
}
