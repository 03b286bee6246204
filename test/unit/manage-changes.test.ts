// Issue 27 (decision 0043): the change form's messages, what a change is saved as, and what a new price means for the money.
import { describe, expect, it } from 'vitest';
import {
  allocateRefund, changedFields, changeErrors, cleanChange, pickupMoved, priceOutcome, type ChangeValues,
} from '../../src/domain/manageChanges';
import { isPhone } from '../../src/domain/phone';

/** A booking's details as the change form opens with them: all fine as they are. */
const form: ChangeValues = {
  passenger_name: 'Amelia Hart', passenger_phone: '+447700900012', passenger_email: 'amelia@example.com',
  flight_no: '', return_flight_no: '', sign_text: '', additional_info: '',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15',
};
const errorsOf = (change: Partial<Record<keyof ChangeValues, unknown>>) => changeErrors({ ...form, ...change }, isPhone);
/**
 * A copy of the module of its own, for the tests of what it builds as it loads (the labels, the minutes): a mutation
 * run tries those on the tests that load it (docs/mutation.md).
 */
let copies = 0;
const fresh = (): Promise<typeof import('../../src/domain/manageChanges')> =>
  import(/* @vite-ignore */ `../../src/domain/manageChanges.ts?copy=${Math.random().toString(36).slice(2)}-${++copies}`);

