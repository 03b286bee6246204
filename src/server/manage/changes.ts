// A passenger's changes to their booking (issue 27), through its link: the details until CHANGE_CUTOFF_HOURS before
// the pickup, and the pickup date and time, checked by the grace rule and priced again by the same engine.
// - The same price, or a new one the passenger confirmed on a booking paid in the car or refunded by card: saved at
//   once, with the booking's row locked, and the difference refunded after the commit (refunds.ts).
// - A higher price on a card booking: the change waits ('awaiting_payment') while the difference is paid by card
//   (3-D Secure as on the card page); it is applied once, by the browser's completion or the provider's webhook,
//   whichever comes first (`UPDATE ... WHERE status = 'awaiting_payment'`).
// Every change is e-mailed to the passenger (and to the old address when the e-mail changed), to the office with the
// company in copy, and written to the booking's timeline in the console. Each message to a passenger address counts
// against that address, and the booking's changes against the booking, in the change's transaction: a change refused
// for any reason counts nothing (recipients.ts). An address the booking was not made with reads fixed words only.
// The deadlines count from the pickup the booking was made for (src/domain/manageRules.ts deadlinePickup).
import type Stripe from 'stripe';
import type { Db, Queryable } from '../db/index';
import type { BookingForm, BookingResult, HourlyRateForm } from '../../domain/schemas';
import {
  CHANGE_FIELDS, CHANGE_LABELS, CHANGE_MESSAGES, MAX_EMAIL_CHANGES, changeErrors, changedFields, cleanChange, emailMoved, pickupMoved, priceOutcome,
  type ChangeValues,
} from '../../domain/manageChanges';
import { passengerMay, ukMoment, type PickupTimes } from '../../domain/manageRules';
import { pathOfScreen } from '../../domain/screens';
import { EXTRAS } from '../../domain/extras';
import { formatExactPrice, penceToPounds } from '../../domain/money';
import { isPhone, normalisePhone } from '../../domain/phone';
import { currencyOf, type Settings } from '../../domain/settings';
import { hour24To12, toTime24 } from '../../domain/ukTime';
import { emailKey } from '../../domain/fields';
import { DomainError } from '../errors';
import { enqueueEmail } from '../mail/queue';
import { bookingChangedMail, bookingChangedNotice } from '../mail/templates';
import { loadBooking } from '../bookings/queries';
import { byPassenger, recordChange, tellOffice } from '../bookings/bookingHistory';
import { quoteDistance, quoteHourly, type QuoteContext, type PricedOffer } from '../pricing/quote';
import { writeRefunds } from '../payments/ledger';
import { settleInvoice } from '../payments/invoices';
import { addressKey, takeAllowance, type Limits } from '../limits';
import { bookedAddress, isBookedAddress } from './recipients';
import { KEY_DAYS_AFTER_PICKUP, bookingOfKey } from '../bookings/manageKeys';
import { holdCreditForChange } from '../accounts/billing';

interface StoredBooking {
  id: number; booking_number: string; status: string; pickup_at: Date; original_pickup_at: Date; booking_type: 'milleage' | 'hourly'; payment_method: string;
  total_pence: number; unit_pence: number; vehicle_qty: number; company_id: number; vehicle_type_id: number; company_email: string;
  pick_up_address: string; drop_off_address: string | null; pick_up_date: string; pick_up_time: string; return_date: string | null;
  return_time: string | null; hourly_duration: string | null; flight_no: string | null; return_flight_no: string | null;
  passenger_name: string; passenger_email: string; passenger_contact_no: string; total_passengers: number; additional_info: string;
  sign_text: string | null; details: Record<string, unknown>; return_options: Record<string, unknown> | null;
  stops: { stop_address: string; stop_post_code: string; stop_street_number: string }[];
}

