// Booking references as the site issues them (src/server/bookings makes them;
// the contact form takes them back, decision 20): BK- and 8 characters a
// person can read over the phone, with no 0/O or 1/I, e.g. BK-7Q2M9XKD.
import { coerce, number, refine, string, union } from 'superstruct';

export const BOOKING_REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const BOOKING_REFERENCE_TYPED = /^BK-?([A-HJ-NP-Z2-9]{8})$/;

/** A booking reference as stored (BK-7Q2M9XKD), read leniently (bk 7q2m 9xkd), or null when it is not one. */
export function normaliseBookingReference(text: string | number | null | undefined): string | null {
  const m = BOOKING_REFERENCE_TYPED.exec(String(text ?? '').replace(/\s+/g, '').toUpperCase());
  return m ? `BK-${m[1]}` : null;
}

export const BOOKING_REFERENCE_MESSAGE = 'must be a booking reference as on your confirmation, like BK-7Q2M9XKD';

/** A booking reference in an API body, or '' where it may be left empty; stored as BK-XXXXXXXX. */
export const BookingReferenceOrEmpty = coerce(
  refine(string(), 'bookingReference', (v) => (v === '' || normaliseBookingReference(v) === v ? true : BOOKING_REFERENCE_MESSAGE)),
  union([string(), number()]),
  (v) => (String(v).trim() === '' ? '' : normaliseBookingReference(v) ?? String(v)),
);
