// VAT invoices and their credit and debit notes (issues 27 and 39, decision 48): what was invoiced, kept as issued.
// An invoice is written whole once (its lines, net, VAT, gross, seller, buyer, journey) and never rewritten; a later
// difference in what the booking amounts to is a note referring to it. Invoices and each kind of note are numbered
// without gaps: the counter row is locked and raised in the transaction that writes the document, so a rolled back
// issue gives its number back and two at once take turns. Beneath the features (payments/refunds.ts, manage/ and the
// operator all read it), so it reads only the database.
import type { Queryable } from '../db/index';

export interface InvoiceLine { description: string; pence: number }
export interface Invoice {
  number: number; booking_id: number; booking_number: string; vat_number: string; vat_rate: number; issued_at: Date;
  lines: InvoiceLine[]; net_pence: number; vat_pence: number; gross_pence: number;
  seller: { name: string; lines: string[] }; buyer: { name: string };
  journey: { label: string; value: string }[]; payment: string;
}
export type NoteKind = 'credit' | 'debit';
export interface Note {
  kind: NoteKind; number: number; invoice_number: number; lines: InvoiceLine[];
  net_pence: number; vat_pence: number; gross_pence: number; vat_rate: number; issued_at: Date;
}
/** What an invoice shows besides its number, rate and date, taken from the booking and the settings when issued. */
export type InvoiceContent = Pick<Invoice, 'lines' | 'seller' | 'buyer' | 'journey' | 'payment'> & { gross_pence: number };

export const invoiceLabel = (n: number) => `INV-${String(n).padStart(6, '0')}`;
export const noteLabel = (n: Pick<Note, 'kind' | 'number'>) => `${n.kind === 'credit' ? 'CN' : 'DN'}-${String(n.number).padStart(6, '0')}`;

/** The VAT in a gross amount at a rate (20 for 20 %), to the penny: net and VAT add up to the gross exactly. */
export function vatOf(grossPence: number, ratePercent: number): { net: number; vat: number } {
  const net = Math.round((grossPence * 100) / (100 + ratePercent));
  return { net, vat: grossPence - net };
}

const INVOICE_COLUMNS = `i.number, i.booking_id, b.booking_number, i.vat_number, i.vat_rate::float AS vat_rate, i.issued_at, i.lines,
  i.net_pence, i.vat_pence, i.gross_pence, i.seller, i.buyer, i.journey, i.payment`;
const NOTE_COLUMNS = 'kind, number, invoice_number, lines, net_pence, vat_pence, gross_pence, vat_rate::float AS vat_rate, issued_at';

/** The booking's invoice, if it has one. */
export async function invoiceOf(q: Queryable, bookingId: number): Promise<Invoice | null> {
  const [row] = await q.query<Invoice>(
    `SELECT ${INVOICE_COLUMNS} FROM invoices i JOIN bookings b ON b.id = i.booking_id WHERE i.booking_id = $1`, [bookingId]);
  return row ?? null;
}

/** An invoice's notes, oldest first. */
export const notesOf = (q: Queryable, invoiceNumber: number) =>
  q.query<Note>(`SELECT ${NOTE_COLUMNS} FROM invoice_notes WHERE invoice_number = $1 ORDER BY id`, [invoiceNumber]);

/**
 * What the booking amounts to now, in pence: a card booking what its payments took (the first and each applied
 * change's difference) less the refunds of those payments that succeeded; a booking paid in the car its total, or
 * nothing once cancelled or not travelled. `due` says whether a VAT invoice may be issued for it: a card payment
 * succeeded, or the office marked a pay-in-car booking completed (and there is something to invoice).
 */
export async function amountNow(q: Queryable, bookingId: number): Promise<{ pence: number; due: boolean; card: boolean; account?: boolean }> {
  const [b] = await q.query<{ card: boolean; account: boolean; status: string; paid: boolean; total: number; payments: number; refunded: number }>(
    `WITH payments AS (
       SELECT payment_intent_id AS intent, paid_pence AS pence FROM bookings
        WHERE id = $1 AND payment_method = 'card' AND paid_pence IS NOT NULL AND payment_intent_id IS NOT NULL
       UNION ALL
       SELECT payment_intent_id, paid_pence FROM booking_changes
        WHERE booking_id = $1 AND status = 'applied' AND paid_pence IS NOT NULL AND payment_intent_id IS NOT NULL)
     SELECT b.payment_method = 'card' AS card, b.account_id IS NOT NULL AS account, b.status, b.paid_pence IS NOT NULL AS paid, b.total_booking_amount_pence AS total,
            (SELECT coalesce(sum(pence), 0) FROM payments)::int AS payments,
            (SELECT coalesce(sum(r.amount_pence), 0) FROM refunds r
              WHERE r.booking_id = $1 AND r.status = 'succeeded' AND r.payment_intent_id IN (SELECT intent FROM payments))::int AS refunded
       FROM bookings b WHERE b.id = $1`, [bookingId]);
  if (b.card) {
    const pence = b.payments - b.refunded;
    return { pence, due: b.paid && pence > 0, card: true };
  }
  // Issue 44: a journey on account is charged once finished (a no-show too, the car having gone) and invoiced with
  // its account's month, never on its own.
  if (b.account) return { pence: ['completed', 'no_show'].includes(b.status) ? b.total : 0, due: false, card: false, account: true };
  const pence = ['cancelled', 'no_show', 'expired', 'pending'].includes(b.status) ? 0 : b.total;
  return { pence, due: b.status === 'completed' && pence > 0, card: false };
}