async function storedBooking(q: Queryable, bookingId: number, lock = false): Promise<StoredBooking> {
  if (lock) await q.query('SELECT 1 FROM bookings WHERE id = $1 FOR UPDATE', [bookingId]);
  const [b] = await q.query<StoredBooking>(
    `SELECT b.id, b.booking_number, b.status, b.pickup_at, coalesce(b.original_pickup_at, b.pickup_at) AS original_pickup_at, b.booking_type, b.payment_method, b.total_booking_amount_pence AS total_pence,
            b.unit_price_pence AS unit_pence, b.vehicle_qty, b.company_id, b.vehicle_type_id, coalesce(c.contact_email, '') AS company_email,
            b.pick_up_address, b.drop_off_address, to_char(b.pick_up_date, 'YYYY-MM-DD') AS pick_up_date, b.pick_up_time,
            to_char(b.return_date, 'YYYY-MM-DD') AS return_date, b.return_time, b.hourly_duration, b.flight_no, b.return_flight_no,
            p.passenger_name, p.passenger_email, p.passenger_contact_no, p.total_passengers, p.additional_info,
            d.sign_text, to_jsonb(d) AS details, d.return_options,
            (SELECT coalesce(json_agg(json_build_object('stop_address', s.stop_address, 'stop_post_code', s.stop_post_code,
                      'stop_street_number', s.stop_street_number) ORDER BY s.position), '[]'::json)
               FROM booking_stops s WHERE s.booking_id = b.id AND s.leg = 'outbound') AS stops
       FROM bookings b JOIN companies c ON c.id = b.company_id JOIN booking_passengers p ON p.booking_id = b.id
       JOIN booking_details d ON d.booking_id = b.id
      WHERE b.id = $1`, [bookingId]);
  return b;
}

/** The change form's values as the booking has them now. */
export function currentValues(b: StoredBooking): ChangeValues {
  const [h, m] = b.pick_up_time.split(':').map(Number);
  return {
    passenger_name: b.passenger_name, passenger_phone: b.passenger_contact_no, passenger_email: b.passenger_email,
    flight_no: b.flight_no ?? '', return_flight_no: b.return_flight_no ?? '', sign_text: b.sign_text ?? '',
    additional_info: b.additional_info ?? '', pickup_date: b.pick_up_date, pickup_hour: hour24To12(h), pickup_min: String(m).padStart(2, '0'),
  };
}

/** The trip as the booking form had it, at a new pickup time: priced again by the same engine, for its own vehicle. */
async function priceAgain(ctx: QuoteContext, b: StoredBooking, v: ChangeValues): Promise<{ offer: PricedOffer; pickupAt: Date }> {
  const only = { vehicle_id: b.vehicle_type_id, company_id: b.company_id };
  const pickup = { pickup: b.pick_up_address, pickup_date: v.pickup_date, pickup_hour: v.pickup_hour, pickup_min: v.pickup_min };
  const refuse = (err: unknown): never => {
    // The engine names the booking form's fields; here the pickup is the change form's.
    if (err instanceof DomainError && err.kind === 'invalid' && /^(pickup_date|pickup_hour|pickup_min|return_date)$/.test(err.field ?? '')) {
      throw new DomainError('invalid', err.message, err.field === 'return_date' ? 'pickup_date' : err.field);
    }
    throw err;
  };
  let offers: PricedOffer[];
  let pickupAt: Date;
  if (b.booking_type === 'hourly') {
    const form = { ...pickup, pickup_duration: b.hourly_duration ?? '' } as HourlyRateForm;
    ({ offers, pickupAt } = await quoteHourly(ctx, form, only).catch(refuse));
  } else {
    const d = b.details;
    const back = b.return_options ?? {};
    const [rh, rm] = (b.return_time ?? '').split(':').map(Number);
    const form: BookingForm = {
      ...pickup, dropoff: b.drop_off_address ?? '', select_option: b.return_date ? 'return' : 'one_way',
      return_date: b.return_date ?? '', return_hour: b.return_date ? hour24To12(rh) : '', return_min: b.return_date ? String(rm).padStart(2, '0') as BookingForm['pickup_min'] : '',
      stops: b.stops.map((s) => ({ street_name: s.stop_address, postcode: s.stop_post_code, number: s.stop_street_number })),
      passengers: b.total_passengers, luggages: Number(d.luggages ?? 0), hand_luggages: Number(d.hand_luggages ?? 0),
      return_passengers: Number(back.passengers ?? 0), return_luggages: Number(back.luggages ?? 0), return_hand_luggages: Number(back.hand_luggages ?? 0),
      ...Object.fromEntries(EXTRAS.flatMap((e) => [[e.key, d[e.detail]], [`return_${e.key}`, back[e.key] ?? (e.kind === 'yesno' ? 'no' : 0)]])),
      pickup_fight_number: v.flight_no, return_fight_number: v.return_flight_no,
    } as BookingForm;
    ({ offers, pickupAt } = await quoteDistance(ctx, form, only).catch(refuse));
  }
  const offer = offers.find((o) => o.offer.vehicle_id === b.vehicle_type_id && o.offer.company_id === b.company_id && o.unitPence > 0);
  if (!offer) throw new DomainError('invalid', 'This vehicle is no longer offered online for this trip. Please call us to change the time.', 'pickup_date');
  return { offer, pickupAt };
}

