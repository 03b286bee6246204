// The booking records (issue 43 §2, src/domain/bookingRecords.ts): every booking picked up in a range of UK days, with
// what a licensing officer asks of it, read in one statement. A company's staff read their own company's only.
// Bookings never paid (pending or expired card bookings) are not bookings the operator took, and are left out.
import type { Queryable } from '../db/index';
import { bookedBy, type BookedVia, type BookingRecord, type RecordsRange } from '../../domain/bookingRecords';
import { STATUS_LABELS, isBookingStatus } from '../../domain/operatorDesk';
import { penceToPounds } from '../../domain/money';

interface RecordRow {
  reference: string; status: string; booked_at: string; booked_via: BookedVia; booked_by_name: string | null;
  passenger: string | null; passengers: number | null; pickup_date: string; pickup_time: string; pickup_place: string;
  drop_off: string | null; ride_type: string; hourly_duration: string | null; return_date: string | null; return_time: string | null;
  quoted_pence: number; total_pence: number; override: { quoted_pence: number; reason: string } | null;
  changes: { at: string; old_pence: number; new_pence: number }[]; refunds: { at: string; pence: number }[];
  vehicle_type: string; driver: Record<string, string> | null; company: string; dispatched_at: string | null;
  variations: string[];
}

/** The most bookings one answer carries: a range with more says so, and asks for fewer days. */
export const RECORDS_LIMIT = 5000;

const pounds = (pence: number) => `£${penceToPounds(pence)}`;
/** An hourly hire's destination: wherever the passenger directs, for its hours ('4hour'). */
function asDirected(duration: string | null): string {
  const hours = Number(/^\d+/.exec(duration ?? '')?.[0] ?? 0);
  return hours ? `As directed (${hours} hour${hours === 1 ? '' : 's'})` : 'As directed';
}

/** The records of the bookings picked up in the range (inclusive), by pickup time. */
export async function bookingRecords(db: Queryable, scope: number | null, range: RecordsRange): Promise<BookingRecord[]> {
  return recordsWhere(db, 'b.pick_up_date BETWEEN $2::date AND $3::date', [scope, range.from, range.to]);
}

/** One booking's record, for its page in the console (any status). */
export async function bookingRecordOf(db: Queryable, scope: number | null, bookingId: number): Promise<BookingRecord | null> {
  const [record] = await recordsWhere(db, 'b.id = $2', [scope, bookingId], true);
  return record ?? null;
}

async function recordsWhere(db: Queryable, where: string, params: unknown[], anyStatus = false): Promise<BookingRecord[]> {
  const rows = await db.query<RecordRow>(
    `SELECT b.booking_number AS reference, b.status, to_char(b.created_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') AS booked_at,
            b.booked_via, b.booked_by_name, p.passenger_name AS passenger, p.total_passengers AS passengers,
            to_char(b.pick_up_date, 'DD/MM/YYYY') AS pickup_date, b.pick_up_time AS pickup_time, b.pick_up_address AS pickup_place,
            b.drop_off_address AS drop_off, b.ride_type, b.hourly_duration,
            to_char(b.return_date, 'DD/MM/YYYY') AS return_date, b.return_time,
            coalesce((SELECT ch.old_total_pence FROM booking_changes ch WHERE ch.booking_id = b.id AND ch.status = 'applied' ORDER BY ch.id LIMIT 1),
                     b.total_booking_amount_pence) AS quoted_pence,
            b.total_booking_amount_pence AS total_pence, b.price_override AS override,
            coalesce((SELECT json_agg(json_build_object('at', to_char(ch.applied_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI'),
                        'old_pence', ch.old_total_pence, 'new_pence', ch.new_total_pence) ORDER BY ch.id)
                        FROM booking_changes ch WHERE ch.booking_id = b.id AND ch.status = 'applied' AND ch.old_total_pence <> ch.new_total_pence), '[]') AS changes,
            coalesce((SELECT json_agg(json_build_object('at', to_char(r.created_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI'),
                        'pence', r.amount_pence) ORDER BY r.id)
                        FROM refunds r WHERE r.booking_id = b.id AND r.status = 'succeeded'), '[]') AS refunds,
            v.category_name AS vehicle_type, b.driver, c.company_name AS company,
            to_char(b.dispatched_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') AS dispatched_at,
            coalesce((SELECT json_agg(to_char(a.created_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') || ' ' || a.action
                        || coalesce(': ' || nullif(a.subject, ''), '') || ', by ' || a.staff_name ORDER BY a.id)
                        FROM audit_log a WHERE a.booking_id = b.id), '[]') AS variations
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
       LEFT JOIN booking_passengers p ON p.booking_id = b.id
      WHERE ${where} AND ($1::int IS NULL OR b.company_id = $1) ${anyStatus ? '' : "AND b.status NOT IN ('pending', 'expired')"}
      ORDER BY b.pick_up_date, b.pickup_at, b.id
      LIMIT ${RECORDS_LIMIT + 1}`, params);
  return rows.map(recordOf);
}

function recordOf(r: RecordRow): BookingRecord {
  const d = r.driver;
  const fareChanges = [
    ...(r.override ? [`Price set by hand (the site's price was ${pounds(r.override.quoted_pence)}): ${r.override.reason}`] : []),
    ...r.changes.map((ch) => `${ch.at} changed from ${pounds(ch.old_pence)} to ${pounds(ch.new_pence)}`),
    ...r.refunds.map((x) => `${x.at} refund of ${pounds(x.pence)}`),
  ];
  return {
    reference: r.reference, status: isBookingStatus(r.status) ? STATUS_LABELS[r.status] : r.status,
    booked_at: r.booked_at, booked_via: r.booked_via, booked_by: bookedBy(r.booked_via, r.booked_by_name),
    passenger: r.passenger ?? '', passengers: r.passengers ?? 0,
    pickup_date: r.pickup_date, pickup_time: r.pickup_time, pickup_place: r.pickup_place,
    destination: r.ride_type === 'H' ? asDirected(r.hourly_duration) : r.drop_off ?? '',
    return_journey: r.return_date ? `${r.return_date} ${r.return_time ?? ''}`.trim() : null,
    fare_quoted: pounds(r.quoted_pence), fare_charged: pounds(r.total_pence), fare_changes: fareChanges,
    vehicle_type: r.vehicle_type,
    driver: d?.name ?? null, driver_licence: d?.licence_number ? `${d.licence_number}${d.licensing_authority ? ` (${d.licensing_authority})` : ''}` : null,
    vehicle: d ? [d.colour, d.vehicle].filter(Boolean).join(' ') || null : null, registration: d?.registration ?? null,
    dispatched_by: d?.dispatched_by ?? null, dispatched_at: r.dispatched_at,
    company: r.company, variations: r.variations,
  };
}
