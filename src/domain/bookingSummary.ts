// A booking as a person reads it: the one function that turns a booking into labelled rows, in sections, for the
// confirmation page, the confirmation e-mail and the corporate account's Details window (and, next, the operator's
// desk, the manage page and the receipt). Each label is written once here. Where SPEC 2 asks the readers for
// different things, the reader says which it is:
// - 'confirmation' (SPEC 2 'Confirmation'): the drop-off only for a transfer, the return only when there is one, the
//   extras only when their setting is above 0, car paid as 'Pay in Car';
// - 'email': the confirmation's words, every extra;
// - 'account' (SPEC 2 'Bookings (corporate)'): every field, '—' where there is nothing, car paid as 'Pay to driver'.
import type { BookingResult, CorporateBooking } from './schemas';
import { EXTRAS, extraOffered, extraReads } from './extras';
import { bookingTypeLabel, confirmationPaymentLabel, paymentMethodLabel } from './bookingLabels';
import { formatDateUK, formatTime12 } from './ukTime';
import { formatPhone } from './phone';
import type { Settings } from './settings';
import { freeWaitingText } from './freeWaiting';

export interface SummaryRow {
  label: string;
  value: string;
  /** The figures a person looks for first: the reference and the amount. */
  strong?: boolean;
}

export interface BookingSummary {
  journey: SummaryRow[];
  vehicle: SummaryRow[];
  passenger: SummaryRow[];
  extras: SummaryRow[];
  /** Issue 27: what the fare includes (free waiting) and the meet-and-greet sign. */
  included: SummaryRow[];
  stops: SummaryRow[];
}

export type SummaryReader = 'confirmation' | 'email' | 'account';

export interface SummaryOptions {
  reader: SummaryReader;
  settings: Settings;
  /** How the amount reads (rounded with ROUND_OFF on the page and in the account; exact in the e-mail). */
  amount: (pounds: string) => string;
}

const DASH = '—';

/** The corporate list's entry as the booking call's answer has it: one shape for every reader. */
export function corporateAsResult(b: CorporateBooking): BookingResult {
  const { booking_details, booking_stops, passenger_detail, ...booking } = b;
  return { booking, bookingDetail: booking_details, bookingStops: booking_stops, passengerDetails: passenger_detail };
}

/** A stop as one line: street number, address, post code. */
export const stopLine = (s: { stop_street_number: string; stop_address: string; stop_post_code: string }) =>
  [s.stop_street_number, s.stop_address, s.stop_post_code].map((x) => x?.trim()).filter(Boolean).join(' ');

export function bookingSummary(r: BookingResult, o: SummaryOptions): BookingSummary {
  const { booking: b, bookingDetail: d, passengerDetails: p } = r;
  const account = o.reader === 'account';
  const isTransfer = b.ride_type === 'Q';
  const hours = parseInt(b.hourly_duration ?? '', 10);
  /** A row with its value, or with a dash in the account's window, or none. */
  const maybe = (label: string, value: string | null | undefined): SummaryRow[] =>
    (value?.trim() ? [{ label, value }] : account ? [{ label, value: DASH }] : []);

  const journey: SummaryRow[] = [
    { label: 'Reference ID', value: b.booking_number, strong: true },
    { label: 'Booking type', value: bookingTypeLabel(b.ride_type) },
    { label: 'Pickup address', value: b.pick_up_address },
    ...(isTransfer ? maybe('Drop-off address', b.drop_off_address)
      : o.reader === 'confirmation' ? [] : [{ label: 'Drop-off address', value: b.drop_off_address?.trim() || 'As directed' }]),
    { label: 'Pickup date', value: formatDateUK(b.pick_up_date) },
    { label: 'Pickup time', value: formatTime12(b.pick_up_time) },
    ...(b.return_date
      ? [{ label: 'Return date', value: formatDateUK(b.return_date) }, { label: 'Return time', value: formatTime12(b.return_time) }]
      : account ? [{ label: 'Return date', value: DASH }] : []),
    ...(!isTransfer && Number.isFinite(hours) ? [{ label: 'Duration', value: `${hours} hours` }] : []),
    ...maybe('Flight / train', b.flight_no),
    ...maybe('Return flight / train', b.return_flight_no),
  ];
  const vehicle: SummaryRow[] = [
    { label: 'Vehicle', value: b.fleet_category.category_name },
    { label: 'Operator', value: b.company_name },
    { label: 'Total vehicles', value: String(d.vehicle_qty) },
    { label: 'Luggage', value: String(d.luggages) },
    { label: 'Hand luggage', value: String(d.hand_luggages) },
    { label: 'Payment method', value: account ? paymentMethodLabel(b.payment_method) : confirmationPaymentLabel(b.payment_method) },
    { label: 'Total amount', value: o.amount(b.total_booking_amount), strong: true },
  ];
  const passenger: SummaryRow[] = [
    { label: 'Name', value: p.passenger_name.trim() || DASH },
    { label: 'Email', value: p.passenger_email.trim() || DASH },
    { label: 'Phone', value: formatPhone(p.passenger_contact_no) || DASH },
    { label: 'Total passengers', value: String(p.total_passengers) },
    ...maybe('Additional information', p.additional_info),
  ];
  // SPEC 2: the confirmation page shows an extra only when its setting is above 0; the others show every one.
  const extras = EXTRAS.filter((e) => o.reader !== 'confirmation' || extraOffered(o.settings, e.key))
    .map((e) => ({ label: e.label, value: extraReads(e, d[e.detail]) }));
  // Issue 27: what the fare includes (bookings made since it is recorded), and the meet-and-greet sign's words.
  const included: SummaryRow[] = [
    ...(typeof d.free_waiting_minutes === 'number'
      ? [{ label: 'Free waiting', value: freeWaitingText(d.free_waiting_minutes, d.free_waiting_airport === true) }] : []),
    ...(d.meet_and_greet === 'yes' ? [{ label: 'Name on the sign', value: d.sign_text?.trim() || p.passenger_name.trim() || DASH }] : []),
  ];
  const stops = r.bookingStops.map((s, i) => ({ label: `Stop ${i + 1}`, value: stopLine(s) }));
  return { journey, vehicle, passenger, extras, included, stops };
}