export interface ChangeDeps { db: Db; ctx: QuoteContext; settings: Settings; now: Date; siteUrl: string; limits: Limits }

export type ChangeAnswer =
  | { status: 'saved'; refundIds: number[] }
  | { status: 'confirm_price'; outcome: 'pay' | 'refund' | 'confirm'; old_total: string; new_total: string; difference: string }
  | { status: 'payment_required'; change_id: number; amount_pence: number; new_total: string };

/**
 * The booking as the passenger wants it: each field sent (a field left out keeps its value; anything but text is
 * refused by the form's rules), checked by the form's rules, as stored. A one-way trip has no return flight.
 */
function askedValues(b: StoredBooking, body: Record<string, unknown>): ChangeValues {
  const sent = Object.fromEntries(CHANGE_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]));
  const merged: Record<string, unknown> = { ...currentValues(b), ...sent };
  const errors = changeErrors(merged, isPhone);
  const [field, message] = Object.entries(errors).find(([, m]) => m) ?? [];
  if (field) throw new DomainError('invalid', message!, field);
  const v = merged as unknown as ChangeValues;
  return cleanChange({ ...v, passenger_phone: normalisePhone(v.passenger_phone) ?? v.passenger_phone, return_flight_no: b.return_date ? v.return_flight_no : '' });
}

/** The pickup as the deadlines read it: the one the booking has and the one it was made for. */
export const pickupTimes = (b: { pickup_at: Date; original_pickup_at: Date }): PickupTimes =>
  ({ pickupAt: new Date(b.pickup_at), originalPickupAt: new Date(b.original_pickup_at) });

function refuseClosed(b: StoredBooking, settings: Settings, now: Date): void {
  if (b.status !== 'confirmed') throw new DomainError('conflict', CHANGE_MESSAGES.notOpen);
  if (!passengerMay({ status: b.status, ...pickupTimes(b) }, settings, now).change) throw new DomainError('conflict', CHANGE_MESSAGES.tooLate);
}

/** The passenger addresses a change mails: the new one and the old one, one mailbox once. */
const changeRecipients = (before: ChangeValues, after: ChangeValues) =>
  [...new Map([after.passenger_email, before.passenger_email].map((e) => [addressKey(e), e])).values()];

/** A change's 429 for a recipient used up names the change form's e-mail field. */
const changeLimits = (limits: Limits): Limits => ({ ...limits, messagesToAddress: { ...limits.messagesToAddress, field: 'passenger_email' } });

/** One more change of the booking's mailbox, if it has any left (one statement: two at once cannot both pass). */
async function countEmailChange(tx: Queryable, bookingId: number): Promise<void> {
  const rows = await tx.query(
    'UPDATE bookings SET passenger_email_changes = passenger_email_changes + 1 WHERE id = $1 AND passenger_email_changes < $2 RETURNING id',
    [bookingId, MAX_EMAIL_CHANGES]);
  if (!rows.length) throw new DomainError('invalid', CHANGE_MESSAGES.emailChangesUsed, 'passenger_email');
}

/**
 * POST /manage/{reference}/changes: saves a change, or says what it would cost. A new price is applied only when the
 * passenger sent it back as `accept_total` (what they were shown), so a price that moved meanwhile is shown again.
 */
