// Manage my booking (issue 27): what a passenger may change, the form's messages (the page and the API give the
// same ones), and what a new price means for the money. The server enforces these; the page asks them first.
import { flightText, parseFlightNumber } from './flightNumbers';
import { isCalendarDate, hour12To24, ukLocalToInstant } from './ukTime';
import { ukTimeSkipped, SKIPPED_HOUR_MESSAGE } from './clockChanges';
import { emailKey, emailProblem, hasControlCharacters } from './fields';
import type { PhoneRule } from './detailsValidation';
import { PHONE_MESSAGE } from './messages';

/** The change form: the booking's details as they would be after the change. */
export interface ChangeValues {
  passenger_name: string;
  passenger_phone: string;
  passenger_email: string;
  flight_no: string;
  return_flight_no: string;
  sign_text: string;
  additional_info: string;
  pickup_date: string;
  /** The wizard's 12-hour clock: '9am', '12pm'. */
  pickup_hour: string;
  pickup_min: string;
}

export const CHANGE_FIELDS = [
  'passenger_name', 'passenger_phone', 'passenger_email', 'flight_no', 'return_flight_no', 'sign_text', 'additional_info',
  'pickup_date', 'pickup_hour', 'pickup_min',
] as const satisfies readonly (keyof ChangeValues)[];

/** How each field is named to people (the form's labels, the e-mails' and the timeline's rows). */
export const CHANGE_LABELS: Record<keyof ChangeValues, string> = {
  passenger_name: 'Passenger name', passenger_phone: 'Passenger phone', passenger_email: 'Passenger e-mail',
  flight_no: 'Flight number', return_flight_no: 'Return flight number', sign_text: 'Name on the meet-and-greet sign',
  additional_info: 'Additional information', pickup_date: 'Pickup date', pickup_hour: 'Pickup hour', pickup_min: 'Pickup minutes',
};

/**
 * As long as a booking can make them (SPEC 5: a first and a last name of 100 each, joined by a space; notes of 1000;
 * flight numbers of 40), so a booking's own details can always be saved again with one of them changed.
 */
export const CHANGE_LIMITS = { passenger_name: 201, flight: 40, sign_text: 60, additional_info: 1000 } as const;

/**
 * How often a booking's e-mail address may be changed online (issue 39): each change mails an address nobody has
 * shown to be the passenger's, so a booking cannot be used to reach address after address.
 */
export const MAX_EMAIL_CHANGES = 3;

export const CHANGE_MESSAGES = {
  nameRequired: 'Enter the passenger\'s name.',
  tooLong: (n: number) => `Use ${n} characters or fewer.`,
  control: 'Remove the special characters from this text.',
  dateInvalid: 'Choose a real date.',
  hourInvalid: 'Choose the hour.',
  minuteInvalid: 'Choose the minutes.',
  skippedHour: SKIPPED_HOUR_MESSAGE,
  nothingChanged: 'Nothing has changed yet: change a detail, then save.',
  tooLate: 'Changes can no longer be made online this close to the pickup. Please call or e-mail us.',
  cancelTooLate: 'The free cancellation period has ended. Please call or e-mail us to cancel.',
  notOpen: 'This booking can no longer be changed.',
  priceChanged: 'The price has changed: please check the new price and confirm.',
  paymentWaiting: 'Pay the difference to save this change.',
  emailChangesUsed: `The e-mail address of this booking has been changed ${MAX_EMAIL_CHANGES} times, the most we allow online. Please call or e-mail us to change it again.`,
} as const;

export type ChangeErrors = Partial<Record<keyof ChangeValues, string>>;

const MINUTES = ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'];

/** The form's messages, field by field (none: the values may be sent). */
export function changeErrors(v: Partial<Record<keyof ChangeValues, unknown>>, isValidPhone: PhoneRule): ChangeErrors {
  const e: ChangeErrors = {};
  const text = (k: keyof ChangeValues) => (typeof v[k] === 'string' ? (v[k] as string) : '');
  const name = text('passenger_name');
  if (!name.trim()) e.passenger_name = CHANGE_MESSAGES.nameRequired;
  const limited: [keyof ChangeValues, number, boolean][] = [
    ['passenger_name', CHANGE_LIMITS.passenger_name, false], ['flight_no', CHANGE_LIMITS.flight, false],
    ['return_flight_no', CHANGE_LIMITS.flight, false], ['sign_text', CHANGE_LIMITS.sign_text, false],
    ['additional_info', CHANGE_LIMITS.additional_info, true],
  ];
  for (const [k, max, multiline] of limited) {
    if (e[k]) continue;
    if (text(k).length > max) e[k] = CHANGE_MESSAGES.tooLong(max);
    else if (hasControlCharacters(text(k), multiline)) e[k] = CHANGE_MESSAGES.control;
  }
  const phone = text('passenger_phone').trim();
  if (!phone) e.passenger_phone = 'Enter a phone number the driver can reach.';
  else if (!isValidPhone(phone)) e.passenger_phone = PHONE_MESSAGE;
  const email = emailProblem(text('passenger_email'));
  if (email) e.passenger_email = email;
  const date = text('pickup_date');
  const hour = text('pickup_hour');
  const min = text('pickup_min');
  if (!isCalendarDate(date)) e.pickup_date = CHANGE_MESSAGES.dateInvalid;
  if (!/^(1[0-2]|[1-9])(am|pm)$/.test(hour)) e.pickup_hour = CHANGE_MESSAGES.hourInvalid;
  if (!MINUTES.includes(min)) e.pickup_min = CHANGE_MESSAGES.minuteInvalid;
  if (!e.pickup_date && !e.pickup_hour && !e.pickup_min && ukTimeSkipped(date, hour12To24(hour), Number(min))) {
    e.pickup_hour = CHANGE_MESSAGES.skippedHour;
  }
  return e;
}

