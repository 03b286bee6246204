// The bookings' SQL: the whole booking written in one statement, a key's use, and a booking read back.
import type { Queryable } from '../db/index';
import type { BookingResult } from '../../domain/schemas';
import { penceToPounds } from '../../domain/money';
import { ACCOUNT_EXISTS } from '../../domain/messages';
import { DomainError } from '../errors';
import type { PreparedBooking, WriteOptions } from './types';
import { KEY_DAYS_AFTER_PICKUP } from './manageKeys';
import { countAllowanceSql, type AllowanceRow, type Taken } from '../limits';

/** Another request with this Idempotency-Key committed first: nothing was written, nor any allowance counted. */
export class KeyAlreadyUsed extends Error {
  constructor() { super('The Idempotency-Key was used by another request'); }
}
/**
 * An allowance the statement counted was used up: the statement was undone, so nothing was written or counted;
 * `within` names the allowances that were not used up, so the refusal names the one that was.
 */
export class AllowanceUsedUp extends Error {
  constructor(readonly within: Taken) { super('An allowance is used up'); }
}
/** The error the statement raises when an allowance is used up (migration 034's allowance_used_up). */
const ALLOWANCE_USED_UP = 'P0429';
/** The booking number drawn is taken already (1 in 10^11): nothing was written; draw another. */
export class BookingNumberTaken extends Error {}

/** PostgreSQL's (and PGlite's) error for a unique index, with the index it is about. */
function uniqueViolationOf(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return null;
  return e.constraint ?? /"([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
}

/** What the one statement writes beside the prepared booking: its number, who rides, and its confirmation e-mail. */
export interface BookingWrite {
  prepared: PreparedBooking; options: WriteOptions; bookingNumber: string;
  passenger: BookingResult['passengerDetails'];
  /** The confirmation: its subject, and what the sender renders it from (mail/templates.ts renderStored, issue 40). */
  mail: { subject: string; data: string }; recipients: string[];
  /**
   * The office's notice (issue 26), with the company that drives it as a copy (none when the office drives it
   * itself): held and released with the confirmation; replies go to the booker.
   */
  notice: { mail: { subject: string; data: string }; to: string; cc: string | null; replyTo: string };
  /** The hash of the booking's first "Manage your booking" key (issue 27, bookings/manageKeys.ts). */
  manageKeyHash: string;
  /** The free waiting the booking is made with (issue 27). */
  freeWaiting: { minutes: number; airport: boolean };
  /**
   * The allowances the statement counts itself (issue 40; limits.ts allowanceRows), the booking written only if every
   * one is within its allowance; none when they were counted before (a new account's, counted before its hash).
   */
  allowance: AllowanceRow[];
}
export interface InsertedBooking { id: number; passenger_id: number; stop_ids: number[] | null }

type Param = (value: unknown, type: string) => string;

/** The statement's text for each variant (which parts there are, and how many bookings): see statementText. */
const statementTexts = new Map<string, string>();
/**
 * The text depends only on which parts there are: one string per variant, so lookups by it (the prepared statement's
 * name) hash it once.
 */
function statementText(variant: string, built: string): string {
  let sql = statementTexts.get(variant);
  if (sql !== built) statementTexts.set(variant, (sql = built));
  return sql;
}

/** Which parts a booking's statement has: an Idempotency-Key, a known passenger, stops. */
export function bookingVariant(w: BookingWrite): string {
  return `${w.options.idempotencyKey ? 'k' : ''}${w.prepared.contact.passengerId !== null ? 'p' : ''}${w.prepared.trip.stops.length ? 's' : ''}`;
}

/**
 * One booking's common table expressions, each name ending in `n` ('' alone; 0, 1, ... in a batch): the key claimed
 * first and everything else written only from the claim's row (decision 29), ending with `keys<n>`, its manage key,
 * which has a row only when the booking was written.
 */