export async function askChange(deps: ChangeDeps, reference: string, key: string, body: Record<string, unknown>): Promise<ChangeAnswer> {
  const bookingId = await bookingOfKey(deps.db, reference, key);
  const seen = await storedBooking(deps.db, bookingId);
  const after = askedValues(seen, body);
  refuseClosed(seen, deps.settings, deps.now);
  const fields = changedFields(currentValues(seen), after);
  if (!fields.length) throw new DomainError('invalid', CHANGE_MESSAGES.nothingChanged);
  // Priced before the transaction (the engine reads the reference data); the locked row must still be as priced.
  const priced = pickupMoved(fields) ? await priceAgain(deps.ctx, seen, after) : null;
  const newTotal = priced ? priced.offer.unitPence * seen.vehicle_qty : seen.total_pence;
  const outcome = priceOutcome(seen.payment_method, seen.total_pence, newTotal);
  const accepted = typeof body.accept_total === 'string' && body.accept_total === penceToPounds(newTotal);
  if (outcome !== 'same' && !accepted) {
    return {
      status: 'confirm_price', outcome, old_total: penceToPounds(seen.total_pence), new_total: penceToPounds(newTotal),
      difference: penceToPounds(Math.abs(newTotal - seen.total_pence)),
    };
  }
  return deps.db.transaction(async (tx) => {
    const b = await storedBooking(tx, bookingId, true);
    refuseClosed(b, deps.settings, deps.now);
    const before = currentValues(b);
    // Any change asked for now replaces one still waiting for its payment (paid later, that one is refunded).
    await tx.query("UPDATE booking_changes SET status = 'replaced' WHERE booking_id = $1 AND status = 'awaiting_payment'", [bookingId]);
    if (b.total_pence !== seen.total_pence || changedFields(before, currentValues(seen)).length) {
      throw new DomainError('conflict', 'This booking was changed a moment ago. Please look at it again and make your change.');
    }
    // Counted here, in the transaction, once nothing else refuses the change: a refusal (these included) undoes them.
    // A change that waits for its payment is counted now, as its messages follow the payment.
    if (emailMoved(before, after)) await countEmailChange(tx, bookingId);
    await takeAllowance(tx, changeLimits(deps.limits), [
      { limit: 'bookingChanges', key: String(bookingId) },
      ...changeRecipients(before, after).map((to) => ({ limit: 'messagesToAddress' as const, key: addressKey(to) })),
    ]);
    // Issue 44: a journey on account stays within its account's credit limit.
    await holdCreditForChange(tx, bookingId, b.total_pence, newTotal, deps.settings);
    const change = {
      bookingId, before, after, oldTotal: b.total_pence, newTotal,
      breakdown: priced?.offer.detail.breakdown ?? null, pickupAt: priced?.pickupAt ?? null, unitPence: priced?.offer.unitPence ?? null,
    };
    if (outcome === 'pay') {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO booking_changes (booking_id, before, after, old_total_pence, new_total_pence, price_breakdown, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'awaiting_payment') RETURNING id`,
        [bookingId, JSON.stringify(before), JSON.stringify(changeRecord(change)), b.total_pence, newTotal, JSON.stringify(change.breakdown)]);
      return { status: 'payment_required', change_id: row.id, amount_pence: newTotal - b.total_pence, new_total: penceToPounds(newTotal) };
    }
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO booking_changes (booking_id, before, after, old_total_pence, new_total_pence, price_breakdown, status, applied_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'applied', now()) RETURNING id`,
      [bookingId, JSON.stringify(before), JSON.stringify(changeRecord(change)), b.total_pence, newTotal, JSON.stringify(change.breakdown)]);
    await applyChange(tx, b, change);
    const refundIds = outcome === 'refund' ? await writeRefunds(tx, bookingId, b.total_pence - newTotal, { changeId: row.id }) : [];
    await tellOfChange(tx, deps, b, change, moneyWords(outcome, change, deps.settings));
    return { status: 'saved', refundIds };
  });
}

interface Change {
  bookingId: number; before: ChangeValues; after: ChangeValues; oldTotal: number; newTotal: number;
  breakdown: unknown; pickupAt: Date | null; unitPence: number | null;
}

