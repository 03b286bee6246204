// The edges of the shared schemas a mutation run found untested (issue 28): the Quote Now time, the Contact form's
// defaults and reply rule, a passenger id, booking references as a person types them, and the address fields.
import { create, validate, type Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { ContactForm, QuoteRequest, UpdatePassengerRequest } from '../../src/domain/contactSchemas';
import { BOOKING_REFERENCE_MESSAGE, BookingReferenceOrEmpty, normaliseBookingReference } from '../../src/domain/bookingReference';
import { addressField, AddressError, stopText } from '../../src/domain/places';

/** Whether the body is accepted as the API reads it (defaults filled in, values coerced). */
const is = (value: unknown, struct: Struct<any, any>) => !validate(value, struct, { coerce: true })[0];

describe('Quote Now (SPEC 3 "Quote request")', () => {
  const quote = { pickup_date: '2030-06-01', pickup_time: '09:30', passenger_email: 'a@example.com', passenger_phone: '07700 900123' };

  it('takes a 24-hour time from 00:00 to 23:59, two digits each, and nothing around it', () => {
    for (const time of ['00:00', '09:30', '19:59', '20:00', '23:59']) expect(is({ ...quote, pickup_time: time }, QuoteRequest), time).toBe(true);
    for (const time of ['24:00', '9:30', '29:00', '09:60', '09:3x', 'x09:30', '09:30x', '0a:30', '2a:30']) {
      expect(is({ ...quote, pickup_time: time }, QuoteRequest), time).toBe(false);
    }
  });

  it('keeps line breaks in its additional information', () => {
    expect(is({ ...quote, additional_info: 'Two cases\nand a pushchair' }, QuoteRequest)).toBe(true);
  });
});

describe('the Contact form (SPEC 3)', () => {
  it('fills what was left out: no e-mail or telephone, the reason Booking, no booking number', () => {
    expect(create({ email: 'a@example.com' }, ContactForm)).toMatchObject({ email: 'a@example.com', telephone: '', queryReason: 'Booking', bookingNumber: '' });
    expect(create({ telephone: '07700 900123' }, ContactForm)).toMatchObject({ email: '' });
  });

  it('needs an e-mail address or a telephone number to reply to', () => {
    const [err] = validate({ firstName: 'Ann', comments: 'Hello' }, ContactForm, { coerce: true });
    expect(err?.message).toContain('give an e-mail address or a telephone number');
    expect(is({ email: 'a@example.com', comments: 'Line one\nline two' }, ContactForm)).toBe(true);
  });
});

describe('a passenger\'s id in a profile update', () => {
  it('is a number or up to nine digits as text', () => {
    const base = { name: 'Ann Lee', email: 'ann@example.com' };
    for (const id of [7, '7', '123456789', null]) expect(is({ ...base, passenger_id: id }, UpdatePassengerRequest), String(id)).toBe(true);
    for (const id of ['1234567890', '12a', 'a12', '']) expect(is({ ...base, passenger_id: id }, UpdatePassengerRequest), id).toBe(false);
    expect(create(base, UpdatePassengerRequest)).toMatchObject({ phone: '' });
  });
});

describe('a booking reference as a person types it (decision 20)', () => {
  it('reads BK-, with or without the dash, spaces and case aside, and 8 letters and digits of the site\'s alphabet', () => {
    expect(normaliseBookingReference(' bk 7q2m 9xkd ')).toBe('BK-7Q2M9XKD');
    expect(normaliseBookingReference('BK7Q2M9XKD')).toBe('BK-7Q2M9XKD');
    for (const bad of ['XBK-7Q2M9XKD', 'BK-7Q2M9XKDA', 'BK-7Q2M9XK', 'BK-7Q2M9XK0', 'BK-7Q2M9XKI', 'BK--7Q2M9XKD', '', null]) {
      expect(normaliseBookingReference(bad), String(bad)).toBeNull();
    }
  });

  it('is stored as BK-XXXXXXXX, may be left empty, and otherwise says what it must look like', () => {
    expect(create('bk7q2m9xkd', BookingReferenceOrEmpty)).toBe('BK-7Q2M9XKD');
    expect(create('  ', BookingReferenceOrEmpty)).toBe('');
    const [err] = validate('12345', BookingReferenceOrEmpty, { coerce: true });
    expect(err?.message).toBe(BOOKING_REFERENCE_MESSAGE);
    expect(BOOKING_REFERENCE_MESSAGE).toBe('must be a booking reference as on your confirmation, like BK-7Q2M9XKD');
  });
});

describe('the address a refusal is about (decision 23)', () => {
  it('is the pickup, the drop-off or a stop, inside either form or alone, and nothing else', () => {
    expect(['pickup', 'bookingForm.dropoff', 'hourlyRateForm.pickup', 'stops.2'].map(addressField)).toEqual(['pickup', 'dropoff', 'pickup', 'stops.2']);
    expect(['xpickup', 'pickups', 'bookingForm.pickup.x', 'email', null, undefined].map(addressField)).toEqual([null, null, null, null, null, null]);
    const err = new AddressError('Address is banned', 'dropoff');
    expect([err.name, err.field, err.message]).toEqual(['AddressError', 'dropoff', 'Address is banned']);
  });

  it('reads a stop as number, street and postcode, leaving out what is empty', () => {
    expect(stopText({ number: ' 10 ', street_name: 'Downing Street', postcode: ' SW1A 2AA' })).toBe('10 Downing Street SW1A 2AA');
    expect(stopText({ street_name: 'Windsor Castle' })).toBe('Windsor Castle');
  });
});
