// Manage my booking (issue 27): the booking as its passenger sees it through its link, and "Find my booking".
import { bookingFlight } from '../flights/bookingFlight';
import type { Db } from '../db/index';
import { DomainError } from '../errors';
import type { Settings } from '../../domain/settings';
import { MANAGE_MESSAGES, STATUS_WORDS, cleanReference, findErrors, hasReceipt, cancelDeadline, changeDeadline, manageStatus, passengerMay, ukMoment } from '../../domain/manageRules';
import { emailKey } from '../../domain/fields';
import { penceToPounds } from '../../domain/money';
import { loadBooking } from '../bookings/queries';
import { enqueueEmail } from '../mail/queue';
import { manageLinkMail } from '../mail/templates';
import { takeAllowance, type Limits } from '../limits';
import { bookingOfKey, manageLink, mintKey } from '../bookings/manageKeys';
import { invoiceForDownload, paymentWords, receiptDocuments } from './invoices';
import { invoiceFileName, invoicePdf, noteFileName, notePdf } from './invoicePdf';
import { invoiceLabel, noteLabel } from '../payments/invoices';
import { paymentsLeft, refundSummary, refundableLeft } from '../payments/ledger';
import { refundDue } from '../../domain/operatorDesk';
import { currentValues, pickupTimes, storedBooking, waitingChangeOf } from './changes';
import { bookedAddress, countMessage, isBookedAddress } from './recipients';
import { receiptFileName, receiptPdf } from './receipt';
import { formatExactPrice } from '../../domain/money';
import { liveJob } from '../live/liveJob';

/** The booking a key opens, as its page shows it: 404 for a key that is not this booking's, 410 for an expired one. */
/** What a passenger is shown of their driver (issue 41): name, mobile, the car, its colour when known, its registration. */
function passengersDriver(d: Record<string, string>) {
  return { name: d.name, mobile: d.mobile, vehicle: d.vehicle, registration: d.registration, ...(d.colour ? { colour: d.colour } : {}) };
}

export async function manageView(db: Db, reference: string, key: string, settings: Settings, now: Date) {
  const bookingId = await bookingOfKey(db, reference, key);
  const [b] = await db.query<{
    status: string; pickup_at: Date; driver: Record<string, string> | null; price_breakdown: { lines: { label: string; amount: string }[] };
    payment_method: string; payment_status: string; payment_livemode: boolean | null; cancel_reason: string | null; cancelled_at: Date | null;
    original_pickup_at: Date; emailed_cancel: boolean; created_at: Date;
  }>(
    `SELECT b.status, b.pickup_at, b.driver, b.price_breakdown, b.payment_method, b.payment_status, b.payment_livemode, b.cancel_reason,
            b.cancelled_at, coalesce(b.original_pickup_at, b.pickup_at) AS original_pickup_at,
            coalesce(b.cancel_emailed, true) AS emailed_cancel, b.created_at
       FROM bookings b WHERE b.id = $1`, [bookingId]);
  const refund = await refundSummary(db, bookingId);
  const left = refundableLeft(await paymentsLeft(db, bookingId));
  const booking = (await loadBooking(db, bookingId))!;
  const stored = await storedBooking(db, bookingId);
  const times = pickupTimes(b);
  const status = manageStatus(b);
  const may = passengerMay({ status: b.status, ...times }, settings, now);
  return {
    booking,
    manage: {
      status, status_words: STATUS_WORDS[status],
      // The driver and the car as the passenger needs them: never the office's record (licence numbers, who dispatched).
      driver: b.status === 'confirmed' && b.driver ? passengersDriver(b.driver) : null,
      /** The driver's job as it stands: its status in words and, on the way, the car's distance (GET .../live follows it). */
      job: await liveJob(db, bookingId, now),
      /** An airport pickup's flight (issue 42): its status, and the pickup moved with it beside the time booked. */
      flight: await bookingFlight(db, bookingId),
      // Whether the passenger was e-mailed of it: not when their address's allowance was used up (issue 39). Recorded with
      // the cancellation (bookings.cancel_emailed), as retention deletes the e-mail long before the link expires.
      cancelled: b.cancelled_at ? { at: ukMoment(new Date(b.cancelled_at)), reason: b.cancel_reason, emailed: b.emailed_cancel } : null,
      refund: refund && { amount: penceToPounds(refund.pence), status: refund.status },
      /** Card money of a cancelled booking not refunded yet (a company's staff cancelled it: the office refunds, decision 50). */
      refund_due: refundDue({ status: b.status, leftPence: left }) ? penceToPounds(left) : null,
      breakdown: b.price_breakdown.lines,
      payment: { method: b.payment_method, status: b.payment_status, test: b.payment_livemode === false },
      pickup_words: ukMoment(times.pickupAt),
      change_until: ukMoment(changeDeadline(times, settings)), cancel_until: ukMoment(cancelDeadline(times, settings)),
      /** The pickup and the one the booking was made for: the change form says what a move does to the deadlines. */
      pickup_at: times.pickupAt.toISOString(), original_pickup_at: times.originalPickupAt.toISOString(),
      /** When it was booked: one made inside the free-cancellation window never had free cancelling. */
      booked_at: new Date(b.created_at).toISOString(),
      may,
      /** The change form's values as the booking has them, and the change still waiting for its difference to be paid. */
      form: currentValues(stored), waiting_change: await waitingChangeOf(db, bookingId),
      has_return: stored.return_date !== null, meet_and_greet: stored.details.meet_and_greet === 'yes',
      has_receipt: hasReceipt(b.status, b.payment_method),
      /** Whether the receipt download is a VAT invoice, and the invoice and its credit and debit notes issued (issue 39). */
      receipt: await receiptDocuments(db, bookingId, settings),
    },
  };
}

