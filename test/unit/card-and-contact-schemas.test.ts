// SPEC 3 'Quote request' and 'Contact form', SPEC 5, SPEC 7's card calls and profile update, SPEC 9's query reasons,
// decisions 19, 20 and 35 (honeypot): the bodies the server checks and the answers the card page reads.
// The schemas are built when their modules load, so each test loads a copy of its own (an import with a query of its
// own): a mutation run counts only what a test runs (docs/mutation.md, 'static' mutants). What they import is loaded
// once, here, as the file loads, so only their own load-time code counts against the tests.
import { create, validate, type Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import '../../src/domain/contactSchemas';
import '../../src/domain/cardSchemas';

let copies = 0;
// Unique to this load of the file: a mutation run loads the file again for each mutant in one worker, and a copy
// named as before would be the one already loaded, without the mutant.
const COPY = Math.random().toString(36).slice(2);
const contact = (): Promise<typeof import('../../src/domain/contactSchemas')> =>
  import(/* @vite-ignore */ `../../src/domain/contactSchemas.ts?copy=${COPY}-${++copies}`);
const card = (): Promise<typeof import('../../src/domain/cardSchemas')> =>
  import(/* @vite-ignore */ `../../src/domain/cardSchemas.ts?copy=${COPY}-${++copies}`);

/** Whether the body is accepted as the API reads it (defaults filled in, values coerced). */
const is = (value: unknown, struct: Struct<any, any>) => validate(value, struct, { coerce: true })[0] === undefined;

const quote = { pickup_date: '2030-06-01', pickup_time: '09:30', passenger_email: 'ann@example.com', passenger_phone: '07700 900123' };

describe('a Quote Now request (SPEC 3, SPEC 5 "Quote form")', () => {
  it('needs the date, the time, an e-mail address and a telephone number', async () => {
    const { QuoteRequest } = await contact();
    expect(is(quote, QuoteRequest)).toBe(true);
    for (const field of Object.keys(quote)) {
      const { [field as keyof typeof quote]: _left, ...rest } = quote;
      expect(is(rest, QuoteRequest), `without ${field}`).toBe(false);
    }
  });

  it('takes the time as 24-hour HH:MM, 00:00 to 23:59, and nothing else', async () => {
    const { QuoteRequest } = await contact();
    for (const time of ['00:00', '09:30', '13:05', '19:59', '20:00', '23:59']) expect(is({ ...quote, pickup_time: time }, QuoteRequest), time).toBe(true);
    for (const time of ['24:00', '30:00', '9:30', '09:60', '09:3x', '0x:30', '2x:30', 'at 09:30', '09:30 please', '9:30am']) {
      expect(is({ ...quote, pickup_time: time }, QuoteRequest), time).toBe(false);
    }
  });

  it('keeps the line breaks a person types in the additional information', async () => {
    const { QuoteRequest } = await contact();
    const additional_info = 'Two large cases\nand a pushchair';
    expect(create({ ...quote, additional_info }, QuoteRequest)).toMatchObject({ additional_info });
  });

  it('on the form, names only the fields that are wrong (SPEC 5)', async () => {
    const { validateQuoteForm } = await contact();
    expect(Object.keys(validateQuoteForm(quote))).toEqual([]);
    expect(Object.keys(validateQuoteForm({ ...quote, passenger_phone: '' }))).toEqual(['passenger_phone']);
    expect(Object.keys(validateQuoteForm({ ...quote, passenger_email: 'ann' }))).toEqual(['passenger_email']);
  });
});

describe('the contact form (SPEC 3, SPEC 5 "Contact form", SPEC 9 query reasons)', () => {
  it('fills in what a person leaves out: no e-mail or telephone, the reason Booking, no booking number, no comments', async () => {
    const { ContactForm } = await contact();
    expect(create({ email: 'ann@example.com' }, ContactForm)).toEqual({
      firstName: '', lastName: '', email: 'ann@example.com', telephone: '', queryReason: 'Booking', bookingNumber: '', comments: '', website: '',
    });
    expect(create({ telephone: '07700 900123' }, ContactForm)).toMatchObject({ email: '', queryReason: 'Booking', bookingNumber: '' });
  });

  it('offers the reasons SPEC 9 lists, Booking first', async () => {
    const { ContactForm, QUERY_REASONS } = await contact();
    expect([...QUERY_REASONS]).toEqual(['Booking', 'Invoice', 'Complaint', 'Lost Item', 'Other']);
    for (const queryReason of QUERY_REASONS) expect(is({ email: 'ann@example.com', queryReason }, ContactForm), queryReason).toBe(true);
    expect(is({ email: 'ann@example.com', queryReason: 'Refund' }, ContactForm)).toBe(false);
  });

  it('needs an e-mail address or a telephone number to reply to, and says so', async () => {
    const { ContactForm } = await contact();
    const [err] = validate({ firstName: 'Ann', comments: 'Hello' }, ContactForm, { coerce: true });
    expect(err?.message).toBe('give an e-mail address or a telephone number so we can reply');
    expect(is({ email: 'ann@example.com' }, ContactForm)).toBe(true);
    expect(is({ telephone: '07700 900123' }, ContactForm)).toBe(true);
  });

  it('takes a booking number as the site issues it, and comments over several lines', async () => {
    const { ContactForm } = await contact();
    const comments = 'I left my umbrella.\nIt is blue.';
    expect(create({ email: 'ann@example.com', bookingNumber: 'bk7q2m9xkd', comments }, ContactForm)).toMatchObject({ bookingNumber: 'BK-7Q2M9XKD', comments });
    expect(is({ email: 'ann@example.com', bookingNumber: '12345' }, ContactForm)).toBe(false);
  });
});

describe('the honeypot of the contact and quote forms (decision 35)', () => {
  it('is the website field: a message with it filled in was written by a program', async () => {
    const { ContactForm, QuoteRequest, isHoneypotFilled } = await contact();
    expect(isHoneypotFilled({ website: 'http://spam.example' })).toBe(true);
    expect(isHoneypotFilled(create({ email: 'ann@example.com', website: 'http://spam.example' }, ContactForm))).toBe(true);
    expect(isHoneypotFilled(create({ ...quote, website: 'http://spam.example' }, QuoteRequest))).toBe(true);
  });

  it('is empty in what a person sends, so their message goes through', async () => {
    const { ContactForm, QuoteRequest, isHoneypotFilled } = await contact();
    expect(isHoneypotFilled({})).toBe(false);
    expect(isHoneypotFilled({ website: '' })).toBe(false);
    expect(isHoneypotFilled({ website: '   ' })).toBe(false);
    expect(isHoneypotFilled(create({ email: 'ann@example.com' }, ContactForm))).toBe(false);
    expect(isHoneypotFilled(create(quote, QuoteRequest))).toBe(false);
  });
});

describe('a profile update (SPEC 5 "Profile", SPEC 7 PATCH /update-passenger)', () => {
  const profile = { name: 'Ann Lee', email: 'ann@example.com' };

  it('needs a name and an e-mail address; the phone may be left out', async () => {
    const { UpdatePassengerRequest } = await contact();
    expect(create(profile, UpdatePassengerRequest)).toMatchObject({ ...profile, phone: '' });
    expect(is({ email: profile.email }, UpdatePassengerRequest)).toBe(false);
    expect(is({ name: profile.name }, UpdatePassengerRequest)).toBe(false);
  });

  it('takes the passenger id as a number or as digits, and nothing else', async () => {
    const { UpdatePassengerRequest } = await contact();
    for (const id of [7, '7', '42', '123456789', null]) expect(is({ ...profile, passenger_id: id }, UpdatePassengerRequest), String(id)).toBe(true);
    for (const id of ['1234567890', '12a', 'a12', '', 'x', 7.5]) expect(is({ ...profile, passenger_id: id }, UpdatePassengerRequest), String(id)).toBe(false);
  });
});

describe('the card calls (SPEC 7, decision 19)', () => {
  it('ask for an intent with a payment method and the amount in whole pence', async () => {
    const { CreatePaymentIntentRequest } = await card();
    const booking = {
      selectedVehicleData: { vehicle_id: 1, company_id: 1 }, bookingType: 'milleage', payment_method: 'card', selected_passenger: 'guest_login',
      bookingForm: {}, registrationData: {},
    };
    // The fields the card adds, refused by name (the booking's own fields are the booking call's to check).
    const refused = (body: object) => (validate({ ...booking, ...body }, CreatePaymentIntentRequest, { coerce: true })[0]?.failures() ?? [])
      .map((f) => String(f.path[0])).filter((k) => k === 'amount' || k === 'paymentMethodId');
    expect(refused({ paymentMethodId: 'pm_1Visa', amount: 9352 })).toEqual([]);
    expect(refused({ amount: 9352 })).toEqual(['paymentMethodId']);
    expect(refused({ paymentMethodId: 'pm_1Visa' })).toEqual(['amount']);
    expect(refused({ paymentMethodId: 'pm_1Visa', amount: 93.52 })).toEqual(['amount']);
    expect(refused({ paymentMethodId: 'pm_1Visa', amount: 0 })).toEqual(['amount']);
  });

  it('confirm an intent by its id', async () => {
    const { ConfirmPaymentIntentRequest } = await card();
    expect(is({ paymentIntentId: 'pi_3TestIntent' }, ConfirmPaymentIntentRequest)).toBe(true);
    expect(is({}, ConfirmPaymentIntentRequest)).toBe(false);
  });

  it('read the provider\'s key and where Stripe.js comes from, and refuse an answer without them', async () => {
    const { CardKeyResponse } = await card();
    expect(is({ success: true, publishableKey: 'pk_test_1', testMode: true, stripeJs: null }, CardKeyResponse)).toBe(true);
    expect(is({ success: true, publishableKey: 'pk_test_1', testMode: true, stripeJs: '/stripe-standin.js' }, CardKeyResponse)).toBe(true);
    expect(is({ success: true, testMode: true, stripeJs: null }, CardKeyResponse)).toBe(false);
    expect(is({ success: true, publishableKey: 'pk_test_1', testMode: true }, CardKeyResponse)).toBe(false);
  });

  it('read the intent made, and refuse an answer without its id', async () => {
    const { CreatePaymentIntentResponse } = await card();
    expect(is({ success: true, paymentIntentId: 'pi_1' }, CreatePaymentIntentResponse)).toBe(true);
    expect(is({ success: false }, CreatePaymentIntentResponse)).toBe(false);
  });

  it('read the four outcomes of a confirmation, and no other', async () => {
    const { ConfirmPaymentIntentResponse } = await card();
    const answer = { success: true, sessionId: 'pi_1', paymentId: 'ch_1' };
    for (const status of ['succeeded', 'requires_action', 'failed', 'processing']) {
      expect(is({ ...answer, status }, ConfirmPaymentIntentResponse), status).toBe(true);
    }
    for (const status of ['canceled', '', undefined]) expect(is({ ...answer, status }, ConfirmPaymentIntentResponse), String(status)).toBe(false);
    expect(is({ status: 'succeeded' }, ConfirmPaymentIntentResponse)).toBe(false);
  });
});