describe('the change form', () => {
  it('has nothing to say about details that are fine', () => {
    // No message at all, not even an empty one: the values may be sent.
    expect(errorsOf({})).toStrictEqual({});
    expect(errorsOf({ flight_no: 'BA 117', return_flight_no: 'BA 118', sign_text: 'ACME Ltd', additional_info: 'Two large cases.' })).toEqual({});
  });

  it("asks for the passenger's name when it is empty, only spaces, or not text at all", () => {
    for (const name of ['', '   ', ' \t ', ' '.repeat(101), undefined, 42]) {
      expect(errorsOf({ passenger_name: name }), JSON.stringify(name)).toEqual({ passenger_name: "Enter the passenger's name." });
    }
  });

  it('takes a name, a flight number, a sign and notes up to their lengths, and says how long they may be one character over', () => {
    // A booking's own details always fit (SPEC 5: first and last names of 100 each with a space, notes of 1000).
    const cases: [keyof ChangeValues, number][] = [
      ['passenger_name', 201], ['flight_no', 40], ['return_flight_no', 40], ['sign_text', 60], ['additional_info', 1000],
    ];
    for (const [field, max] of cases) {
      expect(errorsOf({ [field]: 'A'.repeat(max) }), `${field} at ${max}`).toEqual({});
      expect(errorsOf({ [field]: 'A'.repeat(max + 1) }), `${field} at ${max + 1}`).toEqual({ [field]: `Use ${max} characters or fewer.` });
    }
  });

  it('refuses special characters in the one-line fields, and line breaks too; the notes may have line breaks but no other control characters', () => {
    const control = 'Remove the special characters from this text.';
    for (const field of ['passenger_name', 'flight_no', 'return_flight_no', 'sign_text'] as const) {
      expect(errorsOf({ [field]: 'Amelia\u0007Hart' }), field).toEqual({ [field]: control });
      expect(errorsOf({ [field]: 'Amelia\nHart' }), field).toEqual({ [field]: control });
      expect(errorsOf({ [field]: 'Amelia \u202eHart' }), field).toEqual({ [field]: control });
    }
    expect(errorsOf({ additional_info: 'Two large cases.\nPlease call on arrival.\r\n\tThanks' })).toEqual({});
    expect(errorsOf({ additional_info: 'Two large cases.\u0007' })).toEqual({ additional_info: control });
    expect(errorsOf({ additional_info: 'Two large cases \u202e' })).toEqual({ additional_info: control });
  });

  it('says a text that is too long before it says it has special characters', () => {
    expect(errorsOf({ sign_text: `${'A'.repeat(60)}\u0007` })).toEqual({ sign_text: 'Use 60 characters or fewer.' });
  });

  it('asks for a phone number the driver can reach when there is none, and says a wrong one is not valid in SPEC 5\'s words', () => {
    for (const phone of ['', '   ', undefined, 447700900012]) {
      expect(errorsOf({ passenger_phone: phone }), JSON.stringify(phone)).toEqual({ passenger_phone: 'Enter a phone number the driver can reach.' });
    }
    expect(errorsOf({ passenger_phone: '12' })).toEqual({ passenger_phone: 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)' });
    expect(errorsOf({ passenger_phone: '+44 7700 900012' })).toEqual({});
  });

  it('asks the phone rule about the number without the spaces typed around it', () => {
    const asked: string[] = [];
    const rule = (text: string) => { asked.push(text); return /^\+\d{6,15}$/.test(text); };
    expect(changeErrors({ ...form, passenger_phone: '  +447700900012  ' }, rule)).toEqual({});
    expect(asked).toEqual(['+447700900012']);
  });

  it("gives SPEC 5's words for the e-mail: required, and one address", () => {
    expect(errorsOf({ passenger_email: '' })).toEqual({ passenger_email: 'Email is required' });
    expect(errorsOf({ passenger_email: '   ' })).toEqual({ passenger_email: 'Email is required' });
    expect(errorsOf({ passenger_email: 'not-an-address' })).toEqual({ passenger_email: 'Please enter a valid email address' });
    expect(errorsOf({ passenger_email: 'a@example.com, b@example.com' })).toEqual({ passenger_email: 'Please enter a valid email address' });
    expect(errorsOf({ passenger_email: ' amelia.new@example.com ' })).toEqual({});
  });

  it('asks for a real date', () => {
    for (const date of ['2030-02-30', '2030-13-01', '12/09/2030', '', '2030-9-12']) {
      expect(errorsOf({ pickup_date: date }), date).toEqual({ pickup_date: 'Choose a real date.' });
    }
    expect(errorsOf({ pickup_date: '2032-02-29' })).toEqual({});
  });

  it("takes the hour as the wizard's 12-hour clock, 12am to 11pm, and nothing else", () => {
    for (const hour of ['12am', '1am', '9am', '10am', '11am', '12pm', '1pm', '11pm']) expect(errorsOf({ pickup_hour: hour }), hour).toEqual({});
    for (const hour of ['', '0am', '13pm', '7', '07am', '7 am', '7AM', 'x7am', '7amx', '19:00', '112am']) {
      expect(errorsOf({ pickup_hour: hour }), hour).toEqual({ pickup_hour: 'Choose the hour.' });
    }
  });

  it('takes the minutes in fives, 00 to 55, and nothing else', async () => {
    const { changeErrors: errors } = await fresh();
    const of = (pickup_min: string) => errors({ ...form, pickup_min }, isPhone);
    for (const min of ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']) expect(of(min), min).toEqual({});
    for (const min of ['', '0', '5', '07', '60', '5 ', ' 05']) expect(of(min), min).toEqual({ pickup_min: 'Choose the minutes.' });
  });

  it('names each wrong part of the time, and talks of the clocks only when the date, hour and minutes are each real', () => {
    const skipped = 'The clocks go forward at 1am that night, so times from 1am to 1:59am do not exist. Please choose 2am or later, or 12:55am or earlier.';
    // 30 March 2031 is the last Sunday of March: 1:30am does not happen.
    expect(errorsOf({ pickup_date: '2031-03-30', pickup_hour: '1am', pickup_min: '30' })).toEqual({ pickup_hour: skipped });
    expect(errorsOf({ pickup_date: '2031-03-30', pickup_hour: '1am', pickup_min: '07' })).toEqual({ pickup_min: 'Choose the minutes.' });
    expect(errorsOf({ pickup_date: '2031-03-30', pickup_hour: '13am', pickup_min: '30' })).toEqual({ pickup_hour: 'Choose the hour.' });
    expect(errorsOf({ pickup_date: '2031-02-30', pickup_hour: '1am', pickup_min: '30' })).toEqual({ pickup_date: 'Choose a real date.' });
    expect(errorsOf({ pickup_date: '2031-02-30', pickup_hour: '', pickup_min: '' }))
      .toEqual({ pickup_date: 'Choose a real date.', pickup_hour: 'Choose the hour.', pickup_min: 'Choose the minutes.' });
    // A week earlier the same time is an ordinary one.
    expect(errorsOf({ pickup_date: '2031-03-23', pickup_hour: '1am', pickup_min: '30' })).toEqual({});
  });

  it('names every field that is wrong at once', () => {
    expect(changeErrors({}, isPhone)).toEqual({
      passenger_name: "Enter the passenger's name.",
      passenger_phone: 'Enter a phone number the driver can reach.',
      passenger_email: 'Email is required',
      pickup_date: 'Choose a real date.',
      pickup_hour: 'Choose the hour.',
      pickup_min: 'Choose the minutes.',
    });
  });

  it('labels each field as the form, the e-mails and the timeline name it', async () => {
    expect((await fresh()).CHANGE_LABELS).toEqual({
      passenger_name: 'Passenger name', passenger_phone: 'Passenger phone', passenger_email: 'Passenger e-mail',
      flight_no: 'Flight number', return_flight_no: 'Return flight number', sign_text: 'Name on the meet-and-greet sign',
      additional_info: 'Additional information', pickup_date: 'Pickup date', pickup_hour: 'Pickup hour', pickup_min: 'Pickup minutes',
    });
  });
});

describe('a change as it is saved', () => {
  it('keeps a train or ferry in capitals, without the spaces around it', () => {
    const v = {
      passenger_name: 'Amelia Hart', passenger_phone: '+447700900999', passenger_email: 'amelia@example.com', flight_no: ' eurostar 9014 ',
      return_flight_no: 'p&o dover ', sign_text: '', additional_info: '', pickup_date: '2030-09-12', pickup_hour: '9am', pickup_min: '45',
    };
    expect(cleanChange(v)).toMatchObject({ flight_no: 'EUROSTAR 9014', return_flight_no: 'P&O DOVER' });
  });
  it('keeps the text without the spaces around it, a flight as airlines write it and other references in capitals', () => {
    expect(cleanChange({
      passenger_name: '  Amelia J. Hart ', passenger_phone: ' +447700900999 ', passenger_email: ' amelia.new@example.com ',
      flight_no: ' ba 117 ', return_flight_no: ' vs3 ', sign_text: '  ACME Ltd: Ms Hart ', additional_info: '\n Two large cases.\n ',
      pickup_date: '2030-09-12', pickup_hour: '9am', pickup_min: '45',
    })).toEqual({
      passenger_name: 'Amelia J. Hart', passenger_phone: '+447700900999', passenger_email: 'amelia.new@example.com',
      flight_no: 'BA 117', return_flight_no: 'VS 3', sign_text: 'ACME Ltd: Ms Hart', additional_info: 'Two large cases.',
      pickup_date: '2030-09-12', pickup_hour: '9am', pickup_min: '45',
    });
  });

  it("keeps no sign text of its own when the sign just says the passenger's name (the sign shows the name anyway)", () => {
    expect(cleanChange({ ...form, sign_text: 'Amelia Hart' }).sign_text).toBe('');
    expect(cleanChange({ ...form, passenger_name: ' Amelia Hart', sign_text: 'Amelia Hart  ' }).sign_text).toBe('');
    expect(cleanChange({ ...form, sign_text: '' }).sign_text).toBe('');
    expect(cleanChange({ ...form, sign_text: 'ACME Ltd' }).sign_text).toBe('ACME Ltd');
    // The sign follows a new name: the old name on it is then text of its own.
    expect(cleanChange({ ...form, passenger_name: 'Amelia J. Hart', sign_text: 'Amelia Hart' }).sign_text).toBe('Amelia Hart');
  });

  it('leaves the pickup date and time as they were chosen', () => {
    expect(cleanChange({ ...form, pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' }))
      .toMatchObject({ pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' });
  });
});

describe('what a change changes', () => {
  it('is nothing when the details are the same', () => {
    expect(changedFields(form, { ...form })).toEqual([]);
  });

  it('names each field that differs, in the form\'s order', () => {
    expect(changedFields(form, { ...form, flight_no: 'BA 117' })).toEqual(['flight_no']);
    expect(changedFields(form, { ...form, pickup_min: '45', passenger_email: 'amelia.new@example.com', sign_text: 'ACME Ltd' }))
      .toEqual(['passenger_email', 'sign_text', 'pickup_min']);
    const everything: ChangeValues = {
      passenger_name: 'B', passenger_phone: '+447700900999', passenger_email: 'b@example.com', flight_no: 'BA 1', return_flight_no: 'BA 2',
      sign_text: 'B', additional_info: 'B', pickup_date: '2030-09-13', pickup_hour: '8am', pickup_min: '20',
    };
    expect(changedFields(form, everything)).toEqual([
      'passenger_name', 'passenger_phone', 'passenger_email', 'flight_no', 'return_flight_no', 'sign_text', 'additional_info',
      'pickup_date', 'pickup_hour', 'pickup_min',
    ]);
  });

  it('moves the pickup (so the trip is priced again) when the date, the hour or the minutes change, and only then', () => {
    expect(pickupMoved([])).toBe(false);
    expect(pickupMoved(['passenger_name', 'passenger_phone', 'passenger_email', 'flight_no', 'return_flight_no', 'sign_text', 'additional_info'])).toBe(false);
    expect(pickupMoved(['pickup_date'])).toBe(true);
    expect(pickupMoved(['pickup_hour'])).toBe(true);
    expect(pickupMoved(['pickup_min'])).toBe(true);
    expect(pickupMoved(['flight_no', 'pickup_min'])).toBe(true);
    expect(pickupMoved(['pickup_hour', 'sign_text'])).toBe(true);
    expect(pickupMoved(changedFields(form, { ...form, pickup_date: '2030-09-13' }))).toBe(true);
  });
});

describe('what a new price means', () => {
  it('is nothing to pay or give back when the price is the same, however the booking is paid', () => {
    expect([priceOutcome('card', 5000, 5000), priceOutcome('car', 5000, 5000), priceOutcome('card', 0, 0)]).toEqual(['same', 'same', 'same']);
  });

  it('is a card payment of the difference for a higher card price, even a penny higher, and a refund for a lower one', () => {
    expect([priceOutcome('card', 5000, 5001), priceOutcome('card', 5001, 5000), priceOutcome('card', 0, 100), priceOutcome('card', 100, 0)])
      .toEqual(['pay', 'refund', 'pay', 'refund']);
  });

  it('is the new price confirmed for a booking paid in the car, higher or lower', () => {
    expect([priceOutcome('car', 5000, 6500), priceOutcome('car', 5000, 4000)]).toEqual(['confirm', 'confirm']);
  });
});

describe('a refund split over the payments', () => {
  const paid = [{ paymentIntentId: 'first', leftPence: 5000 }, { paymentIntentId: 'difference', leftPence: 2000 }];

  it('is nothing when nothing is to be given back', () => {
    expect(allocateRefund(paid, 0)).toEqual([]);
    expect(allocateRefund([], 0)).toEqual([]);
  });

  it('takes exactly what the latest payment has left before it touches the first', () => {
    expect(allocateRefund(paid, 2000)).toEqual([{ paymentIntentId: 'difference', pence: 2000 }]);
    expect(allocateRefund(paid, 2001)).toEqual([{ paymentIntentId: 'difference', pence: 2000 }, { paymentIntentId: 'first', pence: 1 }]);
  });

  it('passes over a payment that has nothing left', () => {
    const refunded = [{ paymentIntentId: 'first', leftPence: 5000 }, { paymentIntentId: 'difference', leftPence: 0 }];
    expect(allocateRefund(refunded, 1000)).toEqual([{ paymentIntentId: 'first', pence: 1000 }]);
    expect(allocateRefund(refunded, 5000)).toEqual([{ paymentIntentId: 'first', pence: 5000 }]);
  });

  it('refuses to give back more than the payments hold, and says how much could be', () => {
    expect(() => allocateRefund(paid, 7001)).toThrow(/7000p of 7001p/);
    expect(() => allocateRefund([], 1)).toThrow(/ 0p of 1p/);
  });
});
