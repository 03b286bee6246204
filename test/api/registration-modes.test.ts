// POST /check-passenger-email and POST /booking for guests, new clients and existing clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const bookingForm = {
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 3, Hounslow TW6 1QG',
  pickup_date: '2030-03-14', pickup_hour: '6am', pickup_min: '30', passengers: 1, luggages: 2,
};
const person = { firstName: 'Oliver', surname: 'Bennett', number: '+44 791 123 456', email: 'oliver.bennett@example.co.uk' };

async function saloon() {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  return body.price_details.find((p: any) => p.vehicle_type === 'Saloon');
}

const book = async (mode: string, registrationData: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  t.call('POST', '/booking', {
    selectedVehicleData: await saloon(), selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null,
    registrationData, payment_method: 'car', selected_passenger: mode, ...extra,
  });

describe('new and existing clients', () => {
  it('does not know an e-mail before its account exists', async () => {
    const res = await t.call('POST', '/check-passenger-email', { email: person.email, password: 'secret-1' });
    expect(res.body).toEqual({
      success: false, found: false,
      message: 'Email not found in the system, Enter new email inside new client or try with another email',
    });
  });

  it('creates the account of a new client, with the password hashed by scrypt', async () => {
    const res = await book('new_client', { ...person, password: 'secret-1', privacyAccepted: true, termsAccepted: true });
    expect(res.status).toBe(200);
    const [row] = await t.db.query<any>('SELECT id, password_hash FROM passengers WHERE email = $1 AND password_hash IS NOT NULL', [person.email]);
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${2 ** TEST_SECURITY.passwordHashCost}\\$8\\$1\\$`));
    expect(row.password_hash).not.toContain('secret-1');
    expect(res.body.data.passengerDetails.passenger_id).toBe(row.id);
  });

  it('refuses a new client whose privacy or terms are not accepted, or whose password is short', async () => {
    const noTerms = await book('new_client', { ...person, email: 'x@example.com', password: 'secret-1', privacyAccepted: true });
    expect([noTerms.status, noTerms.body.field]).toEqual([422, 'registrationData.termsAccepted']);
    const short = await book('new_client', { ...person, email: 'x@example.com', password: 'abc', privacyAccepted: true, termsAccepted: true });
    expect(short.body.message).toContain('Password must be at least 6 characters long');
  });

  it('refuses a second account for the same e-mail, whatever its case', async () => {
    const res = await book('new_client', { ...person, email: person.email.toUpperCase(), password: 'another-1', privacyAccepted: true, termsAccepted: true });
    expect([res.status, res.body.field]).toEqual([422, 'registrationData.email']);
  });

  it('checks the e-mail and password of an existing client (SPEC 8 messages)', async () => {
    expect((await t.call('POST', '/check-passenger-email', { email: person.email, password: 'secret-1' })).body)
      .toEqual({ success: true, found: true, message: 'Email found. Proceeding to payment.' });
    expect((await t.call('POST', '/check-passenger-email', { email: person.email, password: 'wrong-pass' })).body)
      .toMatchObject({ success: false, found: true });
    expect((await t.call('POST', '/check-passenger-email', { email: 'not-an-email', password: 'x' })).status).toBe(422);
  });

  it('books an existing client with the right password, on their account', async () => {
    const res = await book('existing_client', { email: person.email, password: 'secret-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.passengerDetails).toMatchObject({
      passenger_name: 'Oliver Bennett', passenger_email: person.email, passenger_contact_no: '+44791123456', // stored as E.164 (decision 20)
    });
    const wrong = await book('existing_client', { email: person.email, password: 'secret-2' });
    expect([wrong.status, wrong.body.field]).toEqual([422, 'registrationData.password']);
  });

  it('books a guest without creating an account', async () => {
    const res = await book('guest_login', { ...person, email: 'guest@example.com' });
    expect(res.status).toBe(200);
    const accounts = await t.db.query('SELECT 1 FROM passengers WHERE email = $1 AND password_hash IS NOT NULL', ['guest@example.com']);
    expect(accounts).toHaveLength(0);
  });

  it('records someone else travelling when passenger details are given', async () => {
    const res = await book('guest_login', {
      ...person, passengerDetails: 'yes', passengerName: 'Ada', passengerLastname: 'Lovelace',
      passengerEmail: 'ada@example.com', passengerPhone: '+44 700 000 001',
    });
    expect(res.body.data.passengerDetails).toMatchObject({
      passenger_name: 'Ada Lovelace', passenger_email: 'ada@example.com', passenger_contact_no: '+44700000001',
    });
  });
});

describe('hourly bookings', () => {
  it('stores ride type H with the duration and no drop-off', async () => {
    await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
    const hourlyRateForm = { pickup: 'Canary Wharf, One Canada Square, London E14 5AB', pickup_date: '2030-03-14', pickup_duration: '5hour', pickup_hour: '10am', pickup_min: '15' };
    const { body: prices } = await t.call('POST', '/calculate-hourly-price', hourlyRateForm);
    const vehicle = prices.price_details[0];
    const res = await t.call('POST', '/booking', {
      selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'hourly', bookingForm: null, hourlyRateForm,
      registrationData: person, payment_method: 'car', selected_passenger: 'guest_login',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.booking).toMatchObject({
      ride_type: 'H', hourly_duration: '5hour', drop_off_address: null, pick_up_time: '10:15', total_booking_amount: vehicle.price,
    });
  });
});

describe('settings the server enforces, not only the page', () => {
  it('refuses a guest booking while GUEST_LOGIN is disabled, naming selected_passenger', async () => {
    await setSetting(t.db, 'GUEST_LOGIN', 'disable');
    try {
      const res = await book('guest_login', { ...person, email: 'guest.refused@example.com' });
      expect([res.status, res.body.field, res.body.message]).toEqual([422, 'selected_passenger', expect.stringContaining('Booking as a guest is not offered')]);
    } finally {
      await setSetting(t.db, 'GUEST_LOGIN', 'enable');
    }
    expect((await book('guest_login', { ...person, email: 'guest.allowed@example.com' })).status).toBe(200);
  });

  it('refuses Pay In Car unless SHOWPAYINCAR is yes, naming payment_method', async () => {
    await setSetting(t.db, 'SHOWPAYINCAR', 'no');
    try {
      const res = await book('guest_login', { ...person, email: 'car.refused@example.com' });
      expect([res.status, res.body.field]).toEqual([422, 'payment_method']);
    } finally {
      await setSetting(t.db, 'SHOWPAYINCAR', 'yes');
    }
  });
});

describe('password guessing', () => {
  it('is refused after ten wrong passwords for one e-mail within 15 minutes, even with the right one', async () => {
    const email = 'guarded@example.com';
    await book('new_client', { ...person, email, password: 'right-pass-1', privacyAccepted: true, termsAccepted: true });
    for (let i = 0; i < 10; i++) {
      expect((await t.call('POST', '/check-passenger-email', { email, password: `guess-${i}` })).body.success).toBe(false);
    }
    const blocked = await t.call('POST', '/check-passenger-email', { email, password: 'right-pass-1' });
    expect([blocked.status, blocked.body.message]).toEqual([429, expect.stringContaining('Too many wrong passwords')]);
    const booking = await book('existing_client', { email, password: 'right-pass-1' });
    expect(booking.status).toBe(429);
    await t.db.query("UPDATE auth_throttle SET window_started = now() - interval '16 minutes'");
    expect((await t.call('POST', '/check-passenger-email', { email, password: 'right-pass-1' })).body.success).toBe(true);
  });
});
