// What the console reads: the bookings board, one booking with its timeline, the mail queue and the accounts'
// export. Every booking query takes the viewer's scope: a company member sees only their company's bookings, and
// another company's booking is not found (never "forbidden", which would say it exists).
import type { Queryable } from '../db/index';
import { refundDue, type BoardTab } from '../../domain/operatorDesk';
import { paymentsLeftSql } from '../payments/ledger';
import { ukToday } from '../../domain/ukTime';
import type { Staff } from './staff';
import { bookingFlights } from '../flights/bookingFlight';
import type { BookingFlight } from '../../domain/flights';

/** The company a member of staff is limited to; null sees every booking. */
export const scopeOf = (s: Staff): number | null => (s.role === 'company' ? s.company_id : null);

export interface BoardFilters { tab: BoardTab; q?: string; company?: number; vehicle?: number; status?: string }

export interface BoardRow {
  id: number; booking_number: string; status: string; pick_up_date: string; pick_up_time: string; pickup_at: string;
  pick_up_address: string; drop_off_address: string | null; ride_type: string; company_name: string; category_name: string;
  passenger_name: string; passenger_contact_no: string; passenger_email: string; total: string; payment_method: string;
  payment_status: string; driver_name: string | null; created_at: string;
  /** Where the driver's job stands (issue 41), and who declined it last (the board flags it until someone is assigned). */
  job_status: string | null; declined_by: string | null;
  /** When the driver was assigned (the board's "not accepted" alert counts from it). */
  dispatched_at: string | null;
  /** A cancelled card booking with money left to give back (refundDue): the office refunds it, a company's staff see it. */
  refund_due: boolean;
  /** An airport pickup's flight (issue 42): its status, the pickup as it stands and as booked; null for any other. */
  flight: BookingFlight | null;
}

const TAB_WHERE: Record<BoardTab, { where: string; order: string }> = {
  today: { where: "b.pick_up_date = $1::date AND b.status IN ('confirmed', 'completed', 'no_show')", order: 'b.pickup_at, b.id' },
  upcoming: { where: "b.pick_up_date > $1::date AND b.status = 'confirmed'", order: 'b.pickup_at, b.id' },
  past: { where: "b.pick_up_date < $1::date AND b.status IN ('confirmed', 'completed', 'no_show')", order: 'b.pickup_at DESC, b.id DESC' },
  // $1 (today) is typed in every tab, used or not.
  awaiting: { where: "b.status = 'pending' AND $1::date IS NOT NULL", order: 'b.created_at DESC, b.id DESC' },
  cancelled: { where: "b.status IN ('cancelled', 'expired') AND $1::date IS NOT NULL", order: 'coalesce(b.cancelled_at, b.created_at) DESC, b.id DESC' },
};

export const BOARD_LIMIT = 200;

/** A typed phone number as stored digits: 07700 900123 and +44 7700 900123 both find +447700900123. */
export function phoneDigits(q: string): string {
  const digits = q.replace(/\D/g, '');
  return digits.startsWith('0') ? `44${digits.slice(1)}` : digits;
}

/**
 * What is left to give back of a cancelled booking's card payments, as the ledger counts it (paymentsLeftSql): only a
 * cancelled booking can have a refund due, so the others are not counted.
 */
const LEFT_PENCE = `CASE WHEN b.status <> 'cancelled' THEN 0
  ELSE coalesce((SELECT sum(l.left_pence) FROM (${paymentsLeftSql('b.id')}) l), 0) END::int`;

const ROW_COLUMNS = `b.id, b.booking_number, b.status, to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
  b.pickup_at, b.pick_up_address, b.drop_off_address, b.ride_type, c.company_name, v.category_name,
  coalesce(p.passenger_name, '') AS passenger_name, coalesce(p.passenger_contact_no, '') AS passenger_contact_no,
  coalesce(p.passenger_email, '') AS passenger_email, to_char(b.total_booking_amount_pence / 100.0, 'FM999999990.00') AS total,
  b.payment_method, b.payment_status, b.driver->>'name' AS driver_name, b.job_status, b.declined_by, b.dispatched_at,
  to_char(b.created_at AT TIME ZONE 'Europe/London', 'YYYY-MM-DD HH24:MI') AS created_at,
  ${LEFT_PENCE} AS left_pence`;
const ROW_FROM = `FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
  LEFT JOIN booking_passengers p ON p.booking_id = b.id`;