function bookingCtes(w: BookingWrite, $: Param, n: string): string {
  const { prepared: { req, trip, contact }, options: o, bookingNumber, mail, recipients, notice } = w;
  const quantity = req.selectedVehicle;
  const d = trip.details;
  const offer = trip.chosen.offer;
  const total = trip.chosen.unitPence * quantity;
  const claim = o.idempotencyKey
    ? `INSERT INTO idempotency_keys (key, request_hash) VALUES (${$(o.idempotencyKey, 'text')}, ${$(o.hash, 'text')})
         ON CONFLICT (key) DO NOTHING RETURNING key`
    : 'SELECT NULL::text AS key';
  const passenger = contact.passengerId !== null
    ? `SELECT ${$(contact.passengerId, 'int')} AS id FROM claim${n}`
    : `INSERT INTO passengers (name, email, phone, password_hash)
         SELECT ${$(contact.name, 'text')}, ${$(contact.email.trim(), 'text')}, ${$(contact.phone.trim(), 'text')},
                ${$(contact.passwordHash, 'text')} FROM claim${n} RETURNING id`;
  const booking = `INSERT INTO bookings (booking_number, idempotency_key, ride_type, booking_type, company_id, vehicle_type_id,
         passenger_id, registration_mode, pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date,
         return_time, hourly_duration, flight_no, return_flight_no, via_miles, return_via_miles, time_duration,
         vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method, payment_status, pickup_at, status,
         original_pickup_at, booked_via, booked_by_staff_id, booked_by_name, price_override, account_id, account_fields)
       SELECT ${$(bookingNumber, 'text')}, ${$(o.idempotencyKey, 'text')}, ${$(trip.rideType, 'text')}, ${$(req.bookingType, 'text')},
         ${$(offer.company_id, 'int')}, ${$(offer.vehicle_id, 'int')}, passenger${n}.id, ${$(req.selected_passenger, 'text')},
         ${$(trip.pickup, 'text')}, ${$(trip.dropoff, 'text')}, ${$(trip.date, 'date')}, ${$(trip.time, 'text')},
         ${$(trip.returnDate, 'date')}, ${$(trip.returnTime, 'text')}, ${$(trip.hourlyDuration, 'text')}, ${$(trip.flightNo, 'text')},
         ${$(trip.returnFlightNo, 'text')}, ${$(trip.miles, 'float8')}, ${$(trip.returnMiles, 'float8')}, ${$(trip.seconds, 'int')},
         ${$(quantity, 'int')}, ${$(trip.chosen.unitPence, 'int')}, ${$(total, 'int')},
         ${$(JSON.stringify(trip.chosen.detail.breakdown), 'jsonb')}, ${$(o.paymentMethod, 'text')}, ${$(o.paymentStatus, 'text')},
         ${$(trip.pickupAt.toISOString(), 'timestamptz')}, ${$(o.status, 'text')},
         ${$(trip.pickupAt.toISOString(), 'timestamptz')}, ${$(o.bookedVia ?? 'web', 'text')}, ${$(o.bookedBy?.id ?? null, 'int')},
         ${$(o.bookedBy?.name ?? null, 'text')}, ${$(o.priceOverride ? JSON.stringify({ quoted_pence: o.priceOverride.quotedPence, reason: o.priceOverride.reason }) : null, 'jsonb')},
         ${$(o.account?.id ?? null, 'int')}, ${$(o.account ? JSON.stringify(o.account.fields) : null, 'jsonb')}
       FROM passenger${n} RETURNING id, passenger_id`;
  const details = `INSERT INTO booking_details (booking_id, meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages,
         waiting_minutes, luggages, hand_luggages, vehicle_qty, return_options, free_waiting_minutes, free_waiting_airport)
       SELECT booking${n}.id, ${$(d.meet_and_greet, 'text')}, ${$(d.baby_seat, 'int')}, ${$(d.booster_seat, 'int')},
         ${$(d.wheel_chair, 'text')}, ${$(d.special_luggages, 'int')}, ${$(d.waiting_minutes, 'int')}, ${$(d.luggages, 'int')},
         ${$(d.hand_luggages, 'int')}, ${$(quantity, 'int')}, ${$(d.return_options ? JSON.stringify(d.return_options) : null, 'jsonb')},
         ${$(w.freeWaiting.minutes, 'int')}, ${$(w.freeWaiting.airport, 'bool')}
       FROM booking${n}`;
  const pd = w.passenger;
  const passengers = `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no,
         total_passengers, additional_info)
       SELECT booking${n}.id, booking${n}.passenger_id, ${$(pd.passenger_name, 'text')}, ${$(pd.passenger_email, 'text')},
         ${$(pd.passenger_contact_no, 'text')}, ${$(pd.total_passengers, 'int')}, ${$(pd.additional_info, 'text')} FROM booking${n}`;
  const stops = trip.stops.length
    ? `INSERT INTO booking_stops (booking_id, leg, position, stop_address, stop_post_code, stop_street_number)
         SELECT booking${n}.id, 'outbound', s.position, s.stop_address, s.stop_post_code, s.stop_street_number
           FROM booking${n}, json_to_recordset(${$(JSON.stringify(trip.stops.map((st, position) => ({
             position, stop_address: st.street_name, stop_post_code: st.postcode, stop_street_number: st.number,
           }))), 'json')}) AS s(position int, stop_address text, stop_post_code text, stop_street_number text)
         RETURNING id, position`
    : 'SELECT NULL::int AS id, NULL::int AS position WHERE false';
  const mailStatus = $(o.status === 'pending' ? 'held' : 'pending', 'text');
  // Both messages go in as what they are made from, rendered by the sender (issue 40): the rendered bodies, about 8 kB
  // each, were compressed into the row inside the booking's statement. The confirmation holds the booking's manage
  // link (its key): its data is erased once it is sent (issue 27).
  const emails = `INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html, template, template_data, booking_id, status, erase_after_send)
       SELECT 'booking_confirmation', r.to_address, ${$(mail.subject, 'text')}, '', '', 'booking_confirmation', ${$(mail.data, 'text')},
         booking${n}.id, ${mailStatus}, true
         FROM booking${n}, json_array_elements_text(${$(JSON.stringify(recipients), 'json')}) AS r(to_address)`;
  const notices = `INSERT INTO outbound_emails (kind, to_address, cc_address, reply_to, subject, body_text, body_html, template, template_data, booking_id, status)
       SELECT 'new_booking_notice', ${$(notice.to, 'text')}, ${$(notice.cc, 'text')}, ${$(notice.replyTo, 'text')},
         ${$(notice.mail.subject, 'text')}, '', '', 'new_booking_notice', ${$(notice.mail.data, 'text')}, booking${n}.id, ${mailStatus}
         FROM booking${n}`;
  const keys = `INSERT INTO booking_keys (key_hash, booking_id, expires_at)
       SELECT ${$(w.manageKeyHash, 'text')}, booking${n}.id, ${$(trip.pickupAt.toISOString(), 'timestamptz')} + make_interval(days => ${$(KEY_DAYS_AFTER_PICKUP, 'int')})
         FROM booking${n} RETURNING booking_id`;
  return `claim${n} AS (${claim}), passenger${n} AS (${passenger}), booking${n} AS (${booking}), details${n} AS (${details}),
    passengers${n} AS (${passengers}), stops${n} AS (${stops}), emails${n} AS (${emails}), notices${n} AS (${notices}), keys${n} AS (${keys})`;
}