/** Writes the booking's invoice with the next number (the caller holds the booking's row and found none). */
export async function recordInvoice(tx: Queryable, bookingId: number, vatNumber: string, vatRate: number, content: InvoiceContent): Promise<Invoice> {
  const { net, vat } = vatOf(content.gross_pence, vatRate);
  const [{ last }] = await tx.query<{ last: number }>('UPDATE invoice_counter SET last = last + 1 WHERE id = 1 RETURNING last');
  await tx.query(
    `INSERT INTO invoices (number, booking_id, vat_number, vat_rate, lines, net_pence, vat_pence, gross_pence, seller, buyer, journey, payment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [last, bookingId, vatNumber, vatRate, JSON.stringify(content.lines), net, vat, content.gross_pence,
      JSON.stringify(content.seller), JSON.stringify(content.buyer), JSON.stringify(content.journey), content.payment]);
  return (await invoiceOf(tx, bookingId))!;
}

/** The line a note gives for the difference, in words; an account's names the journey (its invoice lists many). */
const noteLine = (kind: NoteKind, card: boolean, account: string | null) => (account
  ? `${kind === 'credit' ? 'Charge reduced' : 'Charge increased'} for journey ${account}`
  : kind === 'credit' ? (card ? 'Refunded to the card' : 'Price reduced') : (card ? 'Further payment by card for a change' : 'Price increased'));

/**
 * Brings the booking's invoice up to what the booking amounts to now: when the invoice and its notes add up to
 * something else, one credit note (less) or debit note (more) for the difference, at the invoice's VAT rate, dated
 * now. Run inside the caller's transaction; it locks the booking's row first (the order every change, cancel and
 * payment of a booking takes), so two calls take turns and the second finds nothing left to settle. A booking with
 * no invoice has nothing to settle. Answers the note issued, or null.
 */
export async function settleInvoice(q: Queryable, bookingId: number): Promise<Note | null> {
  await q.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [bookingId]);
  // The booking's own invoice, or the account's invoice that lists it (issue 44) with what its line was invoiced at.
  const [inv] = await q.query<{ number: number; vat_rate: number; invoiced: number; booking_number: string | null }>(
    `SELECT i.number, i.vat_rate::float AS vat_rate,
            (coalesce(ib.gross_pence, i.gross_pence) + coalesce((SELECT sum(CASE n.kind WHEN 'debit' THEN n.gross_pence ELSE -n.gross_pence END)
                                         FROM invoice_notes n WHERE n.invoice_number = i.number AND n.booking_id = $1), 0))::int AS invoiced,
            CASE WHEN ib.booking_id IS NOT NULL THEN (SELECT booking_number FROM bookings WHERE id = $1) END AS booking_number
       FROM invoices i LEFT JOIN invoice_bookings ib ON ib.invoice_number = i.number AND ib.booking_id = $1
      WHERE i.booking_id = $1 OR ib.booking_id = $1 FOR UPDATE OF i`, [bookingId]);
  if (!inv) return null;
  const now = await amountNow(q, bookingId);
  const difference = now.pence - inv.invoiced;
  if (difference === 0) return null;
  const kind: NoteKind = difference < 0 ? 'credit' : 'debit';
  const gross = Math.abs(difference);
  const { net, vat } = vatOf(gross, inv.vat_rate);
  const [{ last }] = await q.query<{ last: number }>('UPDATE invoice_note_counters SET last = last + 1 WHERE kind = $1 RETURNING last', [kind]);
  const [note] = await q.query<Note>(
    `INSERT INTO invoice_notes (kind, number, invoice_number, lines, net_pence, vat_pence, gross_pence, vat_rate, booking_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${NOTE_COLUMNS}`,
    [kind, last, inv.number, JSON.stringify([{ description: noteLine(kind, now.card, inv.booking_number), pence: gross }]), net, vat, gross,
      inv.vat_rate, bookingId]);
  return note;
}
