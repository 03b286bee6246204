// A booking's VAT invoice as the passenger's receipt download issues it (issue 39, decision 48): only for a booking
// paid by card or completed, and only with the operator's VAT_NUMBER; what it shows is taken once, now, from the
// booking and the settings, and kept (payments/invoices.ts). Each download first settles the invoice, so it lists
// every credit and debit note the booking's money calls for.
import type { Queryable } from '../db/index';
import type { BookingResult } from '../../domain/schemas';
import type { Settings } from '../../domain/settings';
import { bookingSummary } from '../../domain/bookingSummary';
import { formatExactPrice, penceToPounds, poundsToPence } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';
import { loadBooking } from '../bookings/queries';
import {
  amountNow, invoiceLabel, invoiceOf, noteLabel, notesOf, recordInvoice, settleInvoice, type Invoice, type InvoiceContent, type InvoiceLine, type Note,
} from '../payments/invoices';

/** VAT_RATE in per cent (20 unless the operator says otherwise). */
export const vatRate = (settings: Settings) => {
  const n = Number(settings.VAT_RATE);
  return settings.VAT_RATE?.trim() && Number.isFinite(n) && n >= 0 && n < 100 ? n : 20;
};

/** The seller's lines under its name: the address, then the phone and e-mail. */
export const sellerLines = (s: Settings) =>
  [s.Company_Address ?? '', [s.Company_Contact_Info, s.Company_Email].filter(Boolean).join('  |  ')].filter(Boolean);

/** The journey and who travels: the one booking summary (src/domain/bookingSummary.ts), as the e-mail has it. */
export function journeyRows(r: BookingResult, settings: Settings): { label: string; value: string }[] {
  const summary = bookingSummary(r, { reader: 'email', settings, amount: (p) => formatExactPrice(p) });
  const b = r.booking;
  return [
    ...summary.journey.filter((x) => x.label !== 'Reference ID' && x.label !== 'Booking type'), ...summary.stops,
    { label: 'Vehicle', value: `${b.fleet_category.category_name}, ${b.company_name}` },
  ];
}

/**
 * The price lines for `gross`: each of the booking's lines for all its vehicles, and, when what was paid is not its
 * price (refunded in part, or a refund still being made), a line for the difference, so the lines add up to the gross.
 */
export function invoiceLines(breakdown: { label: string; amount: string }[], qty: number, gross: number): InvoiceLine[] {
  const lines = breakdown.map((l) => ({ description: qty > 1 ? `${l.label} (${qty} vehicles)` : l.label, pence: poundsToPence(l.amount) * qty }));
  const rest = gross - lines.reduce((sum, l) => sum + l.pence, 0);
  if (rest < 0) lines.push({ description: 'Refunded to the card', pence: rest });
  if (rest > 0) lines.push({ description: 'Paid beyond the price (a refund is being made)', pence: rest });
  return lines;
}

/** How the booking is paid and where that stands, in words. */
export function paymentWords(b: { payment_method: string; status: string; paid_at: Date | null }): string {
  if (b.payment_method === 'card') return `Paid by card${b.paid_at ? ` on ${formatDateUK(ukToday(new Date(b.paid_at)))}` : ''}`;
  // Issue 44: on the company's account, paid against its monthly invoice (the account's VAT invoice, not this).
  if (b.payment_method === 'account') return "On account: invoiced with the month's journeys to the company";
  return b.status === 'completed' ? 'Paid in the car' : 'To be paid in the car';
}

export interface InvoiceState { invoice: Invoice | null; notes: Note[] }

/**
 * The booking's invoice and notes, inside the caller's transaction: issued now when it has none, the operator has a
 * VAT number and the booking is paid or completed; then settled (a note for any difference since).
 */
export async function invoiceForDownload(tx: Queryable, bookingId: number, settings: Settings): Promise<InvoiceState> {
  await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [bookingId]);
  let invoice = await invoiceOf(tx, bookingId);
  const vatNumber = settings.VAT_NUMBER?.trim() ?? '';
  if (!invoice && vatNumber) {
    const now = await amountNow(tx, bookingId);
    if (now.due) invoice = await recordInvoice(tx, bookingId, vatNumber, vatRate(settings), await contentOf(tx, bookingId, settings, now.pence));
  }
  if (!invoice) return { invoice: null, notes: [] };
  await settleInvoice(tx, bookingId);
  return { invoice, notes: await notesOf(tx, invoice.number) };
}

async function contentOf(q: Queryable, bookingId: number, settings: Settings, gross: number): Promise<InvoiceContent> {
  const r = (await loadBooking(q, bookingId))!;
  const [b] = await q.query<{ payment_method: string; status: string; paid_at: Date | null; qty: number; lines: { label: string; amount: string }[] }>(
    "SELECT payment_method, status, paid_at, vehicle_qty AS qty, price_breakdown->'lines' AS lines FROM bookings WHERE id = $1", [bookingId]);
  return {
    gross_pence: gross, lines: invoiceLines(b.lines, b.qty, gross),
    seller: { name: settings.Company_Name ?? '', lines: sellerLines(settings) },
    buyer: { name: r.passengerDetails.passenger_name }, journey: journeyRows(r, settings), payment: paymentWords(b),
  };
}

/** A document the manage page lists: its number, what it is, its date (DD-MM-YYYY) and amount in pounds (less: negative). */
export interface ReceiptDocument { number: string; title: string; issued_on: string; amount: string }

/**
 * What the manage page says of the booking's documents, issuing nothing: whether its download is a VAT invoice (one
 * was issued, or will be at the download), and the invoice and notes issued so far.
 */
export async function receiptDocuments(q: Queryable, bookingId: number, settings: Settings): Promise<{ invoice: boolean; documents: ReceiptDocument[] }> {
  const invoice = await invoiceOf(q, bookingId);
  if (!invoice) return { invoice: Boolean(settings.VAT_NUMBER?.trim()) && (await amountNow(q, bookingId)).due, documents: [] };
  const on = (at: Date) => formatDateUK(ukToday(new Date(at)));
  return {
    invoice: true,
    documents: [
      { number: invoiceLabel(invoice.number), title: 'VAT invoice', issued_on: on(invoice.issued_at), amount: penceToPounds(invoice.gross_pence) },
      ...(await notesOf(q, invoice.number)).map((n) => ({
        number: noteLabel(n), title: n.kind === 'credit' ? 'Credit note' : 'Debit note', issued_on: on(n.issued_at),
        amount: penceToPounds(n.kind === 'credit' ? -n.gross_pence : n.gross_pence),
      })),
    ],
  };
}
