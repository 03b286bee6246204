// Manage my booking (issue 27): the booking as its passenger sees it through its link, and "Find my booking".
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
import { invoiceFor } from './invoices';
import { refundSummary } from '../payments/ledger';
import { currentValues, storedBooking, waitingChangeOf } from './changes';
import { receiptFileName, receiptPdf } from './receipt';
import { formatExactPrice } from '../../domain/money';
import { formatDateUK, ukToday } from '../../domain/ukTime';

/** The booking a key opens, as its page shows it: 404 for a key that is not this booking's, 410 for an expired one. */
export async function manageView(db: Db, reference: string, key: string, settings: Settings, now: Date) {
  const bookingId = await bookingOfKey(db, reference, key);
  const [b] = await db.query<{
    status: string; pickup_at: Date; driver: Record<string, string> | null; price_breakdown: { lines: { label: string; amount: string }[] };
    payment_method: string; payment_status: string; payment_livemode: boolean | null; cancel_reason: string | null; cancelled_at: Date | null;
  }>(
    `SELECT b.status, b.pickup_at, b.driver, b.price_breakdown, b.payment_method, b.payment_status, b.payment_livemode, b.cancel_reason,
            b.cancelled_at FROM bookings b WHERE b.id = $1`, [bookingId]);
  const refund = await refundSummary(db, bookingId);
  const booking = (await loadBooking(db, bookingId))!;
  const stored = await storedBooking(db, bookingId);
  const pickupAt = new Date(b.pickup_at);
  const status = manageStatus(b);
  const may = passengerMay({ status: b.status, pickupAt }, settings, now);
  return {
    booking,
    manage: {
      status, status_words: STATUS_WORDS[status],
      driver: b.status === 'confirmed' ? b.driver : null,
      cancelled: b.cancelled_at ? { at: ukMoment(new Date(b.cancelled_at)), reason: b.cancel_reason } : null,
      refund: refund && { amount: penceToPounds(refund.pence), status: refund.status },
      breakdown: b.price_breakdown.lines,
      payment: { method: b.payment_method, status: b.payment_status, test: b.payment_livemode === false },
      pickup_words: ukMoment(pickupAt),
      change_until: ukMoment(changeDeadline(pickupAt, settings)), cancel_until: ukMoment(cancelDeadline(pickupAt, settings)),
      may,
      /** The change form's values as the booking has them, and the change still waiting for its difference to be paid. */
      form: currentValues(stored), waiting_change: await waitingChangeOf(db, bookingId),
      has_return: stored.return_date !== null, meet_and_greet: stored.details.meet_and_greet === 'yes',
      has_receipt: hasReceipt(b.status, b.payment_method),
    },
  };
}

export interface FindDeps { db: Db; limits: Limits; client: string; siteUrl: string; settings: Settings }

/**
 * "Find my booking": counted per client address and per reference first; when the reference and e-mail match a
 * booking, a new key's link goes to the booking's own address. The answer is the same either way.
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
      const key = await mintKey(tx, row.id);
      const booking = (await loadBooking(tx, row.id))!;
      const mail = manageLinkMail(booking, manageLink(deps.siteUrl, ref, key), deps.settings);
      await enqueueEmail(tx, { kind: 'manage_link', to: row.to, ...mail, bookingId: row.id, eraseAfterSend: true });
    });
  }
  return MANAGE_MESSAGES.findSent;
}

/** The booking's receipt, or its VAT invoice when the operator has a VAT_NUMBER: a PDF and its file name. */
export async function manageReceipt(db: Db, reference: string, key: string, settings: Settings, now: Date) {
  const bookingId = await bookingOfKey(db, reference, key);
  const [b] = await db.query<{
    status: string; price_breakdown: { lines: { label: string; amount: string }[] }; payment_method: string; payment_status: string;
    paid_at: Date | null; total_pence: number;
  }>(
    `SELECT b.status, b.price_breakdown, b.payment_method, b.payment_status, b.paid_at, b.total_booking_amount_pence AS total_pence
       FROM bookings b WHERE b.id = $1`, [bookingId]);
  const refund = await refundSummary(db, bookingId);
  if (!hasReceipt(b.status, b.payment_method)) throw new DomainError('conflict', MANAGE_MESSAGES.noReceipt);
  const vatNumber = settings.VAT_NUMBER?.trim() ?? '';
  const invoice = vatNumber ? await invoiceFor(db, bookingId, vatNumber, vatRate(settings)) : null;
  const payment = b.payment_method === 'card'
    ? `Paid by card${b.paid_at ? ` on ${formatDateUK(ukToday(new Date(b.paid_at)))}` : ''}`
    : b.status === 'completed' ? 'Paid in the car' : 'To be paid in the car';
  const input = {
    booking: (await loadBooking(db, bookingId))!, settings, breakdown: b.price_breakdown.lines, payment, invoice, now,
    refund: refund?.status === 'succeeded' ? `${formatExactPrice(penceToPounds(refund.pence))} refunded to the card` : null,
  };
  return { pdf: await receiptPdf(input), fileName: receiptFileName(input) };
}

/** VAT_RATE in per cent (20 unless the operator says otherwise). */
const vatRate = (settings: Settings) => {
  const n = Number(settings.VAT_RATE);
  return settings.VAT_RATE?.trim() && Number.isFinite(n) && n >= 0 && n < 100 ? n : 20;
};