/** What a waiting change keeps, to be applied once paid. */
const changeRecord = (c: Change) => ({ ...c.after, pickup_at: c.pickupAt?.toISOString() ?? null, unit_pence: c.unitPence });

/** The change written to the booking (its row locked by the caller). */
async function applyChange(tx: Queryable, b: StoredBooking, c: Change): Promise<void> {
  const a = c.after;
  await tx.query(
    `UPDATE booking_passengers SET passenger_name = $2, passenger_email = $3, passenger_contact_no = $4, additional_info = $5 WHERE booking_id = $1`,
    [b.id, a.passenger_name, a.passenger_email, a.passenger_phone, a.additional_info]);
  await tx.query('UPDATE booking_details SET sign_text = $2 WHERE booking_id = $1', [b.id, a.sign_text || null]);
  await tx.query(
    `UPDATE bookings SET flight_no = $2, return_flight_no = $3, pick_up_date = $4::date, pick_up_time = $5,
            original_pickup_at = coalesce(original_pickup_at, pickup_at), pickup_at = coalesce($6::timestamptz, pickup_at), unit_price_pence = coalesce($7::int, unit_price_pence),
            total_booking_amount_pence = $8, price_breakdown = coalesce($9::jsonb, price_breakdown)
      WHERE id = $1`,
    [b.id, a.flight_no || null, b.return_date ? a.return_flight_no || null : null, a.pickup_date, toTime24(a.pickup_hour, a.pickup_min),
      c.pickupAt?.toISOString() ?? null, c.unitPence, c.newTotal, c.breakdown ? JSON.stringify(c.breakdown) : null]);
  // The links keep working as long after the new pickup as after the old one.
  if (c.pickupAt) {
    await tx.query('UPDATE booking_keys SET expires_at = $2::timestamptz + make_interval(days => $3) WHERE booking_id = $1',
      [b.id, c.pickupAt.toISOString(), KEY_DAYS_AFTER_PICKUP]);
  }
  // An issued VAT invoice never changes: a difference paid now is a debit note referring to it (decision 48); a
  // refunded one becomes a credit note when the refund is made (payments/refunds.ts).
  await settleInvoice(tx, b.id);
}

/** What the change did to the money, in the passenger's words. */
function moneyWords(outcome: 'same' | 'pay' | 'refund' | 'confirm', c: { oldTotal: number; newTotal: number }, settings: Settings): string | null {
  const pounds = (pence: number) => formatExactPrice(penceToPounds(pence), currencyOf(settings));
  const difference = pounds(Math.abs(c.newTotal - c.oldTotal));
  switch (outcome) {
    case 'pay': return `The difference of ${difference} was paid by card.`;
    case 'refund': return `The difference of ${difference} is refunded to your card. It usually shows within 5 to 10 working days.`;
    case 'confirm': return `The new price, ${pounds(c.newTotal)}, is paid in the car.`;
    default: return null;
  }
}

/** The rows that say what changed: the label, then the old and the new value. */
function changeRows(c: Change, currency: string): [string, string][] {
  const rows: [string, string][] = [];
  const fields = changedFields(c.before, c.after);
  const time = (v: ChangeValues) => `${v.pickup_date} ${toTime24(v.pickup_hour, v.pickup_min)}`;
  for (const k of fields) {
    if (k === 'pickup_hour' || k === 'pickup_min') continue;
    if (k === 'pickup_date') continue;
    rows.push([CHANGE_LABELS[k], `${c.before[k] || '(none)'} -> ${c.after[k] || '(none)'}`]);
  }
  if (pickupMoved(fields)) rows.unshift(['Pickup time', `${time(c.before)} -> ${time(c.after)} (UK time)`]);
  if (c.newTotal !== c.oldTotal) {
    rows.push(['Price', `${formatExactPrice(penceToPounds(c.oldTotal), currency)} -> ${formatExactPrice(penceToPounds(c.newTotal), currency)}`]);
  }
  return rows;
}

/**
 * The passenger (and their old address), the office and the company hear of the change; the timeline records it. The
 * full notice (what changed, in the passenger's words) goes only to the address the booking was made with; another
 * address (the new one, or one a change gave earlier) gets fixed words and Find my booking. Counted by the caller.
 */
