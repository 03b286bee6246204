// What the driver's API tests share (driver.test.ts, tracking.test.ts): a booking to dispatch, a driver on record
// signed in with the code texted to them, and their steps.
import { expect } from 'vitest';
import { recordDriverAndCar, type testApp } from './setup';

type TestApp = Awaited<ReturnType<typeof testApp>>;

let n = 0;
/** A guest booking paid in the car with Albion, for 2 passengers, from Heathrow T5; its manage key too. */
export async function bookForDriver(t: TestApp, date: string) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: date, pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: prices.body.price_details.find((p: any) => p.company_name === 'Albion Executive Cars' && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Grace', surname: `Hopper${++n}`, number: '07700 900456', email: `grace.${process.pid}.${n}@example.com`, additionalInfo: 'Two large cases' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...(res.body.data.booking as { id: number; booking_number: string }), key: res.body.data.manage_key as string };
}

/** The newest code texted to a mobile, read from the queue before it is sent. */
export async function codeFor(t: TestApp, mobile: string): Promise<string> {
  const [row] = await t.db.query<{ body_text: string }>(
    "SELECT body_text FROM outbound_emails WHERE channel = 'sms' AND kind = 'driver_sign_in_code' AND to_address = $1 ORDER BY id DESC LIMIT 1", [mobile]);
  return /^(\d{6}) is your/.exec(row.body_text)![1];
}

/** A driver on record with a session: their ids, e164 mobile, and the cookie to send. */
export async function signedInDriver(t: TestApp, name: string, company = 'Albion Executive Cars') {
  const crew = await recordDriverAndCar(t.db, company, { name });
  const [{ mobile }] = await t.db.query<{ mobile: string }>('SELECT mobile FROM drivers WHERE id = $1', [crew.driver_id]);
  expect((await t.call('POST', '/driver/code', { mobile })).status).toBe(200);
  const res = await t.call('POST', '/driver/session', { mobile, code: await codeFor(t, mobile) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...crew, mobile, cookie: { Cookie: res.headers['set-cookie'].split(';')[0] } };
}

export const stepAs = (t: TestApp, ref: string, status: string, who: { cookie: Record<string, string> }) =>
  t.call('POST', `/driver/jobs/${ref}/status`, { status }, who.cookie);
