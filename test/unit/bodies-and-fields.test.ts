// SPEC 3 and 5: the bodies a person types into (the contact form, the Quote Now form, the profile) and the field
// rules every body shares (src/domain/fields.ts): one e-mail rule, free text without control characters, real dates.
// test/api/enquiries.test.ts and account.test.ts send them through the API.
import { describe, expect, it } from 'vitest';
import { create, validate, type Struct } from 'superstruct';
import { CONTACT_MESSAGES, validateContactForm } from '../../src/domain/contactForm';
import { ContactForm, QUERY_REASONS, QuoteRequest, UpdatePassengerRequest } from '../../src/domain/contactSchemas';
import { DETAILS_MESSAGES } from '../../src/domain/detailsValidation';
import {
  CalendarDate, CONTROL_CHARACTERS_MESSAGE, Email, EmailOrEmpty, EMAIL_MAX_LENGTH, hasControlCharacters, isEmail, OptionalText, Text,
} from '../../src/domain/fields';
import { ConfirmPaymentIntentRequest, ConfirmPaymentIntentResponse, CreatePaymentIntentRequest, CardKeyResponse, CreatePaymentIntentResponse } from '../../src/domain/cardSchemas';
import { decode, encode } from '../../src/domain/encoding';
import { bookingForm, registration } from '../machine/fixtures';

/** The first failure: where and why, or null when the value passes (after coercion and defaults). */
const failure = (value: unknown, struct: Struct<any, any>): { at: string; message: string } | null => {
  const f = validate(value, struct, { coerce: true })[0]?.failures()[0];
  return f ? { at: f.path.join('.'), message: f.message } : null;
};

describe('the contact form in the browser (SPEC 5)', () => {
  it('asks for an e-mail address or a telephone number to reply to', () => {
    expect(validateContactForm({})).toEqual({ email: CONTACT_MESSAGES.reachable });
    expect(validateContactForm({ email: '  ', telephone: ' ' })).toEqual({ email: 'Please give an e-mail address or a telephone number so we can reply.' });
    expect(validateContactForm({ email: 'ada@example.co.uk' })).toEqual({});
    expect(validateContactForm({ telephone: '07700 900123' })).toEqual({});
  });

  it('checks the e-mail and the telephone, when given, with the rules the server uses', () => {
    expect(validateContactForm({ email: 'ada@', telephone: '07700 900123' })).toEqual({ email: DETAILS_MESSAGES.emailInvalid });
    expect(validateContactForm({ email: ' ada@example.co.uk ', telephone: '12345' })).toEqual({ telephone: DETAILS_MESSAGES.phoneInvalid });
    expect(validateContactForm({ email: 'a@b.co, c@d.co', telephone: 'call me' })).toEqual({
      email: 'Please enter a valid email address', telephone: 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)',
    });
  });

  it('checks a booking number, when given, as a reference the site issues', () => {
    expect(validateContactForm({ email: 'ada@example.co.uk', bookingNumber: ' bk-7q2m 9xkd ' })).toEqual({});
    expect(validateContactForm({ email: 'ada@example.co.uk', bookingNumber: '   ' })).toEqual({});
    expect(validateContactForm({ email: 'ada@example.co.uk', bookingNumber: '12345' })).toEqual({
      bookingNumber: 'Please enter the booking number as it appears on your confirmation, for example BK-7KQ2M9A4.',
    });
  });
});