async function tellOfChange(tx: Queryable, deps: { settings: Settings; siteUrl: string }, b: StoredBooking, c: Change, money: string | null) {
  const rows = changeRows(c, currencyOf(deps.settings));
  const result = (await loadBooking(tx, b.id)) as BookingResult;
  await recordChange(tx, byPassenger(c.before.passenger_email), 'Changed by the passenger', b.id, rows.map(([k, v]) => `${k}: ${v}`).join('; '),
    { ...c.before, total_pence: c.oldTotal }, { ...c.after, total_pence: c.newTotal });
  const booked = await bookedAddress(tx, b.id, c.before.passenger_email);
  const full = bookingChangedMail(result, rows, money, deps.settings);
  for (const to of changeRecipients(c.before, c.after)) {
    const mail = isBookedAddress(booked, to) ? full
      : bookingChangedNotice(result, `${deps.siteUrl}${pathOfScreen('manageFind')}`, deps.settings, emailKey(to) !== emailKey(c.before.passenger_email));
    await enqueueEmail(tx, { kind: 'booking_changed', to, ...mail, bookingId: b.id });
  }
  await tellOffice(tx, deps, b, 'Changed by the passenger', [...rows, ...(money ? [['Payment', money] as [string, string]] : [])],
    `the passenger (${c.before.passenger_email})`, c.after.passenger_email);
}

/** The waiting change a payment is for, checked against the link's booking. */
async function waitingChange(q: Queryable, bookingId: number, changeId: number) {
  const [row] = await q.query<{ id: number; status: string; old_total_pence: number; new_total_pence: number; payment_intent_id: string | null }>(
    'SELECT id, status, old_total_pence, new_total_pence, payment_intent_id FROM booking_changes WHERE id = $1 AND booking_id = $2',
    [changeId, bookingId]);
  if (!row) throw new DomainError('notFound', 'There is no such change to pay for.');
  return row;
}

export const changeAmount = (c: { old_total_pence: number; new_total_pence: number }) => c.new_total_pence - c.old_total_pence;

