import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedMessages, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { PHONE_MESSAGE } from '../../src/domain/phone';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const bookingForm = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 2, luggages: 1,
  pickup_fight_number: 'BA 117',
  stops: [{ street_name: 'Euston Station, Euston Road, London', number: '', postcode: 'NW1 2RT' }],
};
const registrationData = {
  firstName: 'Amelia', surname: 'Hart', number: '+44 770 090 012', email: 'amelia@example.com', additionalInfo: 'Child seat not needed',
};

async function priceFor(vehicle_type: string, company_name: string) {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  return body.price_details.find((p: any) => p.vehicle_type === vehicle_type && p.company_name === company_name);
}

function request(vehicle: any, extra: Record<string, unknown> = {}) {
  return {
    selectedVehicleData: vehicle, selectedVehicle: 2, bookingType: 'milleage', bookingForm, hourlyRateForm: null,
    registrationData, payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
    ...extra,
  };
}

describe('POST /booking, pay in car', () => {
  it('stores the booking priced by the server and answers in the SPEC 7 shape', async () => {
    const vehicle = await priceFor('MPV', 'Metro Cars London');
    const { status, body } = await t.call('POST', '/booking', request({ ...vehicle, price: '0.01', final_price: '0.01' }));
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(typeof body.message).toBe('string');
    const total = (Math.round(Number(vehicle.price) * 100) * 2 / 100).toFixed(2);
    expect(body.data.booking).toMatchObject({
      booking_number: expect.stringMatching(/^BK-[A-Z2-9]{8}$/), ride_type: 'Q',
      pick_up_address: bookingForm.pickup, drop_off_address: bookingForm.dropoff,
      pick_up_date: '2030-06-01', pick_up_time: '15:05', return_date: null, payment_method: 'car',
      total_booking_amount: total, flight_no: 'BA 117', fleet_category: { category_name: 'MPV' },
    });
    expect(body.data.bookingDetail).toMatchObject({ luggages: 1, vehicle_qty: 2, meet_and_greet: 'no' });
    expect(body.data.bookingStops).toEqual([
      { id: expect.any(Number), stop_address: 'Euston Station, Euston Road, London', stop_post_code: 'NW1 2RT', stop_street_number: '' },
    ]);
    expect(body.data.passengerDetails).toMatchObject({
      passenger_name: 'Amelia Hart', passenger_email: 'amelia@example.com', passenger_contact_no: '+44770090012',
      total_passengers: 2, additional_info: 'Child seat not needed',
    });
    const [row] = await t.db.query<any>('SELECT total_booking_amount_pence, vehicle_qty FROM bookings WHERE booking_number = $1', [body.data.booking.booking_number]);
    expect(row).toEqual({ total_booking_amount_pence: Math.round(Number(vehicle.price) * 100) * 2, vehicle_qty: 2 });
  });

  it('returns the same booking for a repeated Idempotency-Key and stores it once', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const headers = { 'Idempotency-Key': 'attempt-7f3a' };
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => t.call('POST', '/booking', request(vehicle), headers)));
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set([a, b, c].map((r) => r.body.data.booking.booking_number)).size).toBe(1);
    const again = await t.call('POST', '/booking', request(vehicle), headers);
    expect(again.body.data.booking.booking_number).toBe(a.body.data.booking.booking_number);
    const rows = await t.db.query('SELECT 1 FROM bookings WHERE idempotency_key = $1', ['attempt-7f3a']);
    expect(rows).toHaveLength(1);
  });

  it('refuses a repeated Idempotency-Key with a different request, without showing the first booking', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const headers = { 'Idempotency-Key': 'attempt-b41c' };
    const first = await t.call('POST', '/booking', request(vehicle), headers);
    expect(first.status).toBe(200);
    const other = request(vehicle, { registrationData: { ...registrationData, email: 'someone.else@example.com', firstName: 'Eve' } });
    const replay = await t.call('POST', '/booking', other, headers);
    expect([replay.status, replay.body.field]).toEqual([422, 'Idempotency-Key']);
    expect(replay.body.message).toContain('already submitted with different details');
    expect(JSON.stringify(replay.body)).not.toContain('amelia@example.com');
    expect(replay.body.data).toBeUndefined();
    // The same request again is still answered with its booking; the password, if any, is not part of the comparison.
    const same = await t.call('POST', '/booking', request(vehicle), headers);
    expect(same.body.data.booking.booking_number).toBe(first.body.data.booking.booking_number);
    const [key] = await t.db.query<any>('SELECT request_hash FROM idempotency_keys WHERE key = $1', ['attempt-b41c']);
    expect(key.request_hash).toMatch(/^[\w-]{43}$/);
  });

  it('books a new client once for a request sent ten times at once with one key: no 500, one account', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const newClient = request(vehicle, {
      selected_passenger: 'new_client',
      registrationData: { ...registrationData, email: 'twice@example.com', password: 'twice-pass-1', privacyAccepted: true, termsAccepted: true },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/booking', newClient, { 'Idempotency-Key': 'signup-99e1' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.data.booking.booking_number)).size).toBe(1);
    const accounts = await t.db.query("SELECT 1 FROM passengers WHERE lower(email) = 'twice@example.com' AND password_hash IS NOT NULL");
    expect(accounts).toHaveLength(1);
    expect(await t.db.query("SELECT 1 FROM bookings WHERE idempotency_key = 'signup-99e1'")).toHaveLength(1);
  });

  it('answers concurrent sign-ups with one e-mail with one booking and 422s, never a 500', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const signUp = (i: number) => request(vehicle, {
      selected_passenger: 'new_client',
      registrationData: { ...registrationData, email: i % 2 ? 'Rush@Example.com' : 'rush@example.com', password: `rush-pass-${i}`, privacyAccepted: true, termsAccepted: true },
    });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => t.call('POST', '/booking', signUp(i), i % 3 ? { 'Idempotency-Key': `rush-${i}` } : {})));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.body.field]).toEqual([422, 'registrationData.email']);
    }
    const bookings = await t.db.query("SELECT 1 FROM bookings b JOIN passengers p ON p.id = b.passenger_id WHERE lower(p.email) = 'rush@example.com'");
    expect(bookings).toHaveLength(1);
  });

  it.each([
    [{ registrationData: { ...registrationData, number: '07700 90012' } }, 'registrationData.number'],
    [{ registrationData: { ...registrationData, firstName: '' } }, 'registrationData.firstName'],
    [{ registrationData: { ...registrationData, email: 'nope' } }, 'registrationData.email'],
    [{ bookingForm: { ...bookingForm, pickup: '' } }, 'bookingForm.pickup'],
    [{ bookingForm: null }, 'bookingForm'],
    [{ selectedVehicle: 7 }, 'selectedVehicle'],
    [{ payment_method: 'cash' }, 'payment_method'],
    [{ selectedVehicleData: { vehicle_id: 999, company_id: 1 } }, 'selectedVehicleData'],
  ])('refuses a bad booking with 422 naming the field (%#)', async (override, field) => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    const { status, body } = await t.call('POST', '/booking', request(vehicle, override));
    expect(status).toBe(422);
    expect(body.field).toBe(field);
    const after = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
    expect(after[0].n).toBe(before[0].n);
  });
});

