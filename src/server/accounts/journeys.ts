// A booker's own journeys for expenses (issue 44 §3): every booking of theirs but an unpaid card one, with how it was
// paid, where it stands, its account's fields and its invoice, filtered by pickup date and by a field's value.
import type { Queryable } from '../db/index';
import { formatDateUK } from '../../domain/ukTime';
import { penceToPounds } from '../../domain/money';
import { invoiceLabel } from '../payments/invoices';
import { journeyDestination, journeyInvoice, journeyPayment, journeyStatus } from '../../domain/expenses';

export interface JourneyFilter { from: string | null; to: string | null; field: string | null; value: string | null }

export interface Journey {
  booking_number: string; pick_up_date: string; pick_up_time: string; pickup: string; dropoff: string | null; hourly_duration: string | null;
  passenger: string; vehicle: string; payment_method: string; status: string; amount: string; fields: { label: string; value: string }[];
  invoice: string | null;
}


/** The CSV's columns, each with how a journey gives its value; the account's fields follow as columns of their own. */
export const JOURNEY_COLUMNS: [string, (j: Journey) => string][] = [
  ['Booking number', (j) => j.booking_number], ['Pickup date', (j) => formatDateUK(j.pick_up_date)], ['Pickup time', (j) => j.pick_up_time],
  ['Pickup', (j) => j.pickup], ['Destination', (j) => journeyDestination(j)],
  ['Passenger', (j) => j.passenger], ['Vehicle', (j) => j.vehicle], ['Payment', (j) => journeyPayment(j)],
  ['Status', (j) => journeyStatus(j)], ['Amount (GBP)', (j) => j.amount], ['Invoice', (j) => journeyInvoice(j)],
];

export async function journeysOf(db: Queryable, passengerId: number, f: JourneyFilter): Promise<Journey[]> {
  const rows = await db.query<Omit<Journey, 'amount' | 'invoice' | 'fields'> & { pence: number; invoice_number: number | null; fields: Journey['fields'] | null }>(
    `SELECT b.booking_number, to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time, b.pick_up_address AS pickup,
            b.drop_off_address AS dropoff, b.hourly_duration, coalesce(p.passenger_name, '') AS passenger, v.category_name AS vehicle,
            b.payment_method, b.status, b.total_booking_amount_pence AS pence, b.account_fields AS fields,
            (SELECT ib.invoice_number FROM invoice_bookings ib WHERE ib.booking_id = b.id) AS invoice_number
       FROM bookings b JOIN vehicle_types v ON v.id = b.vehicle_type_id LEFT JOIN booking_passengers p ON p.booking_id = b.id
      WHERE b.passenger_id = $1 AND b.status NOT IN ('pending', 'expired')
        AND ($2::date IS NULL OR b.pick_up_date >= $2::date) AND ($3::date IS NULL OR b.pick_up_date <= $3::date)
        AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(b.account_fields, '[]'::jsonb)) x
                                          WHERE lower(x->>'label') = lower($4)
                                            AND ($5::text IS NULL OR lower(x->>'value') LIKE '%' || lower($5) || '%')))
      ORDER BY b.pick_up_date DESC, b.pick_up_time DESC, b.id DESC LIMIT 2000`,
    [passengerId, f.from, f.to, f.field, f.value?.replace(/[\\%_]/g, (m) => `\\${m}`) ?? null]);
  return rows.map(({ pence, invoice_number, fields, ...j }) => ({
    ...j, fields: fields ?? [], amount: penceToPounds(pence), invoice: invoice_number === null ? null : invoiceLabel(invoice_number),
  }));
}