/** POST /manage/{reference}/changes/{id}/payment-intent: the change's one intent, for the difference, with this card. */
export async function startChangePayment(
  deps: ChangeDeps & { stripe: () => Promise<Stripe> }, reference: string, key: string, changeId: number, paymentMethodId: string,
): Promise<{ paymentIntentId: string }> {
  const bookingId = await bookingOfKey(deps.db, reference, key);
  const change = await waitingChange(deps.db, bookingId, changeId);
  if (change.status !== 'awaiting_payment') {
    if (change.status === 'applied' && change.payment_intent_id) return { paymentIntentId: change.payment_intent_id };
    throw new DomainError('conflict', 'This change was replaced by a newer one. Please look at the booking again.');
  }
  refuseClosed(await storedBooking(deps.db, bookingId), deps.settings, deps.now);
  const stripe = await deps.stripe();
  let intentId = change.payment_intent_id;
  if (!intentId) {
    const intent = await stripe.paymentIntents.create({
      amount: changeAmount(change), currency: 'gbp', confirmation_method: 'manual', allowed_payment_method_types: ['card'],
      description: `Change ${changeId} of booking ${reference}`, metadata: { booking_id: String(bookingId), change_id: String(changeId), booking_number: reference },
    }, { idempotencyKey: `change-intent-${changeId}` });
    const [kept] = await deps.db.query<{ payment_intent_id: string }>(
      'UPDATE booking_changes SET payment_intent_id = coalesce(payment_intent_id, $2) WHERE id = $1 RETURNING payment_intent_id', [changeId, intent.id]);
    intentId = kept.payment_intent_id;
  }
  const intent = await stripe.paymentIntents.retrieve(intentId);
  if (intent.payment_method !== paymentMethodId && ['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
    await stripe.paymentIntents.update(intentId, { payment_method: paymentMethodId });
  }
  return { paymentIntentId: intentId };
}

export type ChangePaid = 'applied' | 'already' | 'refunded' | 'mismatch';

/**
 * Applies the change a succeeded payment is for, once: only an 'awaiting_payment' row changes. A payment for a change
 * that was replaced, or for a booking the passenger may no longer change when the payment is heard of (`now`: no longer
 * open, or past the change cut-off, by the rule askChange applies), is given back in full (one refund row per change
 * and payment): a change asked just before the cut-off cannot be paid for, and so applied, after it.
 */
export async function applyPaidChange(
  tx: Queryable, deps: { settings: Settings; siteUrl: string; now: Date }, pi: Stripe.PaymentIntent,
): Promise<{ outcome: ChangePaid; refundIds: number[] }> {
  const changeId = Number(pi.metadata?.change_id);
  const [of] = await tx.query<{ booking_id: number }>('SELECT booking_id FROM booking_changes WHERE id = $1', [Number.isInteger(changeId) ? changeId : 0]);
  if (!of) return { outcome: 'mismatch', refundIds: [] };
  // The booking's row first, then the change's: the order every change and cancel takes, so two never wait on each other.
  const b = await storedBooking(tx, of.booking_id, true);
  const [c] = await tx.query<{ id: number; booking_id: number; status: string; old_total_pence: number; new_total_pence: number; before: ChangeValues;
    after: ChangeValues & { pickup_at: string | null; unit_pence: number | null }; price_breakdown: unknown; payment_intent_id: string | null }>(
    'SELECT * FROM booking_changes WHERE id = $1 FOR UPDATE', [changeId]);
  if (c.payment_intent_id !== pi.id || pi.status !== 'succeeded' || pi.currency !== 'gbp' || pi.amount_received !== changeAmount(c)) {
    return { outcome: 'mismatch', refundIds: [] };
  }
  if (c.status === 'applied') return { outcome: 'already', refundIds: [] };
  const charge = typeof pi.latest_charge === 'string' ? pi.latest_charge : pi.latest_charge?.id ?? null;
  // passengerMay(...).change is false for a booking no longer 'confirmed' as well as after the cut-off.
  if (c.status !== 'awaiting_payment' || !passengerMay({ status: b.status, ...pickupTimes(b) }, deps.settings, deps.now).change) {
    // Paid for a change that can no longer be made: all of it goes back, and the change waits no more, so nothing
    // (a later check of its payment, the office moving the pickup) can apply a change whose payment was given back.
    const [fresh] = await tx.query<{ id: number }>(
      `INSERT INTO refunds (booking_id, amount_pence, payment_intent_id, change_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING id`, [b.id, pi.amount_received, pi.id, c.id]);
    await tx.query("UPDATE booking_changes SET status = 'replaced', paid_pence = $2, payment_id = $3 WHERE id = $1", [c.id, pi.amount_received, charge]);
    return { outcome: 'refunded', refundIds: fresh ? [fresh.id] : [] };
  }
  await tx.query("UPDATE booking_changes SET status = 'applied', applied_at = now(), paid_pence = $2, payment_id = $3 WHERE id = $1",
    [c.id, pi.amount_received, charge]);
  const { pickup_at, unit_pence, ...after } = c.after;
  const change: Change = {
    bookingId: b.id, before: currentValues(b), after, oldTotal: b.total_pence, newTotal: c.new_total_pence,
    breakdown: c.price_breakdown, pickupAt: pickup_at ? new Date(pickup_at) : null, unitPence: unit_pence,
  };
  await applyChange(tx, b, change);
  await tellOfChange(tx, deps, b, change, moneyWords('pay', change, deps.settings));
  return { outcome: 'applied', refundIds: [] };
}

/** The view of a waiting change for the page: what is to be paid. */
export async function waitingChangeOf(q: Queryable, bookingId: number) {
  const [c] = await q.query<{ id: number; old_total_pence: number; new_total_pence: number; after: ChangeValues; created_at: Date }>(
    "SELECT id, old_total_pence, new_total_pence, after, created_at FROM booking_changes WHERE booking_id = $1 AND status = 'awaiting_payment'",
    [bookingId]);
  return c ? { id: c.id, amount_pence: changeAmount(c), new_total: penceToPounds(c.new_total_pence), asked_at: ukMoment(new Date(c.created_at)) } : null;
}

export { storedBooking };
