// Card payment links (issue 43 §1): a booking the office took by phone waits as 'pending', its confirmation held, until
// the passenger pays it on the site's page /pay/BK-...#key=... (the key never reaches the server's logs: it travels in
// the address's fragment and then in a header). The page pays the booking's one payment intent, as the card page does
// (./cardBookings.ts: made once per booking, 3-D Secure included), and the booking is completed once, by whichever
// comes first of the page, the provider's webhook and the start-up check (completeCardBooking). A link works until its
// expiry; a used one shows the booking paid, never pays twice.
import type { Queryable } from '../db/index';
import type { Settings } from '../../domain/settings';
import type { BookingResult } from '../../domain/schemas';
import { linkState, type LinkState } from '../../domain/phoneBookings';
import { penceToPounds } from '../../domain/money';
import { formatDateUK, formatTime12 } from '../../domain/ukTime';
import { DomainError } from '../errors';
import { enqueueEmail, enqueueSms } from '../mail/queue';
import { paymentLinkMail } from '../mail/templates';
import { paymentLinkText, textable } from '../mail/texts';
import { hashKey, isKeyShaped, newKey } from './manageKeys';
import { loadBooking } from './queries';

export const payLink = (siteUrl: string, reference: string, key: string) => `${siteUrl}/pay/${reference}#key=${key}`;
export const LINK_NOT_VALID = 'This payment link is not valid. Please use the link in your latest e-mail or text, or call us.';

/**
 * Makes the booking's link and sends it to the passenger (e-mail, and a text to a mobile), in the caller's transaction:
 * answers the link, shown once to the office (to read out or send another way).
 */
export async function sendPaymentLink(tx: Queryable, o: {
  booking: BookingResult; staffId: number; expiresAt: Date; settings: Settings; siteUrl: string;
}): Promise<{ url: string; sentTo: string }> {
  const key = newKey();
  const { booking: b, passengerDetails: p } = o.booking;
  const sentTo = p.passenger_email;
  await tx.query('INSERT INTO payment_links (booking_id, key_hash, sent_to, created_by, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [b.id, hashKey(key), sentTo, o.staffId, o.expiresAt.toISOString()]);
  const url = payLink(o.siteUrl, b.booking_number, key);
  const mail = paymentLinkMail(o.booking, url, o.expiresAt, o.settings);
  // The link is a key: erased from the queue once sent (as the confirmation's manage link is).
  await enqueueEmail(tx, { kind: 'payment_link', to: sentTo, subject: mail.subject, text: mail.text, html: mail.html, bookingId: b.id, eraseAfterSend: true });
  if (textable(p.passenger_contact_no)) {
    await enqueueSms(tx, {
      kind: 'payment_link_sms', to: p.passenger_contact_no, label: `Pay for ${b.booking_number}`,
      text: paymentLinkText(o.booking, url, o.settings), bookingId: b.id, eraseAfterSend: true,
    });
  }
  return { url, sentTo };
}

export interface LinkedBooking {
  id: number; reference: string; status: string; paid: boolean; total_pence: number; intent: string | null; expires_at: Date;
}

/** The booking a link's key opens (404 for a wrong key or reference, the same answer for both). */
export async function bookingOfLink(db: Queryable, reference: string, key: string): Promise<LinkedBooking> {
  const [row] = isKeyShaped(key) ? await db.query<LinkedBooking>(
    `SELECT b.id, b.booking_number AS reference, b.status, b.paid_at IS NOT NULL AS paid, b.total_booking_amount_pence AS total_pence,
            b.payment_intent_id AS intent, l.expires_at
       FROM payment_links l JOIN bookings b ON b.id = l.booking_id
      WHERE l.key_hash = $1 AND b.booking_number = $2`, [hashKey(key), reference.trim().toUpperCase()]) : [];
  if (!row) throw new DomainError('notFound', LINK_NOT_VALID);
  return { ...row, expires_at: new Date(row.expires_at) };
}

export interface PayPage {
  reference: string; state: LinkState; amount: string; expires_at: string;
  /** The booking as booked, while it waits for its payment (a link paid, expired or cancelled shows no one's details). */
  trip: { pickup: string; dropoff: string | null; date: string; time: string; vehicle: string; company: string; passenger: string } | null;
  /** The office's phone, to call when the link has expired. */
  phone: string;
}

/** What the payment page shows: the booking as the passenger booked it, the amount, and where the link stands. */
export async function payPage(db: Queryable, linked: LinkedBooking, now: Date, settings: Settings): Promise<PayPage> {
  const state = linkState(linked, linked.expires_at, now);
  const r = state === 'awaiting' ? (await loadBooking(db, linked.id))! : null;
  return {
    reference: linked.reference, state, amount: penceToPounds(linked.total_pence), expires_at: linked.expires_at.toISOString(),
    trip: r && {
      pickup: r.booking.pick_up_address, dropoff: r.booking.drop_off_address, date: formatDateUK(r.booking.pick_up_date),
      time: formatTime12(r.booking.pick_up_time), vehicle: r.booking.fleet_category.category_name, company: r.booking.company_name,
      passenger: r.passengerDetails.passenger_name,
    },
    phone: settings.Company_Contact_Info ?? '',
  };
}

/** Refuses to take money through a link that no longer may: paid (the page then shows it paid), cancelled, expired. */
export function refuseUnpayable(linked: LinkedBooking, now: Date): void {
  const state = linkState(linked, linked.expires_at, now);
  if (state === 'paid') throw new DomainError('conflict', 'This booking has been paid. Your confirmation is on its way by e-mail.');
  if (state === 'cancelled') throw new DomainError('conflict', 'This booking was cancelled, so there is nothing to pay.');
  if (state === 'expired') throw new DomainError('conflict', 'This payment link has expired. Please call us to book again.');
}
