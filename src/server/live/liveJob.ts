// What the passenger's page shows of the job, live (issue 41 §3): read afresh after each change or position of the
// booking (./hub.ts). The pickup's place comes from the same gazetteer as the prices (../geo/places.ts).
import type { Queryable } from '../db/index';
import { findPlace } from '../geo/places';
import { isJobStatus } from '../../domain/driverJobs';
import { PASSENGER_JOB_WORDS, approach, sharesPosition, sharingStale, type LiveJob } from '../../domain/tracking';

interface Row {
  status: string; job_status: string | null; job_status_at: string | null; pick_up_address: string;
  driver: { name?: string; vehicle?: string; colour?: string; registration?: string } | null;
  lat: number | null; lon: number | null; recorded_at: string | null; pickup_at: string; flight_said: string | null;
}

export async function liveJob(db: Queryable, bookingId: number, now = new Date()): Promise<LiveJob | null> {
  const [r] = await db.query<Row>(
    `SELECT b.status, b.job_status, b.job_status_at, b.pick_up_address, b.driver, p.lat, p.lon, p.recorded_at, b.pickup_at,
            (SELECT concat_ws('|', f.status, f.estimated_in, f.actual_in, f.unavailable_since, f.found)
               FROM booking_flights bf JOIN flights f ON f.id = bf.flight_id WHERE bf.booking_id = b.id) AS flight_said
       FROM bookings b LEFT JOIN job_positions p ON p.booking_id = b.id WHERE b.id = $1`, [bookingId]);
  if (!r) return null;
  const confirmed = r.status === 'confirmed';
  const status = isJobStatus(r.job_status) ? r.job_status : null;
  const d = confirmed && r.driver?.name ? r.driver : null;
  let car: LiveJob['car'] = null;
  // A job stood still for hours (a forgotten page) shows no car: its position is no longer shared.
  const sharing = confirmed && sharesPosition(status) && !sharingStale(r.job_status_at ? new Date(r.job_status_at) : null, now);
  if (sharing && r.lat !== null && r.lon !== null && r.recorded_at) {
    const pickup = await findPlace(db, r.pick_up_address);
    car = {
      lat: r.lat, lon: r.lon, at: new Date(r.recorded_at).toISOString(), approach: pickup ? approach({ lat: r.lat, lon: r.lon }, pickup) : null,
      pickup: pickup ? { lat: pickup.lat, lon: pickup.lon } : null,
    };
  }
  return {
    booking_status: r.status,
    status: confirmed || status === 'completed' || status === 'no_show' ? status : null,
    words: status && (confirmed || status === 'completed' || status === 'no_show') ? PASSENGER_JOB_WORDS[status] : null,
    driver: d && { name: d.name!, vehicle: d.vehicle ?? '', colour: d.colour ?? null, registration: d.registration ?? '' },
    car,
    flight: r.flight_said === null ? null : { pickup_at: new Date(r.pickup_at).toISOString(), said: r.flight_said },
  };
}
