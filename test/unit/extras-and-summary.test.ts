// The extras, each once (src/domain/extras.ts), and a booking as a person reads it (src/domain/bookingSummary.ts):
// the one place the form, the prices, the trip summary, the confirmation page, the e-mail and the account read from.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EXTRAS, amountOf, extraOf, extraOffered, extraPence, extraPhrase, extraPriceLabel, extraReads, legExtras, storedExtras,
} from '../../src/domain/extras';
import { bookingSummary, corporateAsResult, stopLine, type SummaryRow } from '../../src/domain/bookingSummary';
import type { BookingResult, CorporateBooking } from '../../src/domain/schemas';

describe('the extras', () => {
  it('are six, each with its form field, stored column, price code, setting and label', () => {
    expect(EXTRAS.map((e) => [e.key, e.detail, e.code, e.setting, e.label])).toEqual([
      ['meet_and_greet', 'meet_and_greet', 'meet_and_greet', 'MEET_AND_GREET', 'Meet and Greet'],
      ['baby_seats', 'baby_seat', 'baby_seat', 'BABY_PRICE_PER_SEAT', 'Baby seats'],
      ['booster_seats', 'booster_seat', 'booster_seat', 'BOOSTER_PRICE_PER_SEAT', 'Booster seats'],
      ['wheel_chair', 'wheel_chair', 'wheel_chair', 'WHEEL_CHAIR', 'Wheelchair accessible vehicle'],
      ['special_luggage', 'special_luggages', 'special_luggage', 'SPECIAL_LUGGAGE_PER_PRICE', 'Special luggage'],
      ['waiting_min', 'waiting_minutes', 'waiting', 'PRICE_PER_FIVE_WAITING_MIN', 'Waiting minutes'],
    ]);
    // SPEC 5: counts 0 to 15, waiting 0 to 100 in steps of 5.
    expect(EXTRAS.map((e) => (e.kind === 'yesno' ? 'yes/no' : e.kind === 'count' ? e.max : `${e.max}/${e.step}`)))
      .toEqual(['yes/no', 15, 15, 'yes/no', 15, '100/5']);
  });

  it('are offered only while their setting is above 0', () => {
    expect(extraOffered({ WHEEL_CHAIR: '20' }, 'wheel_chair')).toBe(true);
    expect(extraOffered({ WHEEL_CHAIR: '0' }, 'wheel_chair')).toBe(false);
    expect(extraOffered({}, 'waiting_min')).toBe(false);
  });

  it('are priced per item, once for yes, and waiting per five minutes started', () => {
    expect(extraPence(extraOf('meet_and_greet'), 'yes', 1500)).toBe(1500);
    expect(extraPence(extraOf('meet_and_greet'), 'no', 1500)).toBe(0);
    expect(extraPence(extraOf('baby_seats'), 3, 1000)).toBe(3000);
    expect([0, 1, 5, 6, 10, 11].map((m) => extraPence(extraOf('waiting_min'), m, 300))).toEqual([0, 300, 300, 600, 600, 900]);
    expect(amountOf(-2)).toBe(0);
    expect(amountOf(' YES ')).toBe(1);
    expect(amountOf(null)).toBe(0);
  });

  it('read the same everywhere: in a price line, in a trip summary and in a booking', () => {
    expect(extraPriceLabel(extraOf('baby_seats'), 2)).toBe('Baby seats x 2');
    expect(extraPriceLabel(extraOf('meet_and_greet'), 'yes')).toBe('Meet and Greet');
    expect(extraPriceLabel(extraOf('waiting_min'), 15)).toBe('Waiting minutes: 15');
    expect(EXTRAS.map((e) => extraPhrase(e, e.kind === 'yesno' ? 'yes' : 1))).toEqual([
      'Meet and Greet', '1 baby seat', '1 booster seat', 'Wheelchair accessible vehicle', '1 special luggage item', '1 min waiting',
    ]);
    expect(extraPhrase(extraOf('booster_seats'), 2)).toBe('2 booster seats');
    expect(extraPhrase(extraOf('booster_seats'), 0)).toBeNull();
    expect(EXTRAS.map((e) => extraReads(e, e.kind === 'yesno' ? 'no' : 0))).toEqual(['No', 'No', 'No', 'No', 'No', 'None']);
    expect(EXTRAS.map((e) => extraReads(e, e.kind === 'yesno' ? 'yes' : 2))).toEqual(['Yes', 'Yes (2)', 'Yes (2)', 'Yes', 'Yes (2)', '2 minutes']);
  });

  it('are read from either leg of a trip form and stored by column', () => {
    const form = { meet_and_greet: 'yes', baby_seats: 2, return_meet_and_greet: 'no', return_waiting_min: 10 };
    expect(legExtras(form, 'outbound')).toEqual({ meet_and_greet: 'yes', baby_seats: 2, booster_seats: 0, wheel_chair: 0, special_luggage: 0, waiting_min: 0 });
    expect(legExtras(form, 'return')).toEqual({ meet_and_greet: 'no', baby_seats: 0, booster_seats: 0, wheel_chair: 0, special_luggage: 0, waiting_min: 10 });
    expect(storedExtras(legExtras(form, 'outbound'))).toEqual({
      meet_and_greet: 'yes', baby_seat: 2, booster_seat: 0, wheel_chair: 'no', special_luggages: 0, waiting_minutes: 0,
    });
  });

  it('are written once: no label of an extra stands anywhere else in the code of the site, the server or the machines', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const files = ['src', 'machines'].flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f)))
      .filter((f) => f !== path.join('src', 'domain', 'extras.ts'));
    const labels = EXTRAS.filter((e) => e.key !== 'meet_and_greet').map((e) => e.label.toLowerCase());
    const found = files.flatMap((f) => {
      const code = readFileSync(path.join(root, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1').toLowerCase();
      return labels.filter((l) => code.includes(`'${l}`) || code.includes(`"${l}`) || code.includes(`\`${l}`)).map((l) => `${f}: ${l}`);
    });
    expect(found).toEqual([]);
  });
});