describe('what the booking call refuses, by field', () => {
  it('takes no payment but the car here, and only a vehicle offered for the trip, of its own company', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const bank = await t.call('POST', '/booking', request(vehicle, { payment_method: 'bank' }));
    expect([bank.status, bank.body.field]).toEqual([422, 'payment_method']);
    for (const notOffered of [{ ...vehicle, vehicle_id: 99_999 }, { ...vehicle, company_id: 99_999 }]) {
      const res = await t.call('POST', '/booking', request(notOffered));
      expect([res.status, res.body.field, res.body.message]).toEqual([422, 'selectedVehicleData', 'selectedVehicleData: this vehicle is not offered for this trip']);
    }
  });

  it('names a field of the trip inside its form, and refuses hourly hire while it is not offered', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const unplaced = await t.call('POST', '/booking', request(vehicle, { bookingForm: { ...bookingForm, pickup: 'Qqqzx Nowhere Lane' } }));
    expect([unplaced.status, unplaced.body.field]).toEqual([422, 'bookingForm.pickup']);
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'disable');
    const hourly = await t.call('POST', '/booking', request(vehicle, {
      bookingType: 'hourly', bookingForm: null,
      hourlyRateForm: { pickup: bookingForm.pickup, pickup_date: '2030-06-01', pickup_duration: '4hour', pickup_hour: '9am', pickup_min: '00' },
    }));
    expect([hourly.status, hourly.body.field, hourly.body.message]).toEqual([422, 'bookingType', 'Hourly hire is not offered at the moment.']);
  });

  it('checks every phone given: the booker\'s, and the passenger\'s only when booking for someone else', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const bad = await t.call('POST', '/booking', request(vehicle, { registrationData: { ...registrationData, number: '12' } }));
    expect([bad.status, bad.body.field]).toEqual([422, 'registrationData.number']);
    const forOther = { ...registrationData, passengerDetails: 'yes', passengerName: 'Tom', passengerPhone: '12' };
    const badOther = await t.call('POST', '/booking', request(vehicle, { registrationData: forOther }));
    expect([badOther.status, badOther.body.field, badOther.body.message])
      .toEqual([422, 'registrationData.passengerPhone', `registrationData.passengerPhone: ${PHONE_MESSAGE}`]);
    const notForOther = await t.call('POST', '/booking', request(vehicle, { registrationData: { ...registrationData, passengerDetails: 'no', passengerPhone: '12' } }));
    expect(notForOther.status).toBe(200);
  });
});