describe('the contact form body (SPEC 3)', () => {
  it('defaults what may be left out, stores the phone as E.164 and the reference as issued', () => {
    expect(create({ email: 'ada@example.co.uk' }, ContactForm)).toEqual({
      firstName: '', lastName: '', email: 'ada@example.co.uk', telephone: '', queryReason: 'Booking', bookingNumber: '', comments: '', website: '',
    });
    expect(create({ telephone: '07700 900123', bookingNumber: 'bk 7q2m9xkd', queryReason: 'Lost Item', comments: 'Left an umbrella.\nBlack.' }, ContactForm))
      .toMatchObject({ email: '', telephone: '+447700900123', bookingNumber: 'BK-7Q2M9XKD', queryReason: 'Lost Item' });
  });

  it('takes the five reasons of SPEC 3 and no other', () => {
    expect(QUERY_REASONS).toEqual(['Booking', 'Invoice', 'Complaint', 'Lost Item', 'Other']);
    for (const queryReason of QUERY_REASONS) expect(failure({ email: 'a@b.co', queryReason }, ContactForm), queryReason).toBeNull();
    expect(failure({ email: 'a@b.co', queryReason: 'Refund' }, ContactForm)?.at).toBe('queryReason');
  });

  it('refuses a message nobody can answer', () => {
    expect(failure({}, ContactForm)).toEqual({ at: '', message: 'give an e-mail address or a telephone number so we can reply' });
    expect(failure({ email: '', telephone: '' }, ContactForm)?.message).toBe('give an e-mail address or a telephone number so we can reply');
  });

  it('refuses a bad reference, phone or address by the field, and names too long text', () => {
    expect(failure({ email: 'a@b.co', bookingNumber: 'BK-0000' }, ContactForm)).toEqual({ at: 'bookingNumber', message: 'must be a booking reference as on your confirmation, like BK-7Q2M9XKD' });
    expect(failure({ email: 'a@b.co', telephone: '999' }, ContactForm)?.at).toBe('telephone');
    expect(failure({ email: 'a@b', telephone: '07700 900123' }, ContactForm)?.at).toBe('email');
    expect(failure({ email: 'a@b.co', firstName: 'x'.repeat(101) }, ContactForm)?.at).toBe('firstName');
    expect(failure({ email: 'a@b.co', comments: 'x'.repeat(5001) }, ContactForm)?.at).toBe('comments');
    expect(failure({ email: 'a@b.co', comments: 'line\r\nline\tend' }, ContactForm)).toBeNull();
  });
});

describe('the Quote Now body (SPEC 3 and 5)', () => {
  const quote = {
    pickup_date: '2030-06-01', pickup_time: '15:05', passenger_email: 'ada@example.co.uk', passenger_phone: '07700 900123',
  };

  it('needs a date, a time, an e-mail and a telephone, and defaults the rest', () => {
    expect(create(quote, QuoteRequest)).toEqual({
      ...quote, passenger_phone: '+447700900123', pickup_address: '', dropoff_address: '', passenger_name: '', additional_info: '',
      passengers: 1, luggages: 0, website: '',
    });
    for (const key of Object.keys(quote)) expect(failure({ ...quote, [key]: undefined }, QuoteRequest)?.at, key).toBe(key);
  });

  it('takes a 24-hour time 00:00 to 23:59', () => {
    for (const t of ['00:00', '09:59', '19:30', '23:59']) expect(failure({ ...quote, pickup_time: t }, QuoteRequest), t).toBeNull();
    for (const t of ['24:00', '9:30', '12:60', '12:5', '1230', 'x12:30', '12:30x', '']) expect(failure({ ...quote, pickup_time: t }, QuoteRequest)?.at, t).toBe('pickup_time');
  });

  it('counts 1 to 50 passengers and up to 20 cases', () => {
    expect(failure({ ...quote, passengers: 50, luggages: 20 }, QuoteRequest)).toBeNull();
    expect(failure({ ...quote, passengers: 0 }, QuoteRequest)?.at).toBe('passengers');
    expect(failure({ ...quote, luggages: 21 }, QuoteRequest)?.at).toBe('luggages');
    expect(failure({ ...quote, additional_info: 'Two cases.\nA pushchair.' }, QuoteRequest)).toBeNull();
    expect(failure({ ...quote, passenger_name: 'Ada\nLovelace' }, QuoteRequest)?.at).toBe('passenger_name');
  });
});

describe('the profile body (SPEC 5 Profile)', () => {
  it('needs a name and an e-mail; the phone may be left empty, and passenger_id is a number', () => {
    expect(create({ name: 'Ada', email: 'ada@example.co.uk' }, UpdatePassengerRequest)).toEqual({ name: 'Ada', email: 'ada@example.co.uk', phone: '' });
    expect(create({ name: 'Ada', email: 'ada@example.co.uk', phone: '020 7946 0321', passenger_id: '42' }, UpdatePassengerRequest).phone).toBe('+442079460321');
    expect(failure({ name: ' ', email: 'ada@example.co.uk' }, UpdatePassengerRequest)).toEqual({ at: 'name', message: 'must not be blank' });
    expect(failure({ name: 'Ada' }, UpdatePassengerRequest)?.at).toBe('email');
    for (const id of [42, '42', null]) expect(failure({ name: 'Ada', email: 'a@b.co', passenger_id: id }, UpdatePassengerRequest), String(id)).toBeNull();
    for (const id of ['4x', '', '1234567890', 4.5]) expect(failure({ name: 'Ada', email: 'a@b.co', passenger_id: id }, UpdatePassengerRequest)?.at, String(id)).toBe('passenger_id');
  });
});