/** One tab of the board, searched and filtered, for one viewer; at most BOARD_LIMIT rows, with how many matched. */
export async function boardRows(db: Queryable, scope: number | null, f: BoardFilters, now: Date): Promise<{ rows: BoardRow[]; total: number }> {
  const tab = TAB_WHERE[f.tab];
  const q = f.q?.trim() ?? '';
  const digits = /\d{4,}/.test(q) ? phoneDigits(q) : '';
  const rows = await db.query<Omit<BoardRow, 'refund_due' | 'flight'> & { left_pence: number; matched: number }>(
    `SELECT ${ROW_COLUMNS}, count(*) OVER ()::int AS matched ${ROW_FROM}
      WHERE ${tab.where}
        AND ($2::int IS NULL OR b.company_id = $2)
        AND ($3::text = '' OR b.booking_number ILIKE '%' || $3 || '%' OR p.passenger_name ILIKE '%' || $3 || '%'
             OR p.passenger_email ILIKE '%' || $3 || '%' OR ($4::text <> '' AND regexp_replace(p.passenger_contact_no, '\\D', '', 'g') LIKE '%' || $4 || '%'))
        AND ($5::int IS NULL OR b.company_id = $5) AND ($6::int IS NULL OR b.vehicle_type_id = $6) AND ($7::text IS NULL OR b.status = $7)
      ORDER BY ${tab.order} LIMIT ${BOARD_LIMIT}`,
    [ukToday(now), scope, q.replace(/[%_\\]/g, '\\$&'), digits, f.company ?? null, f.vehicle ?? null, f.status ?? null]);
  const flights = await bookingFlights(db, rows.map((r) => r.id));
  return {
    rows: rows.map(({ matched: _m, left_pence: left, ...r }) => ({
      ...r, refund_due: refundDue({ status: r.status, leftPence: Number(left) }), flight: flights.get(r.id) ?? null,
    })),
    total: rows[0]?.matched ?? 0,
  };
}

/** The newest booking a viewer can see, and how many there are: what the board polls to notice new bookings. */
export async function latestBooking(db: Queryable, scope: number | null): Promise<{ latest_id: number; count: number }> {
  const [row] = await db.query<{ latest_id: number | null; count: number }>(
    'SELECT max(id) AS latest_id, count(*)::int AS count FROM bookings WHERE $1::int IS NULL OR company_id = $1', [scope]);
  return { latest_id: row.latest_id ?? 0, count: row.count };
}

/** The booking of a reference as the desk handles it, if the viewer may see it. */
export async function deskBooking(db: Queryable, scope: number | null, reference: string) {
  const [row] = await db.query<{
    id: number; booking_number: string; status: string; pickup_at: Date; payment_method: string; payment_status: string;
    payment_intent_id: string | null; payment_id: string | null; payment_livemode: boolean | null; paid_at: string | null;
    total_pence: number; price_breakdown: { lines: { label: string; amount: string }[] }; driver: Record<string, string> | null;
    cancelled_at: string | null; cancel_reason: string | null; completed_at: string | null; created_at: string; company_id: number;
    job_status: string | null; declined_by: string | null;
    company_email: string; booker_email: string | null;
    /** Issue 44: the account a journey on account is billed to, and its name; null for any other booking. */
    account_id: number | null; account_name: string | null;
  }>(
    `SELECT b.id, b.booking_number, b.status, b.pickup_at, b.payment_method, b.payment_status, b.payment_intent_id, b.payment_id,
            b.payment_livemode, b.paid_at, b.total_booking_amount_pence AS total_pence, b.price_breakdown, b.driver,
            b.cancelled_at, b.cancel_reason, b.completed_at, b.created_at, b.company_id, c.contact_email AS company_email, b.job_status, b.declined_by,
            pa.email AS booker_email, b.account_id, ac.name AS account_name
       FROM bookings b JOIN companies c ON c.id = b.company_id LEFT JOIN passengers pa ON pa.id = b.passenger_id
            LEFT JOIN accounts ac ON ac.id = b.account_id
      WHERE b.booking_number = $1 AND ($2::int IS NULL OR b.company_id = $2)`, [reference.trim().toUpperCase(), scope]);
  return row ?? null;
}
export type DeskBooking = NonNullable<Awaited<ReturnType<typeof deskBooking>>>;

export interface TimelineEntry { at: string; kind: 'created' | 'paid' | 'email' | 'change' | 'refund'; text: string; by?: string; detail?: string }

