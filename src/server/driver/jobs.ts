// A driver's jobs (issue 41 §2, decision 56): the bookings dispatched to them, today's then upcoming, with what a
// driver needs and nothing more (no other price than the amount to collect in the car, no other passenger's data), and
// the steps they tap. A job of another driver is not found. Each step locks the booking, is allowed only after the
// one before (src/domain/driverJobs.ts), and is written with its timeline row and its messages in one transaction.
import { bookingFlight } from '../flights/bookingFlight';
import type { Db, Queryable } from '../db/index';
import { DomainError } from '../errors';
import { loadBooking } from '../bookings/queries';
import { recordChange, tellOffice } from '../bookings/bookingHistory';
import { manageLink, mintKey } from '../bookings/manageKeys';
import { enqueueSms } from '../mail/queue';
import { journeyText, textable } from '../mail/texts';
import { EXTRAS, amountOf, extraPhrase } from '../../domain/extras';
import {
  JOB_STATUS_LABELS, STEP_LABELS, isJobStatus, nextSteps, noShowFrom, stepRefusal, type DriverJob, type JobStatus, type JobStep,
} from '../../domain/driverJobs';
import { formatExactPrice } from '../../domain/money';
import { currencyOf, type Settings } from '../../domain/settings';
import { ukToday, ukLocalToInstant } from '../../domain/ukTime';
import type { Driver } from './signIn';
import { CASEWORK_MESSAGES, foundItemErrors, mayReportFound, type FoundItemInput } from '../../domain/casework';
import { openFoundItem } from '../casework/entries';

export type { DriverJob } from '../../domain/driverJobs';

export interface JobDeps { db: Db; settings: Settings; siteUrl: string; now: Date }

interface JobRow {
  id: number; booking_number: string; status: string; job_status: string | null; arrived_at: string | null; driver_id: number | null;
  free_waiting_minutes: number | null; payment_method: string; total_pence: number; company_email: string; landed_at: string | null;
  driver: { vehicle?: string; colour?: string; registration?: string } | null;
}

const JOB_COLUMNS = `b.id, b.booking_number, b.status, b.job_status, b.arrived_at, b.driver_id, b.driver, d.free_waiting_minutes,
  b.payment_method, b.total_booking_amount_pence AS total_pence, c.contact_email AS company_email,
  (SELECT f.actual_in FROM booking_flights bf JOIN flights f ON f.id = bf.flight_id WHERE bf.booking_id = b.id) AS landed_at`;
const JOB_FROM = 'bookings b JOIN companies c ON c.id = b.company_id LEFT JOIN booking_details d ON d.booking_id = b.id';

const stateOf = (r: JobRow) => ({
  bookingStatus: r.status, jobStatus: (isJobStatus(r.job_status) ? r.job_status : 'assigned') as JobStatus,
  arrivedAt: r.arrived_at ? new Date(r.arrived_at).toISOString() : null, freeWaitingMinutes: r.free_waiting_minutes ?? 0,
  landedAt: r.landed_at ? new Date(r.landed_at).toISOString() : null,
});

