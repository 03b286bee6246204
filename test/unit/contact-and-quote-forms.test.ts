// The contact form and the Quote Now form in the browser (src/domain/contactForm.ts, contactSchemas.ts): SPEC 3 and
// 5, with decision 20's phone rule; the same schemas the server checks the bodies with.
import { describe, expect, it } from 'vitest';
import { create, validate, type Struct } from 'superstruct';
import { CONTACT_MESSAGES, validateContactForm } from '../../src/domain/contactForm';
import { ContactForm, QuoteRequest, QUERY_REASONS, UpdatePassengerRequest, validateQuoteForm } from '../../src/domain/contactSchemas';
import { CardKeyResponse, ConfirmPaymentIntentRequest, ConfirmPaymentIntentResponse, CreatePaymentIntentRequest, CreatePaymentIntentResponse } from '../../src/domain/cardSchemas';
import { newHourlyForm, restoreHourlyForm, validateHourlyForm } from '../../src/domain/hourlyForm';
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
    for (const time of ['24:00', '9:30', '12:60', '3pm', '19:3x', '1x:30', '25:00', '12:30 ', ' 12:30', '2:300']) expect(is({ ...body, pickup_time: time }, QuoteRequest), time).toBe(false);
    expect(is({ ...body, passengers: 50, luggages: 20 }, QuoteRequest)).toBe(true);
    expect(is({ ...body, passengers: 51 }, QuoteRequest)).toBe(false);
    expect(is({ ...body, passengers: 0 }, QuoteRequest)).toBe(false);
    expect(is({ ...body, luggages: 21 }, QuoteRequest)).toBe(false);
  });
});

describe('free text and the profile update (SPEC 5, 7)', () => {
  const body = { pickup_date: '2026-06-02', pickup_time: '15:05', passenger_email: 'amelia@example.com', passenger_phone: '07700 900123' };

  it('takes notes and comments over several lines, but a one-line field only on one', () => {
    expect(is({ ...body, additional_info: 'Two cases\nand a pram' }, QuoteRequest)).toBe(true);
    expect(is({ email: 'a@example.com', comments: 'Left my umbrella\nin the car' }, ContactForm)).toBe(true);
    expect(is({ ...body, passenger_name: 'Amelia\nHart' }, QuoteRequest)).toBe(false);
    expect(create({ email: 'a@example.com' }, ContactForm)).toMatchObject({ comments: '', firstName: '', lastName: '' });
  });

  it('says why a contact message has no way to reply', () => {
    const [error] = validate({ firstName: 'Amelia' }, ContactForm, { coerce: true });
    expect(error?.message).toContain('give an e-mail address or a telephone number so we can reply');
  });

  it('takes a profile with a name and e-mail, a phone or none, and the passenger id as a number or digits', () => {
    const profile = { name: 'Amelia Hart', email: 'amelia@example.com' };
    expect(create(profile, UpdatePassengerRequest)).toEqual({ ...profile, phone: '' });
    expect(is({ ...profile, passenger_id: 12 }, UpdatePassengerRequest)).toBe(true);
    expect(is({ ...profile, passenger_id: '123456789' }, UpdatePassengerRequest)).toBe(true);
    expect(is({ ...profile, passenger_id: null }, UpdatePassengerRequest)).toBe(true);
    for (const id of ['1234567890', '12a', 'a12', '', ' 12']) expect(is({ ...profile, passenger_id: id }, UpdatePassengerRequest), id).toBe(false);
    expect(is({ ...profile, name: '' }, UpdatePassengerRequest)).toBe(false);
  });
});