describe('a booking for someone else', () => {
  it('is in the passenger\'s name and phone, confirmed to the booker and to the passenger', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const reg = { ...registrationData, email: 'booker.for.tom@example.com', passengerDetails: 'yes', passengerName: ' Tom ', passengerLastname: 'Baker',
      passengerEmail: 'tom.baker@example.com', passengerPhone: '07700 900456' };
    const res = await t.call('POST', '/booking', request(vehicle, { registrationData: reg }));
    expect(res.body.data.passengerDetails).toMatchObject({ passenger_name: 'Tom Baker', passenger_email: 'tom.baker@example.com', passenger_contact_no: '+447700900456' });
    const to = await t.db.query<{ to_address: string }>(
      "SELECT to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY to_address", [res.body.data.booking.id]);
    expect(to.map((r) => r.to_address)).toEqual(['booker.for.tom@example.com', 'tom.baker@example.com']);
    const notice = await storedMessages(t.db, res.body.data.booking.id, 'new_booking_notice');
    expect(notice[0].body_text).toContain('To be paid in the car');
  });

  it('is the booker\'s own when no passenger name is given, and one confirmation when both addresses are one', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const reg = { ...registrationData, email: 'just.me@example.com', passengerDetails: 'yes', passengerName: '  ', passengerEmail: 'someone@example.com' };
    const res = await t.call('POST', '/booking', request(vehicle, { registrationData: reg }));
    expect(res.body.data.passengerDetails).toMatchObject({ passenger_name: 'Amelia Hart', passenger_email: 'just.me@example.com' });
    const same = { ...registrationData, email: 'Same.Person@example.com', passengerDetails: 'yes', passengerName: 'Sam', passengerEmail: 'Same.Person@example.com ' };
    const one = await t.call('POST', '/booking', request(vehicle, { registrationData: same }));
    const to = await t.db.query("SELECT 1 FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation'", [one.body.data.booking.id]);
    expect(to).toHaveLength(1);
  });

  it('keeps a return trip\'s flight number and its own extras', async () => {
    const vehicle = await priceFor('Saloon', 'Albion Executive Cars');
    const form = { ...bookingForm, select_option: 'return', return_date: '2030-06-08', return_hour: '9am', return_min: '30', return_fight_number: 'BA 118', return_baby_seats: 1 };
    const { body } = await t.call('POST', '/calculate-distance-price', form);
    const priced = body.price_details.find((p: any) => p.vehicle_id === vehicle.vehicle_id && p.company_id === vehicle.company_id);
    const res = await t.call('POST', '/booking', request(priced, { bookingForm: form }));
    expect(res.body.data.booking).toMatchObject({ return_flight_no: 'BA 118', return_date: '2030-06-08', return_time: '09:30' });
    const oneWay = await t.call('POST', '/booking', request(vehicle, { bookingForm: { ...bookingForm, return_fight_number: 'BA 999' } }));
    expect(oneWay.body.data.booking.return_flight_no).toBeNull();
  });
});