async function jobView(db: Queryable, r: JobRow, settings: Settings, now: Date): Promise<DriverJob> {
  const result = (await loadBooking(db, r.id))!;
  const b = result.booking;
  const d = result.bookingDetail;
  const p = result.passengerDetails;
  const state = stateOf(r);
  const extras = EXTRAS.filter((e) => e.key !== 'meet_and_greet').map((e) => extraPhrase(e, d[e.detail] as never)).filter((x): x is string => Boolean(x));
  const meet = amountOf(d.meet_and_greet as never) > 0;
  const luggage = [`${d.luggages} suitcase${d.luggages === 1 ? '' : 's'}`, `${d.hand_luggages} hand luggage`,
    ...(d.special_luggages ? [`${d.special_luggages} special`] : [])].join(', ');
  return {
    reference: b.booking_number, status: state.jobStatus, status_label: JOB_STATUS_LABELS[state.jobStatus],
    cancelled: r.status === 'cancelled', finished: r.status === 'completed' || r.status === 'no_show',
    pickup_date: b.pick_up_date, pickup_time: b.pick_up_time, pickup: b.pick_up_address, stops: result.bookingStops.map((s) => s.stop_address),
    dropoff: b.drop_off_address, hourly: b.hourly_duration, flight: b.flight_no,
    sign: meet ? (d.sign_text?.trim() || p.passenger_name) : null,
    passengers: p.total_passengers, luggage, extras: meet ? ['Meet and Greet', ...extras] : extras, notes: p.additional_info,
    passenger_name: p.passenger_name, passenger_phone: p.passenger_contact_no,
    collect: r.payment_method === 'car' ? formatExactPrice((r.total_pence / 100).toFixed(2), currencyOf(settings)) : null,
    vehicle: b.fleet_category.category_name, steps: nextSteps(state, now),
    car: r.driver?.registration ? `${r.driver.colour ? `${r.driver.colour} ` : ''}${r.driver.vehicle ?? ''}, ${r.driver.registration}`.trim() : null,
    no_show_from: state.jobStatus === 'arrived' ? noShowFrom(state)?.toISOString() ?? null : null,
    flight_status: await bookingFlight(db, r.id),
    can_report_found: mayReportFound({ status: state.jobStatus, cancelled: r.status === 'cancelled' }),
  };
}

/** Today's and upcoming jobs (UK days), and any earlier one still under way, soonest first. */
export async function driverJobs(deps: JobDeps, driver: Driver): Promise<DriverJob[]> {
  const startOfToday = ukLocalToInstant(ukToday(deps.now), 0, 0);
  const rows = await deps.db.query<JobRow>(
    `SELECT ${JOB_COLUMNS} FROM ${JOB_FROM}
      WHERE b.driver_id = $1 AND b.status IN ('confirmed', 'cancelled', 'completed', 'no_show')
        AND (b.pickup_at >= $2 OR (b.status = 'confirmed' AND b.job_status IN ('accepted', 'on_way', 'arrived', 'on_board')))
      ORDER BY b.pickup_at, b.id LIMIT 100`, [driver.id, startOfToday.toISOString()]);
  return Promise.all(rows.map((r) => jobView(deps.db, r, deps.settings, deps.now)));
}

const notYours = (reference: string) => new DomainError('notFound', `No job ${reference} of yours.`);

/**
 * A job the driver may still open: one still confirmed, or ended (finished, cancelled) less than a day ago. The
 * passenger's name, phone and notes are not theirs to read for ever ($3: now).
 */
const STILL_THEIRS = `(b.status = 'confirmed' OR greatest(b.pickup_at, coalesce(b.completed_at, b.pickup_at), coalesce(b.cancelled_at, b.pickup_at))
  > $3::timestamptz - interval '24 hours')`;