/** The booking's ids from the statement's row (none: its key was used by another request, so nothing was written). */
type WrittenRow = { id: number | null; passenger_id: number | null; stop_ids: number[] | null };
function written(row: WrittenRow): InsertedBooking | KeyAlreadyUsed {
  return row.id === null ? new KeyAlreadyUsed() : { id: row.id, passenger_id: row.passenger_id!, stop_ids: row.stop_ids };
}

/**
 * The whole booking in one statement (decision 29): the key is claimed first and everything else is written only
 * from the claim's row, so a key another request used (ON CONFLICT DO NOTHING: on PostgreSQL this waits for that
 * request's transaction) writes nothing at all and answers KeyAlreadyUsed. A new account whose e-mail has one, or a
 * booking number already drawn, fails the statement, which is atomic: nothing stays behind.
 */
export async function insertBooking(q: Queryable, w: BookingWrite): Promise<InsertedBooking> {
  const params: unknown[] = [];
  const $: Param = (value, type) => { params.push(value); return `$${params.length}::${type}`; };
  const ctes = bookingCtes(w, $, '');
  // The allowances after the booking (issue 40, decision 63), and only for a booking written (they read its manage
  // key's row): their rows, shared by every booking from one address or to one e-mail, are not held while the key is
  // claimed and the booking written. A used-up one undoes the whole statement.
  const counted = countAllowanceSql(`(SELECT ${$(JSON.stringify(w.allowance), 'json')} FROM keys)`);
  const within = `coalesce(json_agg(json_build_object('name', c.name, 'key', c.key, 'window_started', c.window_started)), '[]')`;
  const sql = statementText(bookingVariant(w), `WITH ${ctes}, counted AS (${counted})
    SELECT booking.id, booking.passenger_id, (SELECT json_agg(stops.id ORDER BY stops.position) FROM stops) AS stop_ids,
           (SELECT CASE WHEN count(*) = ${$(w.allowance.length, 'int')} OR NOT EXISTS (SELECT FROM keys) THEN NULL
                        ELSE allowance_used_up(${within}) END FROM counted c) AS refused
      FROM (SELECT 1) AS one LEFT JOIN booking ON true`);
  let rows: WrittenRow[];
  try {
    rows = await q.query(sql, params, { prepare: true });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === ALLOWANCE_USED_UP) throw new AllowanceUsedUp({ uses: JSON.parse(e.message!.slice(e.message!.indexOf(':') + 1)) });
    const index = uniqueViolationOf(err);
    if (index === 'passengers_email_account') throw new DomainError('invalid', ACCOUNT_EXISTS, 'registrationData.email');
    if (index === 'bookings_booking_number_key') throw new BookingNumberTaken();
    throw err;
  }
  const row = written(rows[0]);
  if (row instanceof KeyAlreadyUsed) throw row;
  return row;
}