describe('the shared field rules', () => {
  it('takes one e-mail address of 3 to 254 characters, surrounding spaces aside', () => {
    expect(['a@b.co', ' a@b.co ', 'first.last+tag@sub.example.co.uk'].map(isEmail)).toEqual([true, true, true]);
    for (const bad of ['', 'a@b', '@b.co', 'a@.co', 'a@b.', 'a b@c.co', 'a@b.co,c@d.co', 'a@b.co;c@d.co', '<a@b.co>', '"a"@b.co', 'a@b@c.co', 'a\\b@c.co', 'a(b)@c.co', 'a[b]@c.co', 'a:b@c.co', 'a@b\n.co', 'a\u0000@b.co', 'a\u007f@b.co']) {
      expect(isEmail(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isEmail(null)).toBe(false);
    expect(isEmail(undefined)).toBe(false);
    const local = 'a'.repeat(EMAIL_MAX_LENGTH - '@b.co'.length);
    expect(isEmail(`${local}@b.co`)).toBe(true);
    expect(isEmail(`a${local}@b.co`)).toBe(false);
  });

  it('trims an e-mail in a body and refuses anything else with one message', () => {
    expect(create('  ada@example.co.uk ', Email)).toBe('ada@example.co.uk');
    expect(failure('ada', Email)?.message).toBe('must be one e-mail address, like name@example.com');
    expect(create(' ', EmailOrEmpty)).toBe('');
    expect(create(' a@b.co', EmailOrEmpty)).toBe('a@b.co');
    expect(failure('ada', EmailOrEmpty)?.message).toBe('must be one e-mail address, like name@example.com');
  });

  it('takes a real date as YYYY-MM-DD, saying what it received', () => {
    expect(failure('2028-02-29', CalendarDate)).toBeNull();
    expect(failure('2027-02-29', CalendarDate)?.message).toBe('Expected a real date as YYYY-MM-DD but received "2027-02-29"');
    expect(failure('2027-2-01', CalendarDate)).not.toBeNull();
    expect(failure('x2027-02-01', CalendarDate)).not.toBeNull();
    expect(failure('2027-02-01x', CalendarDate)).not.toBeNull();
  });

  it('refuses control characters in text, line breaks and tabs too except where the text may have several lines', () => {
    for (const c of ['\u0000', '\u0007', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0085', '\u009f']) {
      expect(hasControlCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
    for (const c of ['\t', '\n', '\r']) expect(hasControlCharacters(`a${c}b`, true), JSON.stringify(c)).toBe(false);
    for (const c of ['\u0000', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', '\u007f', '\u009f']) {
      expect(hasControlCharacters(`a${c}b`, true), JSON.stringify(c)).toBe(true);
    }
    expect(['a b', 'é ü £ €', '\u00a0', '\u0020', '~'].map((s) => hasControlCharacters(s))).toEqual([false, false, false, false, false]);
    expect(failure('a\u0007b', Text(0, 10))?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(CONTROL_CHARACTERS_MESSAGE).toBe('must not contain control characters');
    expect(failure('a\nb', Text(0, 10, { multiline: true }))).toBeNull();
    expect(failure('a\nb', OptionalText(10, { multiline: true }))).toBeNull();
    expect(failure('a\nb', OptionalText(10))?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
  });

  it('refuses text that shows in another order than it is: bidirectional controls anywhere, line separators in one-line text', () => {
    const bidi = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of bidi) {
      expect(hasControlCharacters(`Amelia${c}Hart`), JSON.stringify(c)).toBe(true);
      expect(hasControlCharacters(`Amelia${c}Hart`, true), JSON.stringify(c)).toBe(true);
      expect(isEmail(`amelia${c}@example.com`), JSON.stringify(c)).toBe(false);
    }
    for (const c of ['\u2028', '\u2029']) {
      expect(hasControlCharacters(`a${c}b`), JSON.stringify(c)).toBe(true);
      expect(hasControlCharacters(`a${c}b`, true), JSON.stringify(c)).toBe(false);
      expect(isEmail(`a${c}b@example.com`), JSON.stringify(c)).toBe(false);
    }
    // Right-to-left text itself, and the marks around it, are text like any other.
    for (const ok of ['\u05e9\u05dc\u05d5\u05dd', '\u0645\u0631\u062d\u0628\u0627', 'a\u200eb', 'a\u200fb', 'a\u2027b', 'a\u202fb', 'a\u2065b', 'a\u206ab']) {
      expect(hasControlCharacters(ok), JSON.stringify(ok)).toBe(false);
    }
    expect(failure('Tom \u202eevil', Text(0, 20))?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
    expect(failure('Line one\u2029Line two', Text(0, 20, { multiline: true }))).toBeNull();
  });

  it('refuses blank required text but lets optional text be empty, within its length', () => {
    expect(failure('   ', Text(1, 10))?.message).toBe('must not be blank');
    expect(failure('', Text(1, 10))).not.toBeNull();
    expect(failure('   ', Text(0, 10))).toBeNull();
    expect(failure('x'.repeat(11), Text(0, 10))).not.toBeNull();
    expect(create(undefined, OptionalText(10))).toBe('');
    expect(failure('x'.repeat(11), OptionalText(10))).not.toBeNull();
  });
});

describe('the card calls (SPEC 7)', () => {
  const booking = {
    selectedVehicleData: { vehicle_id: 1, company_id: 2 }, bookingType: 'milleage', bookingForm, registrationData: registration, payment_method: 'card',
  };

  it('create an intent for the booking with the card and an amount in pence', () => {
    expect(failure({ ...booking, paymentMethodId: 'pm_card_visa', amount: 9352 }, CreatePaymentIntentRequest)).toBeNull();
    expect(failure({ ...booking, amount: 9352 }, CreatePaymentIntentRequest)?.at).toBe('paymentMethodId');
    expect(failure({ ...booking, paymentMethodId: 'pm_card_visa', amount: 0 }, CreatePaymentIntentRequest)?.at).toBe('amount');
    expect(failure({ ...booking, paymentMethodId: 'pm_card_visa', amount: 93.52 }, CreatePaymentIntentRequest)?.at).toBe('amount');
    expect(failure({ paymentMethodId: 'pm_card_visa', amount: 9352 }, CreatePaymentIntentRequest)?.at).toBe('selectedVehicleData');
    expect(failure({ paymentIntentId: 'pi_123' }, ConfirmPaymentIntentRequest)).toBeNull();
    expect(failure({}, ConfirmPaymentIntentRequest)?.at).toBe('paymentIntentId');
  });

  it('read the key, the intent and the four outcomes of a confirmation', () => {
    expect(failure({ success: true, publishableKey: 'pk_test', testMode: true, stripeJs: null }, CardKeyResponse)).toBeNull();
    expect(failure({ success: true, publishableKey: 'pk_test', testMode: true }, CardKeyResponse)?.at).toBe('stripeJs');
    expect(failure({ success: true, paymentIntentId: 'pi_1' }, CreatePaymentIntentResponse)).toBeNull();
    expect(failure({ success: true }, CreatePaymentIntentResponse)?.at).toBe('paymentIntentId');
    for (const status of ['succeeded', 'requires_action', 'failed', 'processing']) {
      expect(failure({ success: true, status, sessionId: null, paymentId: null }, ConfirmPaymentIntentResponse), status).toBeNull();
    }
    expect(failure({ success: true, status: 'canceled', sessionId: null, paymentId: null }, ConfirmPaymentIntentResponse)?.at).toBe('status');
    expect(failure({ success: true, status: 'succeeded', paymentId: null }, ConfirmPaymentIntentResponse)?.at).toBe('sessionId');
  });
});

describe('encoded values (SPEC 3: base64 of UTF-8 JSON)', () => {
  it('round-trip any JSON, pound signs and accents included', () => {
    for (const v of [{ a: 1, b: ['£45', 'Zoë'] }, 'pk_test_51', '45.50', 0, null, [1, 'x']]) expect(decode(encode(v))).toEqual(v);
    expect(encode('£')).toBe(btoa('"\u00c2\u00a3"'));
    expect(encode({ a: 1 })).toBe('eyJhIjoxfQ==');
  });

  it('read nothing from nothing or from what is not theirs', () => {
    expect(decode(null)).toBeUndefined();
    expect(decode('')).toBeUndefined();
    expect(decode('not base64!')).toBeUndefined();
    expect(decode(btoa('{not json'))).toBeUndefined();
  });
});
