// Booking references as the site issues them and takes them back (src/domain/bookingReference.ts, decision 20).
import { describe, expect, it } from 'vitest';
import { create, validate } from 'superstruct';
import {
  BOOKING_REFERENCE_ALPHABET, BOOKING_REFERENCE_MESSAGE, BookingReferenceOrEmpty, normaliseBookingReference,
} from '../../src/domain/bookingReference';

describe('booking references', () => {
  it('use 32 characters a person can read over the phone: no 0, O, 1 or I', () => {
    expect(BOOKING_REFERENCE_ALPHABET).toHaveLength(32);
    expect(new Set(BOOKING_REFERENCE_ALPHABET).size).toBe(32);
    expect(BOOKING_REFERENCE_ALPHABET).not.toMatch(/[0O1I]/);
  });

  it('are read leniently, as people type them, and written as stored', () => {
    for (const typed of ['BK-7Q2M9XKD', 'bk-7q2m9xkd', 'BK7Q2M9XKD', ' bk 7q2m 9xkd ', 'BK-7Q2M\t9XKD']) {
      expect(normaliseBookingReference(typed), typed).toBe('BK-7Q2M9XKD');
    }
  });

  it('are nothing else: 8 characters of the alphabet after BK', () => {
    for (const bad of ['BK-7Q2M9XK', 'BK-7Q2M9XKDD', 'BK-7Q2M9XK0', 'BK-7Q2M9XKO', 'BK--7Q2M9XKD', 'XBK-7Q2M9XKD', 'BK-7Q2M9XKD!', '7Q2M9XKD', '', null, undefined, 12345678]) {
      expect(normaliseBookingReference(bad as never), String(bad)).toBeNull();
    }
  });

  it('may be left empty in a form, are stored as issued, and are refused with a message a person can act on', () => {
    expect(create('', BookingReferenceOrEmpty)).toBe('');
    expect(create('   ', BookingReferenceOrEmpty)).toBe('');
    expect(create(' bk 7q2m 9xkd', BookingReferenceOrEmpty)).toBe('BK-7Q2M9XKD');
    const [error] = validate('booking 12', BookingReferenceOrEmpty, { coerce: true });
    expect(error?.message).toContain(BOOKING_REFERENCE_MESSAGE);
    expect(BOOKING_REFERENCE_MESSAGE).toBe('must be a booking reference as on your confirmation, like BK-7Q2M9XKD');
    const [numeric] = validate(12345678, BookingReferenceOrEmpty, { coerce: true });
    expect(numeric?.message).toContain(BOOKING_REFERENCE_MESSAGE);
  });
});