/**
 * Several bookings of one variant in one statement (bookingBatch.ts, issue 40): each as insertBooking writes it alone,
 * its allowances counted together with the others' (one use a booking written). All or nothing: any error, an
 * allowance used up among them included, writes nothing of any, and the caller writes each alone to find out whose it
 * was. A booking whose key another request used answers KeyAlreadyUsed, and the others are written.
 */
export async function insertBookings(q: Queryable, ws: BookingWrite[]): Promise<(InsertedBooking | KeyAlreadyUsed)[]> {
  const params: unknown[] = [];
  const $: Param = (value, type) => { params.push(value); return `$${params.length}::${type}`; };
  const ctes = ws.map((w, i) => bookingCtes(w, $, String(i))).join(',\n    ');
  const wanted = ws.map((w, i) => `SELECT ${$(JSON.stringify(w.allowance), 'json')} AS rows FROM keys${i}`).join(' UNION ALL ');
  // The rows in allowanceRows' order (JavaScript's, by character code: bytes, as collation "C" sorts them), the order
  // every other count takes its row locks in, so a batch and a booking alone never wait for each other in a circle
  // (decision 51), whatever the database's own collation.
  const counted = countAllowanceSql('(SELECT json_agg(wanted ORDER BY wanted.name COLLATE "C", wanted.key COLLATE "C") FROM wanted)');
  const each = ws.map((_, i) => `SELECT ${i} AS i, booking${i}.id, booking${i}.passenger_id,
           (SELECT json_agg(stops${i}.id ORDER BY stops${i}.position) FROM stops${i}) AS stop_ids FROM (SELECT 1) AS one LEFT JOIN booking${i} ON true`);
  const sql = statementText(`${bookingVariant(ws[0])}x${ws.length}`, `WITH ${ctes},
    wanted AS (SELECT u.name, u.key, count(*)::int AS uses, max(u.max_used) AS max_used, max(u.window_minutes) AS window_minutes
      FROM (${wanted}) AS w, json_to_recordset(w.rows) AS u(name text, key text, max_used int, window_minutes int) GROUP BY u.name, u.key),
    counted AS (${counted})
    SELECT b.*, (SELECT CASE WHEN count(*) = (SELECT count(*) FROM wanted) THEN NULL ELSE allowance_used_up('[]') END FROM counted) AS refused
      FROM (${each.join(' UNION ALL ')}) AS b ORDER BY b.i`);
  const rows = await q.query<WrittenRow & { i: number }>(sql, params, { prepare: true });
  return rows.map(written);
}

