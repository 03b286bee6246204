// The contact form and the Quote Now form in the browser (src/domain/contactForm.ts, contactSchemas.ts): SPEC 3 and
// 5, with decision 20's phone rule; the same schemas the server checks the bodies with.
import { describe, expect, it } from 'vitest';
import { create, validate, type Struct } from 'superstruct';
import { CONTACT_MESSAGES, validateContactForm } from '../../src/domain/contactForm';
import { ContactForm, QuoteRequest, QUERY_REASONS, validateQuoteForm } from '../../src/domain/contactSchemas';
import { DETAILS_MESSAGES } from '../../src/domain/detailsValidation';
import { PHONE_MESSAGE } from '../../src/domain/phone';

/** Whether the server takes the body (as it reads it: with the schema's defaults). */
const is = (value: unknown, schema: Struct<any, any>) => validate(value, schema, { coerce: true })[0] === undefined;

describe('the contact form (SPEC 5)', () => {
  it('passes an e-mail alone, a telephone alone, or both', () => {
    expect(validateContactForm({ email: 'amelia@example.com' })).toEqual({});
    expect(validateContactForm({ telephone: '07700 900123' })).toEqual({});
    expect(validateContactForm({ email: 'amelia@example.com', telephone: '+44 7700 900123', bookingNumber: 'BK-7KQ2M9A4' })).toEqual({});
  });

  it('asks for a way to reply when both are empty or spaces', () => {
    expect(validateContactForm({})).toEqual({ email: CONTACT_MESSAGES.reachable });
    expect(validateContactForm({ email: '  ', telephone: ' ' })).toEqual({ email: CONTACT_MESSAGES.reachable });
    expect(CONTACT_MESSAGES.reachable).toBe('Please give an e-mail address or a telephone number so we can reply.');
  });

  it('says which of the e-mail, telephone and booking number is wrong, each in its own words', () => {
    expect(validateContactForm({ email: 'not-an-email', telephone: '12' })).toEqual({
      email: DETAILS_MESSAGES.emailInvalid, telephone: DETAILS_MESSAGES.phoneInvalid,
    });
    expect(validateContactForm({ email: 'amelia@example.com', bookingNumber: 'booking 12' })).toEqual({ bookingNumber: CONTACT_MESSAGES.bookingNumber });
    expect(CONTACT_MESSAGES.bookingNumber).toBe('Please enter the booking number as it appears on your confirmation, for example BK-7KQ2M9A4.');
  });

  it('trims what it checks: a booking number of spaces is no booking number', () => {
    expect(validateContactForm({ email: ' amelia@example.com ', bookingNumber: '   ' })).toEqual({});
    expect(validateContactForm({ email: 'amelia@example.com', bookingNumber: ' BK-7KQ2M9A4 ' })).toEqual({});
  });

  it('is the schema the server checks: defaults, reasons, a way to reply', () => {
    expect(create({ email: 'amelia@example.com' }, ContactForm)).toMatchObject({ email: 'amelia@example.com', telephone: '', queryReason: 'Booking', bookingNumber: '' });
    expect(QUERY_REASONS).toEqual(['Booking', 'Invoice', 'Complaint', 'Lost Item', 'Other']);
    for (const reason of QUERY_REASONS) expect(is({ email: 'a@example.com', queryReason: reason }, ContactForm)).toBe(true);
    expect(is({ email: 'a@example.com', queryReason: 'Refund' }, ContactForm)).toBe(false);
    expect(is({ firstName: 'Amelia' }, ContactForm)).toBe(false);
    expect(is({ telephone: '07700 900123' }, ContactForm)).toBe(true);
  });
});

describe('the Quote Now form (SPEC 5)', () => {
  const ok = { pickup_date: '2026-06-02', pickup_time: '15:05', passenger_email: 'amelia@example.com', passenger_phone: '07700 900123' };

  it('passes a complete request', () => {
    expect(validateQuoteForm(ok)).toEqual({});
  });

  it('asks for the date, time, e-mail and telephone, word for word', () => {
    expect(validateQuoteForm({})).toEqual({
      pickup_date: 'Choose a date', pickup_time: 'Choose a time', passenger_email: 'Email is required', passenger_phone: 'Telephone is required',
    });
    expect(validateQuoteForm({ ...ok, passenger_email: '   ', passenger_phone: '  ' }))
      .toEqual({ passenger_email: 'Email is required', passenger_phone: 'Telephone is required' });
  });

  it('refuses an e-mail that is not one and a telephone that is not a phone number', () => {
    expect(validateQuoteForm({ ...ok, passenger_email: 'amelia@', passenger_phone: '12345' }))
      .toEqual({ passenger_email: 'Please enter a valid email address', passenger_phone: PHONE_MESSAGE });
    expect(validateQuoteForm({ ...ok, passenger_phone: 12345 as never })).toEqual({ passenger_phone: PHONE_MESSAGE });
  });

  it('is checked again by the server: a 24-hour time, 1 to 50 passengers, 0 to 20 cases', () => {
    const body = { ...ok, pickup_address: 'Heathrow', dropoff_address: 'London' };
    expect(create(body, QuoteRequest)).toMatchObject({ passengers: 1, luggages: 0 });
    for (const time of ['00:00', '23:59', '09:30']) expect(is({ ...body, pickup_time: time }, QuoteRequest), time).toBe(true);
    for (const time of ['24:00', '9:30', '12:60', '3pm']) expect(is({ ...body, pickup_time: time }, QuoteRequest), time).toBe(false);
    expect(is({ ...body, passengers: 50, luggages: 20 }, QuoteRequest)).toBe(true);
    expect(is({ ...body, passengers: 51 }, QuoteRequest)).toBe(false);
    expect(is({ ...body, passengers: 0 }, QuoteRequest)).toBe(false);
    expect(is({ ...body, luggages: 21 }, QuoteRequest)).toBe(false);
  });
});