const transfer: BookingResult = {
  booking: {
    id: 7, booking_number: 'BK-ABCDEFGH', ride_type: 'Q', pick_up_address: 'Heathrow Terminal 5', drop_off_address: 'Trafalgar Square',
    pick_up_date: '2030-06-01', pick_up_time: '15:05', return_date: null, return_time: null, hourly_duration: null, payment_method: 'car',
    total_booking_amount: '62.40', flight_no: 'BA 117', return_flight_no: null, company_name: 'Metro Cars London',
    fleet_category: { category_name: 'Saloon' },
  },
  bookingDetail: {
    meet_and_greet: 'yes', baby_seat: 1, booster_seat: 0, wheel_chair: 'no', special_luggages: 0, waiting_minutes: 15,
    luggages: 2, hand_luggages: 1, vehicle_qty: 1,
  },
  bookingStops: [{ id: 1, stop_address: 'Euston Station', stop_post_code: 'NW1 2RT', stop_street_number: '' }],
  passengerDetails: {
    passenger_id: null, passenger_name: 'Amelia Hart', passenger_email: 'amelia@example.com', passenger_contact_no: '+447700900123',
    total_passengers: 2, additional_info: '',
  },
};
const hourly: BookingResult = {
  ...transfer,
  booking: { ...transfer.booking, ride_type: 'H', drop_off_address: null, hourly_duration: '5hour', flight_no: null, payment_method: 'card' },
  bookingStops: [],
};
const rows = (list: SummaryRow[]) => Object.fromEntries(list.map((r) => [r.label, r.value]));
const pounds = (p: string) => `£${p}`;