export interface FindDeps { db: Db; limits: Limits; client: string; siteUrl: string; settings: Settings }

/**
 * "Find my booking": counted per client address and per reference first; when the reference and e-mail match a
 * booking, a new key's link goes to the booking's own address, counted against that address (issue 39): over its
 * allowance nothing is sent. The answer is the same either way.
 */
export async function findBooking(deps: FindDeps, reference: string, email: string): Promise<string> {
  const ref = cleanReference(reference);
  const [field, message] = Object.entries(findErrors({ reference, email }))[0] ?? [];
  if (field) throw new DomainError('invalid', message, field);
  await takeAllowance(deps.db, deps.limits, [{ limit: 'bookingLookups', key: deps.client }, { limit: 'linksPerBooking', key: ref }]);
  const [row] = await deps.db.query<{ id: number; to: string }>(
    `SELECT b.id, p.passenger_email AS to FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id
       LEFT JOIN passengers a ON a.id = b.passenger_id
      WHERE b.booking_number = $1 AND b.personal_data_removed_at IS NULL
        AND (lower(trim(p.passenger_email)) = $2 OR lower(trim(a.email)) = $2)`, [ref, emailKey(email)]);
  if (row) {
    await deps.db.transaction(async (tx) => {
      // The booking's row first, then the address's count: the order every change, cancel and payment takes (they lock
      // the booking FOR UPDATE, then count). Counting first and then writing rows that reference the booking (its key,
      // its e-mail: a KEY SHARE lock) waits in the opposite order, and on PostgreSQL Find my booking and a change or
      // cancel of the same booking at once could deadlock (40P01).
      await tx.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [row.id]);
      if (!(await countMessage(tx, deps.limits, row.to))) return;
      const key = await mintKey(tx, row.id);
      const booking = (await loadBooking(tx, row.id))!;
      const plain = !isBookedAddress(await bookedAddress(tx, row.id, row.to), row.to);
      const mail = manageLinkMail(booking, manageLink(deps.siteUrl, ref, key), deps.settings, plain);
      await enqueueEmail(tx, { kind: 'manage_link', to: row.to, ...mail, bookingId: row.id, eraseAfterSend: true });
    });
  }
  return MANAGE_MESSAGES.findSent;
}

/**
 * The booking's receipt, or its VAT invoice (issued at the first download of a paid or completed booking when the
 * operator has a VAT_NUMBER, and settled: a credit or debit note for any difference since), or one of that invoice's
 * notes named by `document` (INV-000001, CN-000001, DN-000001): a PDF and its file name.
 */
export async function manageReceipt(db: Db, reference: string, key: string, settings: Settings, now: Date, document?: string) {
  const bookingId = await bookingOfKey(db, reference, key);
  const wanted = document?.trim().toUpperCase() || null;
  if (wanted !== null && !/^(INV|CN|DN)-\d{6,}$/.test(wanted)) throw new DomainError('invalid', RECEIPT_MESSAGES.badDocument, 'document');
  const [b] = await db.query<{
    status: string; price_breakdown: { lines: { label: string; amount: string }[] }; payment_method: string; paid_at: Date | null;
  }>('SELECT b.status, b.price_breakdown, b.payment_method, b.paid_at FROM bookings b WHERE b.id = $1', [bookingId]);
  const { invoice, notes } = await db.transaction((tx) => invoiceForDownload(tx, bookingId, settings));
  // A booking issued an invoice keeps it (and its notes) whatever became of it since.
  if (!invoice && !hasReceipt(b.status, b.payment_method)) throw new DomainError('conflict', MANAGE_MESSAGES.noReceipt);
  if (invoice && (wanted === null || wanted === invoiceLabel(invoice.number))) {
    return { pdf: await invoicePdf(invoice, notes), fileName: invoiceFileName(invoice) };
  }
  const note = notes.find((n) => noteLabel(n) === wanted);
  if (invoice && note) return { pdf: await notePdf(invoice, note), fileName: noteFileName(note) };
  if (wanted !== null) throw new DomainError('notFound', RECEIPT_MESSAGES.noDocument);
  const refund = await refundSummary(db, bookingId);
  const input = {
    booking: (await loadBooking(db, bookingId))!, settings, breakdown: b.price_breakdown.lines, payment: paymentWords(b), now,
    // A journey on account is paid against its month's invoice, never by this booking: its download is a confirmation.
    paid: b.payment_method === 'card' ? b.paid_at !== null : b.payment_method !== 'account' && b.status === 'completed',
    refund: refund?.status === 'succeeded' ? `${formatExactPrice(penceToPounds(refund.pence))} refunded to the card` : null,
  };
  return { pdf: await receiptPdf(input), fileName: receiptFileName(input) };
}

export const RECEIPT_MESSAGES = {
  badDocument: 'A document is named by its number, such as INV-000001, CN-000001 or DN-000001.',
  noDocument: 'This booking has no document with that number.',
} as const;