/** The pickup the form's date and time name (UK time), or null while they name none (the change form's words). */
export function pickupOfValues(v: Pick<ChangeValues, 'pickup_date' | 'pickup_hour' | 'pickup_min'>): Date | null {
  if (!isCalendarDate(v.pickup_date) || !/^(1[0-2]|[1-9])(am|pm)$/.test(v.pickup_hour) || !MINUTES.includes(v.pickup_min)) return null;
  return ukLocalToInstant(v.pickup_date, hour12To24(v.pickup_hour), Number(v.pickup_min));
}

const travelRef = (s: string) => {
  const flight = parseFlightNumber(s);
  return flight ? flightText(flight) : s.trim().toUpperCase();
};

/** The values as stored: trimmed text; the sign left as the passenger's name reads as no sign text of its own. */
export function cleanChange(v: ChangeValues): ChangeValues {
  const t = (s: string) => s.trim();
  return {
    passenger_name: t(v.passenger_name), passenger_phone: t(v.passenger_phone), passenger_email: t(v.passenger_email),
    // A flight as airlines write it ("BA 283", issue 42); a train or ferry in capitals, as before.
    flight_no: travelRef(v.flight_no), return_flight_no: travelRef(v.return_flight_no),
    sign_text: t(v.sign_text) === t(v.passenger_name) ? '' : t(v.sign_text),
    additional_info: v.additional_info.trim(), pickup_date: v.pickup_date, pickup_hour: v.pickup_hour, pickup_min: v.pickup_min,
  };
}

/** What differs between two sets of values, field by field. */
export function changedFields(before: ChangeValues, after: ChangeValues): (keyof ChangeValues)[] {
  return CHANGE_FIELDS.filter((k) => before[k] !== after[k]);
}

/** Whether a change gives the booking another mailbox (capitals or spaces alone do not). */
export const emailMoved = (before: Pick<ChangeValues, 'passenger_email'>, after: Pick<ChangeValues, 'passenger_email'>) =>
  emailKey(before.passenger_email) !== emailKey(after.passenger_email);

/** Whether the pickup moved (then the trip is priced again). */
export const pickupMoved = (fields: readonly (keyof ChangeValues)[]) =>
  fields.some((k) => k === 'pickup_date' || k === 'pickup_hour' || k === 'pickup_min');

/**
 * What a change's new price means. Same: saved as it is. Otherwise the passenger is shown the new price and confirms;
 * then a card booking pays the difference by card ('pay') or is refunded it ('refund'), and a booking paid in the car
 * is saved with its new price ('confirm').
 */
export type PriceOutcome = 'same' | 'pay' | 'refund' | 'confirm';
export function priceOutcome(paymentMethod: string, oldPence: number, newPence: number): PriceOutcome {
  if (oldPence === newPence) return 'same';
  if (paymentMethod !== 'card') return 'confirm';
  return newPence > oldPence ? 'pay' : 'refund';
}

/** A payment of a booking and what is left of it after its refunds. */
export interface Refundable { paymentIntentId: string; leftPence: number }

/**
 * Which payments give back `amountPence`: the latest payment first (a change's difference before the first
 * payment), each no more than what is left of it. Throws when the payments do not hold that much.
 */
export function allocateRefund(payments: readonly Refundable[], amountPence: number): { paymentIntentId: string; pence: number }[] {
  const out: { paymentIntentId: string; pence: number }[] = [];
  let left = amountPence;
  for (const p of [...payments].reverse()) {
    if (left <= 0) break;
    const pence = Math.min(left, p.leftPence);
    if (pence > 0) out.push({ paymentIntentId: p.paymentIntentId, pence });
    left -= pence;
  }
  if (left > 0) throw new Error(`Only ${amountPence - left}p of ${amountPence}p can be refunded`);
  return out;
}
