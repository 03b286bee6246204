// VAT invoice numbers (issue 27): gap-free, one per booking. The counter row is locked and raised in the transaction
// that records the invoice, so two bookings asking at once take turns, and a number is never skipped nor used twice.
import type { Db } from '../db/index';

export interface Invoice { number: number; vat_number: string; vat_rate: number; issued_at: Date }

export const invoiceLabel = (n: number) => `INV-${String(n).padStart(6, '0')}`;

/** The booking's invoice, issued now with the next number if it has none. */
export async function invoiceFor(db: Db, bookingId: number, vatNumber: string, vatRate: number): Promise<Invoice> {
  return db.transaction(async (tx) => {
    const [had] = await tx.query<Invoice>('SELECT number, vat_number, vat_rate::float AS vat_rate, issued_at FROM invoices WHERE booking_id = $1', [bookingId]);
    if (had) return had;
    const [{ last }] = await tx.query<{ last: number }>('UPDATE invoice_counter SET last = last + 1 WHERE id = 1 RETURNING last');
    const [made] = await tx.query<Invoice>(
      `INSERT INTO invoices (number, booking_id, vat_number, vat_rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT (booking_id) DO NOTHING RETURNING number, vat_number, vat_rate::float AS vat_rate, issued_at`,
      [last, bookingId, vatNumber, vatRate]);
    if (made) return made;
    // Another request issued this booking's invoice meanwhile: its number stands, and this one is given back.
    throw new InvoiceRace();
  }).catch(async (err) => {
    if (!(err instanceof InvoiceRace)) throw err;
    const [had] = await db.query<Invoice>('SELECT number, vat_number, vat_rate::float AS vat_rate, issued_at FROM invoices WHERE booking_id = $1', [bookingId]);
    return had;
  });
}

class InvoiceRace extends Error {}

/** The VAT in a gross amount at a rate (20 for 20 %), to the penny: net and VAT add up to the gross exactly. */
export function vatOf(grossPence: number, ratePercent: number): { net: number; vat: number } {
  const net = Math.round((grossPence * 100) / (100 + ratePercent));
  return { net, vat: grossPence - net };
}
