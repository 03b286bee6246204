// The car's place while a job is on the way (issue 41 §3 and §6, decision 57): the driver's page sends the browser's
// position every POSITION_EVERY_SECONDS; it is kept as the job's one last position (migration 025) when it is a number,
// in the UK, and not further from the last one than 200 mph allows, and only while the job is on the way or at the
// pickup. Each stored position is NOTIFYed to the job's watchers (../live/hub.ts).
import type { Db } from '../db/index';
import { DomainError } from '../errors';
import { LIVE_CHANNEL_SQL, positionPayload } from '../live/hub';
import { SHARING_STALE_HOURS, impossibleMove, positionProblems, sharesPosition, sharingStale, tooSoon } from '../../domain/tracking';
import type { Driver } from './signIn';

export const POSITION_MESSAGES = {
  notSharing: 'This job is not on the way: its position is not shared.',
  stale: `This job has not moved on for over ${SHARING_STALE_HOURS} hours: its position is no longer shared. Tap the next step, or ask the office.`,
  tooFast: 'This position is too far from the last one to be the car (faster than 200 mph), so it was not stored.',
} as const;

export interface PositionBody { lat?: unknown; lng?: unknown; accuracy?: unknown }

/**
 * Stores a position of one of the driver's jobs (404 for another's), as the job's last. Refused with the field and
 * the reason (422) when it is not a number or outside the UK or an impossible jump, and (409) when the job is not on
 * the way or at the pickup, or its status has stood still for SHARING_STALE_HOURS. One sooner than
 * MIN_POSITION_GAP_SECONDS after the stored one is not taken ({ stored: false }). The job's row is locked before the
 * stored position is read, so two positions sent at once are checked one after the other.
 */
export async function recordPosition(db: Db, driver: Driver, reference: string, body: PositionBody, now: Date): Promise<{ stored: boolean }> {
  const problem = positionProblems(body)[0];
  if (problem) throw new DomainError('invalid', problem.message, problem.field);
  const lat = body.lat as number;
  const lon = body.lng as number;
  const accuracy = typeof body.accuracy === 'number' ? Math.round(body.accuracy) : null;
  const ref = reference.trim().toUpperCase();
  return db.transaction(async (tx) => {
    const [job] = await tx.query<{ id: number; status: string; job_status: string | null; job_status_at: string | null }>(
      'SELECT id, status, job_status, job_status_at FROM bookings WHERE booking_number = $1 AND driver_id = $2 FOR UPDATE', [ref, driver.id]);
    if (!job) throw new DomainError('notFound', `No job ${ref} of yours.`);
    if (job.status !== 'confirmed' || !sharesPosition(job.job_status)) throw new DomainError('conflict', POSITION_MESSAGES.notSharing);
    if (sharingStale(job.job_status_at ? new Date(job.job_status_at) : null, now)) throw new DomainError('conflict', POSITION_MESSAGES.stale);
    // Read once the job's row is held: a position sent at the same time was stored before this one is checked.
    const [last] = await tx.query<{ lat: number; lon: number; recorded_at: string }>(
      'SELECT lat, lon, recorded_at FROM job_positions WHERE booking_id = $1', [job.id]);
    if (last) {
      const from = { lat: last.lat, lon: last.lon, at: new Date(last.recorded_at) };
      // Sooner than the page's own pace: nothing written, nobody told.
      if (tooSoon(from.at, now)) return { stored: false };
      if (impossibleMove(from, { lat, lon }, now)) throw new DomainError('invalid', POSITION_MESSAGES.tooFast, 'lat');
    }
    await tx.query(
      `WITH stored AS (
         INSERT INTO job_positions (booking_id, driver_id, lat, lon, accuracy_m, recorded_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (booking_id) DO UPDATE SET driver_id = $2, lat = $3, lon = $4, accuracy_m = $5, recorded_at = $6
         RETURNING booking_id)
       SELECT pg_notify(${LIVE_CHANNEL_SQL}, $7) FROM stored`,
      [job.id, driver.id, lat, lon, accuracy, now.toISOString(), positionPayload(job.id)]);
    return { stored: true };
  });
}