/** One of the driver's jobs; another driver's (or none) is 404. */
export async function driverJob(deps: JobDeps, driver: Driver, reference: string): Promise<DriverJob> {
  const ref = reference.trim().toUpperCase();
  const [row] = await deps.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE b.booking_number = $1 AND b.driver_id = $2 AND ${STILL_THEIRS}`,
    [ref, driver.id, deps.now.toISOString()]);
  if (!row) throw notYours(ref);
  return jobView(deps.db, row, deps.settings, deps.now);
}

/**
 * Takes one step of a job. Refused (409, nothing changed) when the job is not at a step it follows, the booking was
 * cancelled or finished, or a No-show comes before the free waiting has passed. Declining gives the job back to the
 * office (the board flags it) and the driver no longer sees it; Completed and No-show finish the booking. The
 * passenger is texted at On my way (with a link to follow the car), Arrived and Completed (the receipt).
 */
export async function takeStep(deps: JobDeps, driver: Driver, reference: string, step: JobStep): Promise<DriverJob | null> {
  const ref = reference.trim().toUpperCase();
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM bookings WHERE booking_number = $1 AND driver_id = $2 FOR UPDATE', [ref, driver.id]);
    const [row] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE b.booking_number = $1 AND b.driver_id = $2 AND ${STILL_THEIRS}`,
      [ref, driver.id, deps.now.toISOString()]);
    if (!row) throw notYours(ref);
    const state = stateOf(row);
    const refusal = stepRefusal(state, step, deps.now);
    if (refusal) throw new DomainError('conflict', refusal);
    const at = deps.now.toISOString();
    if (step === 'declined') {
      await tx.query(
        `UPDATE bookings SET job_status = 'declined', job_status_at = $2, declined_by = $3, driver = NULL, driver_id = NULL, car_id = NULL,
                dispatched_at = NULL WHERE id = $1`, [row.id, at, driver.name]);
    } else if (step === 'completed' || step === 'no_show') {
      await tx.query("UPDATE bookings SET job_status = $2, job_status_at = $3, status = $2, completed_at = $3 WHERE id = $1", [row.id, step, at]);
    } else {
      await tx.query(`UPDATE bookings SET job_status = $2, job_status_at = $3, arrived_at = CASE WHEN $2 = 'arrived' THEN $3::timestamptz ELSE arrived_at END
                       WHERE id = $1`, [row.id, step, at]);
    }
    await recordChange(tx, { staffId: null, name: `${driver.name} (driver)` }, `Driver: ${STEP_LABELS[step]}`, row.id, '',
      { job_status: state.jobStatus }, { job_status: step });
    const result = (await loadBooking(tx, row.id))!;
    if (step === 'declined') {
      await tellOffice(tx, deps, row, 'Driver declined the job', [['Driver', `${driver.name} (${driver.mobile})`], ['What now', 'Assign another driver']], driver.name);
    }
    if (step === 'on_way' || step === 'arrived' || step === 'completed') {
      const phone = result.passengerDetails.passenger_contact_no;
      if (textable(phone)) {
        // A new key of the booking's page: the text's link to follow the car, or to its receipt.
        const link = step === 'arrived' ? null : manageLink(deps.siteUrl, ref, await mintKey(tx, row.id));
        const kind = step === 'on_way' ? 'driver_on_way' : step === 'arrived' ? 'driver_arrived' : 'journey_completed';
        // A link holds a key of the booking's page: erased once sent, as every message holding one is.
        await enqueueSms(tx, {
          kind, to: phone, label: `${STEP_LABELS[step]}: ${ref}`, text: journeyText(step, result, driver.name, link, deps.settings), bookingId: row.id,
          eraseAfterSend: link !== null,
        });
      }
    }
    if (step === 'declined') return null;
    const [after] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE b.id = $1`, [row.id]);
    return jobView(tx, after, deps.settings, deps.now);
  });
}

/**
 * The driver reports an item found in the car on one of their jobs (issue 43 §3), once the passenger has been on board
 * (409 before): a lost property entry, found today, linked to the booking, the driver and the car, written with its
 * timeline row and the office's notice in one transaction. Another driver's job (or none) is 404.
 */
export async function reportFound(deps: JobDeps, driver: Driver, reference: string, input: Partial<Record<keyof FoundItemInput, string>>) {
  const [field, message] = Object.entries(foundItemErrors(input)).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
  const ref = reference.trim().toUpperCase();
  return deps.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM bookings WHERE booking_number = $1 AND driver_id = $2 FOR UPDATE', [ref, driver.id]);
    const [row] = await tx.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM ${JOB_FROM} WHERE b.booking_number = $1 AND b.driver_id = $2 AND ${STILL_THEIRS}`,
      [ref, driver.id, deps.now.toISOString()]);
    if (!row) throw notYours(ref);
    if (!mayReportFound({ status: stateOf(row).jobStatus, cancelled: row.status === 'cancelled' })) throw new DomainError('conflict', CASEWORK_MESSAGES.foundNotNow);
    const item = { description: input.description!.trim(), found_place: input.found_place?.trim() ?? '' };
    const entry = await openFoundItem(tx, driver, ref, item, deps.now);
    await tellOffice(tx, deps, row, `Item found in the car (${entry.number})`, [
      ['Driver', `${driver.name} (${driver.mobile})`], ['Item', item.description], ['Where', item.found_place || 'In the car'],
    ], driver.name);
    return entry;
  });
}
