import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';

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