describe('the card calls (SPEC 7)', () => {
  it('confirms an intent by its id', () => {
    expect(is({ paymentIntentId: 'pi_3TestIntent' }, ConfirmPaymentIntentRequest)).toBe(true);
    expect(is({ paymentIntentId: 'pi' }, ConfirmPaymentIntentRequest)).toBe(false);
    expect(is({}, ConfirmPaymentIntentRequest)).toBe(false);
  });

  it("reads the provider's key and the four outcomes of a confirmation", () => {
    expect(is({ success: true, publishableKey: 'pk_test_1', testMode: true, stripeJs: null }, CardKeyResponse)).toBe(true);
    expect(is({ success: true, publishableKey: 'pk_test_1', testMode: true }, CardKeyResponse)).toBe(false);
    expect(is({ success: true, paymentIntentId: 'pi_1' }, CreatePaymentIntentResponse)).toBe(true);
    expect(is({ success: true }, CreatePaymentIntentResponse)).toBe(false);
    const answer = { success: true, sessionId: 'pi_1', paymentId: null };
    for (const status of ['succeeded', 'requires_action', 'failed', 'processing']) {
      expect(is({ ...answer, status }, ConfirmPaymentIntentResponse), status).toBe(true);
    }
    expect(is({ ...answer, status: 'canceled' }, ConfirmPaymentIntentResponse)).toBe(false);
    expect(is({ ...answer, status: '' }, ConfirmPaymentIntentResponse)).toBe(false);
  });

  it('asks for an intent with the booking, a payment method and 1p to £1,000,000', () => {
    const booking = {
      selectedVehicleData: { vehicle_id: 1, company_id: 1 }, bookingType: 'milleage', payment_method: 'card', selected_passenger: 'guest_login',
      bookingForm: {}, registrationData: {},
    };
    // The fields the card adds are refused by name (the booking's own fields are BookingRequest's to check).
    const refused = (more: object) => (validate({ ...booking, paymentMethodId: 'pm_1Visa', amount: 9352, ...more }, CreatePaymentIntentRequest, { coerce: true })[0]
      ?.failures() ?? []).map((f) => String(f.path[0])).filter((k) => ['amount', 'paymentMethodId'].includes(k));
    expect(refused({})).toEqual([]);
    expect(refused({ amount: 1, paymentMethodId: 'pm_' })).toEqual([]);
    expect(refused({ amount: 0 })).toEqual(['amount']);
    expect(refused({ amount: 100_000_000 })).toEqual([]);
    expect(refused({ amount: 100_000_001 })).toEqual(['amount']);
    expect(refused({ amount: 93.5 })).toEqual(['amount']);
    expect(refused({ paymentMethodId: 'pm' })).toEqual(['paymentMethodId']);
  });
});

describe('the hourly form (SPEC 3, 5)', () => {
  const NOW = new Date('2026-06-01T09:00:00Z');

  it('asks for a pickup address and a date from today', () => {
    expect(validateHourlyForm({ pickup: 'Paddington', pickup_date: '2026-06-01' }, NOW)).toEqual({});
    expect(validateHourlyForm({ pickup: '  ' }, NOW)).toEqual({ pickup: 'Enter a pickup address', pickup_date: 'Choose a pickup date' });
    expect(validateHourlyForm({ pickup: 'Paddington', pickup_date: '2026-05-31' }, NOW)).toEqual({ pickup_date: 'Pickup date cannot be earlier than today' });
  });

  it('opens on 4 hours and the earliest bookable pickup, and keeps a saved one still ahead', () => {
    const fresh = newHourlyForm(0, NOW);
    expect(fresh).toMatchObject({ pickup: '', pickup_duration: '4hour', pickup_date: '2026-06-01' });
    expect(restoreHourlyForm(null, 0, NOW)).toEqual(fresh);
    expect(restoreHourlyForm({ pickup: 'Paddington', pickup_date: '2026-06-03', pickup_hour: '3pm', pickup_min: '05', pickup_duration: '8hour' }, 0, NOW))
      .toEqual({ pickup: 'Paddington', pickup_date: '2026-06-03', pickup_hour: '3pm', pickup_min: '05', pickup_duration: '8hour' });
    expect(restoreHourlyForm({ pickup: 'Paddington', pickup_date: '2026-05-03', pickup_hour: '3pm', pickup_min: '05' }, 0, NOW))
      .toMatchObject({ pickup: 'Paddington', pickup_date: fresh.pickup_date, pickup_hour: fresh.pickup_hour, pickup_min: fresh.pickup_min });
  });
});