/** Whether a key was used, with the hash of its request and the booking it made (none yet while that is written). */
export async function keyUse(db: Queryable, key: string) {
  const [row] = await db.query<{ id: number | null; request_hash: string; passenger_id: number | null; has_account: boolean | null }>(
    `SELECT b.id, k.request_hash, b.passenger_id, p.password_hash IS NOT NULL AS has_account
       FROM idempotency_keys k LEFT JOIN bookings b ON b.idempotency_key = k.key LEFT JOIN passengers p ON p.id = b.passenger_id
      WHERE k.key = $1`, [key]);
  return row;
}

export async function loadBooking(db: Queryable, id: number): Promise<BookingResult | null> {
  // One statement: the booking with its details, stops and passenger as JSON (four SELECTs before).
  const [b] = await db.query<Record<string, unknown> & {
    detail: BookingResult['bookingDetail']; stops: BookingResult['bookingStops']; passenger: BookingResult['passengerDetails'];
  }>(
    `SELECT b.id, b.booking_number, b.ride_type, b.pick_up_address, b.drop_off_address,
            to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
            to_char(b.return_date, 'YYYY-MM-DD') AS return_date, b.return_time, b.hourly_duration, b.payment_method,
            b.total_booking_amount_pence, b.flight_no, b.return_flight_no, c.company_name, v.category_name,
            (SELECT json_build_object('meet_and_greet', d.meet_and_greet, 'baby_seat', d.baby_seat, 'booster_seat', d.booster_seat,
                      'wheel_chair', d.wheel_chair, 'special_luggages', d.special_luggages, 'waiting_minutes', d.waiting_minutes,
                      'luggages', d.luggages, 'hand_luggages', d.hand_luggages, 'vehicle_qty', d.vehicle_qty,
                      'free_waiting_minutes', d.free_waiting_minutes, 'free_waiting_airport', d.free_waiting_airport, 'sign_text', d.sign_text)
               FROM booking_details d WHERE d.booking_id = b.id) AS detail,
            (SELECT coalesce(json_agg(json_build_object('id', s.id, 'stop_address', s.stop_address, 'stop_post_code', s.stop_post_code,
                      'stop_street_number', s.stop_street_number) ORDER BY s.leg DESC, s.position), '[]'::json)
               FROM booking_stops s WHERE s.booking_id = b.id) AS stops,
            (SELECT json_build_object('passenger_id', p.passenger_id, 'passenger_name', p.passenger_name,
                      'passenger_email', p.passenger_email, 'passenger_contact_no', p.passenger_contact_no,
                      'total_passengers', p.total_passengers, 'additional_info', p.additional_info)
               FROM booking_passengers p WHERE p.booking_id = b.id) AS passenger
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
      WHERE b.id = $1`,
    [id],
  );
  if (!b) return null;
  const { total_booking_amount_pence, category_name, detail, stops, passenger, ...booking } = b;
  return {
    booking: {
      ...(booking as Omit<BookingResult['booking'], 'total_booking_amount' | 'fleet_category'>),
      total_booking_amount: penceToPounds(total_booking_amount_pence as number),
      fleet_category: { category_name: category_name as string },
    },
    // A missing row reads as undefined, as it did with a SELECT of its own.
    bookingDetail: (detail ?? undefined) as BookingResult['bookingDetail'],
    bookingStops: stops,
    passengerDetails: (passenger ?? undefined) as BookingResult['passengerDetails'],
  };
}