describe('the e-mail field of every form', () => {
  it("says SPEC 5's words, written once", async () => {
    const { emailProblem } = await import('../../src/domain/fields');
    const { EMAIL_INVALID, EMAIL_REQUIRED } = await import('../../src/domain/messages');
    expect([emailProblem(''), emailProblem('  '), emailProblem('a@b'), emailProblem(' amelia@example.com ')])
      .toEqual([EMAIL_REQUIRED, EMAIL_REQUIRED, EMAIL_INVALID, undefined]);
    expect(emailProblem('', false)).toBeUndefined();
    expect([EMAIL_REQUIRED, EMAIL_INVALID]).toEqual(['Email is required', 'Please enter a valid email address']);
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const written = ['src', 'machines'].flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f)).map((f) => path.join(dir, f)))
      .filter((f) => [EMAIL_REQUIRED, EMAIL_INVALID].some((m) => readFileSync(path.join(root, f), 'utf8').includes(m)));
    expect(written).toEqual([path.join('src', 'domain', 'messages.ts')]);
  });
});

describe('a booking as a person reads it', () => {
  it('on the confirmation page: the drop-off only for a transfer, the return only when there is one, extras only when offered', () => {
    const settings = { MEET_AND_GREET: '15', PRICE_PER_FIVE_WAITING_MIN: '3' };
    const s = bookingSummary(transfer, { reader: 'confirmation', settings, amount: pounds });
    expect(rows(s.journey)).toEqual({
      'Reference ID': 'BK-ABCDEFGH', 'Booking type': 'Quotation', 'Pickup address': 'Heathrow Terminal 5', 'Drop-off address': 'Trafalgar Square',
      'Pickup date': '01-06-2030', 'Pickup time': '3:05 PM', 'Flight / train': 'BA 117',
    });
    expect(s.journey.filter((r) => r.strong).map((r) => r.label)).toEqual(['Reference ID']);
    expect(rows(s.vehicle)).toMatchObject({ Vehicle: 'Saloon', Operator: 'Metro Cars London', 'Payment method': 'Pay in Car', 'Total amount': '£62.40' });
    expect(rows(s.extras)).toEqual({ 'Meet and Greet': 'Yes', 'Waiting minutes': '15 minutes' });
    // Issue 27: a booking made before free waiting was recorded says nothing of it; the sign reads the passenger's name.
    expect(rows(s.included)).toEqual({ 'Name on the sign': 'Amelia Hart' });
    const recorded = { ...transfer, bookingDetail: { ...transfer.bookingDetail, free_waiting_minutes: 45, free_waiting_airport: true, sign_text: 'ACME: Ms Hart' } };
    expect(rows(bookingSummary(recorded, { reader: 'confirmation', settings, amount: pounds }).included))
      .toEqual({ 'Free waiting': '45 minutes of free waiting after the flight lands', 'Name on the sign': 'ACME: Ms Hart' });
    const elsewhere = { ...transfer, bookingDetail: { ...transfer.bookingDetail, meet_and_greet: 'no', free_waiting_minutes: 15, free_waiting_airport: false } };
    expect(rows(bookingSummary(elsewhere, { reader: 'email', settings, amount: pounds }).included))
      .toEqual({ 'Free waiting': '15 minutes of free waiting after the pickup time' });
    expect(rows(s.stops)).toEqual({ 'Stop 1': 'Euston Station NW1 2RT' });
    expect(rows(s.passenger)).toEqual({ Name: 'Amelia Hart', Email: 'amelia@example.com', Phone: '+44 7700 900123', 'Total passengers': '2' });
    const h = bookingSummary(hourly, { reader: 'confirmation', settings, amount: pounds });
    expect(rows(h.journey)).not.toHaveProperty('Drop-off address');
    expect(rows(h.journey).Duration).toBe('5 hours');
    expect(rows(h.vehicle)['Payment method']).toBe('Pay by Card');
  });

  it("in the account's Details window: every field, a dash where there is nothing, car paid as 'Pay to driver'", () => {
    const s = bookingSummary(transfer, { reader: 'account', settings: {}, amount: pounds });
    expect(rows(s.journey)).toMatchObject({ 'Return date': '—', 'Return flight / train': '—' });
    expect(rows(s.vehicle)['Payment method']).toBe('Pay to driver');
    expect(s.extras.map((r) => r.label)).toEqual(EXTRAS.map((e) => e.label));
    expect(rows(s.extras)).toMatchObject({ 'Baby seats': 'Yes (1)', 'Booster seats': 'No' });
    expect(rows(s.passenger)['Additional information']).toBe('—');
    expect(rows(bookingSummary(hourly, { reader: 'account', settings: {}, amount: pounds }).journey)['Drop-off address']).toBe('As directed');
  });

  it('in the e-mail: every extra, the return when there is one', () => {
    const withReturn = { ...transfer, booking: { ...transfer.booking, return_date: '2030-06-08', return_time: '09:30' } };
    const s = bookingSummary(withReturn, { reader: 'email', settings: {}, amount: pounds });
    expect(rows(s.journey)).toMatchObject({ 'Return date': '08-06-2030', 'Return time': '9:30 AM' });
    expect(s.extras).toHaveLength(EXTRAS.length);
  });

  it('names the vehicle, its count and the luggage, with the total in bold; blank details read as a dash or not at all', () => {
    const s = bookingSummary(transfer, { reader: 'email', settings: {}, amount: pounds });
    expect(rows(s.vehicle)).toEqual({
      Vehicle: 'Saloon', Operator: 'Metro Cars London', 'Total vehicles': '1', Luggage: '2', 'Hand luggage': '1',
      'Payment method': 'Pay in Car', 'Total amount': '£62.40',
    });
    expect(s.vehicle.filter((r) => r.strong).map((r) => r.label)).toEqual(['Total amount']);
    // Only spaces is nothing: a dash for the name and e-mail, the sign falls back to the passenger's name, no notes row.
    const blank = {
      ...transfer,
      booking: { ...transfer.booking, flight_no: '   ', drop_off_address: '  ' },
      bookingDetail: { ...transfer.bookingDetail, sign_text: '  ' },
      passengerDetails: { ...transfer.passengerDetails, passenger_name: '  ', passenger_email: ' ', additional_info: ' ' },
    };
    const b = bookingSummary(blank, { reader: 'email', settings: {}, amount: pounds });
    expect(rows(b.passenger)).toEqual({ Name: '—', Email: '—', Phone: '+44 7700 900123', 'Total passengers': '2' });
    expect(rows(b.included)).toEqual({ 'Name on the sign': '—' });
    expect(rows(b.journey)).not.toHaveProperty('Flight / train');
    expect(rows(b.journey)).not.toHaveProperty('Drop-off address');
    expect(rows(bookingSummary(blank, { reader: 'account', settings: {}, amount: pounds }).journey)['Drop-off address']).toBe('—');
    const signed = { ...transfer, bookingDetail: { ...transfer.bookingDetail, sign_text: ' ACME Ltd ' } };
    expect(rows(bookingSummary(signed, { reader: 'email', settings: {}, amount: pounds }).included)['Name on the sign']).toBe('ACME Ltd');
    // An hourly booking whose hours cannot be read shows no duration; one of a transfer never does.
    const unread = { ...hourly, booking: { ...hourly.booking, hourly_duration: null } };
    expect(rows(bookingSummary(unread, { reader: 'email', settings: {}, amount: pounds }).journey)).not.toHaveProperty('Duration');
    const transferWithHours = { ...transfer, booking: { ...transfer.booking, hourly_duration: '3' } };
    expect(rows(bookingSummary(transferWithHours, { reader: 'email', settings: {}, amount: pounds }).journey)).not.toHaveProperty('Duration');
    expect(rows(bookingSummary(hourly, { reader: 'email', settings: {}, amount: pounds }).journey).Duration).toBe('5 hours');
  });

  it("reads a corporate list entry as the booking call's answer", () => {
    const { booking, bookingDetail, bookingStops, passengerDetails } = transfer;
    const entry: CorporateBooking = { ...booking, booking_details: bookingDetail, booking_stops: bookingStops, passenger_detail: passengerDetails };
    expect(corporateAsResult(entry)).toEqual(transfer);
    expect(stopLine({ stop_street_number: '12', stop_address: ' Euston Road ', stop_post_code: 'NW1 2RT' })).toBe('12 Euston Road NW1 2RT');
  });
});