/** What happened to a booking, oldest first: made, paid, each e-mail with where it stands, each change and refund. */
export async function timelineOf(db: Queryable, bookingId: number): Promise<TimelineEntry[]> {
  return db.query<TimelineEntry>(
    `SELECT at, kind, text, by, detail FROM (
       SELECT created_at AS t, 1 AS o, 0::bigint AS seq, 'created' AS kind,
              CASE booked_via WHEN 'phone' THEN 'Booked by telephone' WHEN 'account' THEN 'Booked by the signed-in corporate passenger' ELSE 'Booked on the website' END
                || CASE WHEN price_override IS NULL THEN '' ELSE ', the price set by hand: ' || (price_override->>'reason') END AS text,
              booked_by_name AS by, NULL AS detail
         FROM bookings WHERE id = $1
       UNION ALL SELECT paid_at, 2, 0, 'paid', 'Paid by card', NULL, payment_id FROM bookings WHERE id = $1 AND paid_at IS NOT NULL
       UNION ALL SELECT created_at, 4, id, 'email',
              CASE WHEN channel = 'sms' THEN 'Text to ' ELSE 'E-mail to ' END || to_address || coalesce(' (copy to ' || cc_address || ')', '') || ': ' || subject,
              NULL, status || coalesce(': ' || last_error, '') FROM outbound_emails WHERE booking_id = $1
       UNION ALL SELECT created_at, 3, id, 'change', action, staff_name, subject FROM audit_log WHERE booking_id = $1
       UNION ALL SELECT created_at, 5, id, 'refund', 'Refund of £' || to_char(amount_pence / 100.0, 'FM999999990.00'), NULL,
              status || coalesce(' ' || provider_refund_id, '') || coalesce(': ' || last_error, '') FROM refunds WHERE booking_id = $1
     ) e(t, o, seq, kind, text, by, detail)
     CROSS JOIN LATERAL (SELECT to_char(e.t AT TIME ZONE 'Europe/London', 'DD-MM-YYYY HH24:MI:SS') AS at) f
     ORDER BY e.t, e.o, e.seq`, [bookingId]);
}

export interface MailRow {
  id: number; kind: string; to_address: string; cc_address: string | null; subject: string; status: string; attempts: number;
  last_error: string | null; created_at: string; booking_number: string | null;
  /** Issue 41: an e-mail or a text; a text's delivery as Twilio last reported it, and whether its number sent STOP. */
  channel: 'email' | 'sms'; delivery_status: string | null; delivery_error: string | null; opted_out: boolean;
}

/** The message queue as the desk shows it (e-mails and texts): what waits, what failed; a company member sees only their bookings'. */
export async function mailRows(db: Queryable, scope: number | null, status: 'pending' | 'failed' | 'sent'): Promise<MailRow[]> {
  return db.query<MailRow>(
    `SELECT e.id, e.kind, e.channel, e.to_address, e.cc_address, e.subject, e.status, e.attempts, e.last_error,
            to_char(e.created_at AT TIME ZONE 'Europe/London', 'DD-MM-YYYY HH24:MI') AS created_at, b.booking_number,
            e.delivery_status, e.delivery_error,
            e.channel = 'sms' AND EXISTS (SELECT 1 FROM sms_opt_outs o WHERE o.phone = e.to_address) AS opted_out
       FROM outbound_emails e LEFT JOIN bookings b ON b.id = e.booking_id
      WHERE (CASE WHEN $2 = 'pending' THEN e.status IN ('pending', 'sending') ELSE e.status = $2 END)
        AND ($1::int IS NULL OR b.company_id = $1)
      ORDER BY e.id DESC LIMIT 200`, [scope, status]);
}

/** The export's columns, in order: one row per booking. */
export const EXPORT_COLUMNS = [
  'booking_number', 'pickup_date', 'pickup_time', 'status', 'type', 'pick_up_address', 'drop_off_address', 'company_name', 'vehicle',
  'vehicle_qty', 'passenger_name', 'passenger_email', 'passenger_phone', 'payment_method', 'payment_status', 'payment_id', 'total_gbp',
  'refunded_gbp', 'booked_at',
];

/** Bookings picked up between two UK dates (inclusive), for the accounts. */
export async function exportRows(db: Queryable, scope: number | null, from: string, to: string) {
  return db.query<Record<string, string | number | null>>(
    `SELECT b.booking_number, to_char(b.pick_up_date, 'DD/MM/YYYY') AS pickup_date, b.pick_up_time AS pickup_time,
            b.status, CASE b.ride_type WHEN 'Q' THEN 'Transfer' ELSE 'Hourly' END AS type, b.pick_up_address, coalesce(b.drop_off_address, '') AS drop_off_address,
            c.company_name, v.category_name AS vehicle, b.vehicle_qty, coalesce(p.passenger_name, '') AS passenger_name,
            coalesce(p.passenger_email, '') AS passenger_email, coalesce(p.passenger_contact_no, '') AS passenger_phone,
            b.payment_method, b.payment_status, coalesce(b.payment_id, '') AS payment_id,
            to_char(b.total_booking_amount_pence / 100.0, 'FM999999990.00') AS total_gbp,
            coalesce((SELECT to_char(sum(r.amount_pence) / 100.0, 'FM999999990.00') FROM refunds r WHERE r.booking_id = b.id AND r.status = 'succeeded'), '') AS refunded_gbp,
            to_char(b.created_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') AS booked_at
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN vehicle_types v ON v.id = b.vehicle_type_id
       LEFT JOIN booking_passengers p ON p.booking_id = b.id
      WHERE b.pick_up_date BETWEEN $2::date AND $3::date AND ($1::int IS NULL OR b.company_id = $1) AND b.status <> 'pending'
      ORDER BY b.pick_up_date, b.pickup_at, b.id`, [scope, from, to]);
}
