// Issue 44, the console's booking page of a journey on account: GET /operator/bookings/:reference names the account
// it is billed to (its id and name), and offers the office "Change charge" (adjustCharge) once the journey is completed
// or a no-show, never before, never to a company's staff, and never on a booking paid otherwise. Changing the charge
// of a journey not yet invoiced says it goes on the next invoice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { hashPassword } from '../../src/server/auth/passwords';

let t: Awaited<ReturnType<typeof testApp>>;
let admin: Record<string, string>;
let metro: Record<string, string>;
const [ADMIN, METRO] = DEMO_STAFF;
/** Unique across test files sharing one database (test:pg). */
const RUN = Math.random().toString(36).slice(2, 8);

async function staffSession(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

beforeAll(async () => {
  t = await testApp();
  admin = await staffSession(ADMIN.email, ADMIN.password);
  metro = await staffSession(METRO.email, METRO.password);
});
afterAll(async () => { await t.db.close(); });

const FORM = {
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 3, Hounslow TW6 1QG',
  pickup_date: '2030-05-02', pickup_hour: '6am', pickup_min: '30', passengers: 1, luggages: 1,
};

/** An account with one booker (a passenger with a sign-in), as the console adds them: the booker's token and e-mail. */
async function bookerOfNewAccount() {
  const saved = await t.call('POST', '/operator/accounts', {
    name: `Desk Partners ${RUN}`, address: '', billing_email: `billing.${RUN}@desk.example`, vat_number: '', terms_days: '30', credit_limit: '5000', status: 'active',
  }, admin);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const email = `dora.desk.${RUN}@example.co.uk`;
  await t.db.query('INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4)',
    ['Dora Desk', email, '+447700900556', await hashPassword('Booker-Pass-1', 10)]);
  expect((await t.call('POST', `/operator/accounts/${saved.body.id}/bookers`, { email }, admin)).status).toBe(200);
  const login = await t.call('POST', '/check-passenger-login', { email, password: 'Booker-Pass-1' });
  return { id: saved.body.id as number, name: `Desk Partners ${RUN}`, email, auth: { Authorization: `Bearer ${login.body.access_token}` } };
}

/** A booking with Metro Cars London, paid on account by the booker, or in the car by a guest. */
async function book(how: { account: Awaited<ReturnType<typeof bookerOfNewAccount>> } | 'car') {
  const { body } = await t.call('POST', '/calculate-distance-price', FORM);
  const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
  const onAccount = how !== 'car';
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: FORM, hourlyRateForm: null,
    registrationData: onAccount ? { firstName: '', surname: '', email: how.account.email, number: '', additionalInfo: '' }
      : { firstName: 'Gus', surname: 'Guest', email: `gus.${RUN}@example.com`, number: '07700 900123', additionalInfo: '' },
    payment_method: onAccount ? 'account' : 'car', selected_passenger: onAccount ? 'existing_client' : 'guest_login', account_fields: onAccount ? {} : undefined,
  }, onAccount ? { ...how.account.auth, 'Idempotency-Key': `desk-${RUN}-${Math.random()}` } : {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking.booking_number as string;
}

const desk = async (reference: string, who: Record<string, string>) => {
  const res = await t.call('GET', `/operator/bookings/${reference}`, undefined, who);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.desk as { account: { id: number; name: string } | null; actions: string[] };
};

describe("the console's page of a journey on account", () => {
  let account: Awaited<ReturnType<typeof bookerOfNewAccount>>;
  let onAccount: string;
  let inCar: string;
  beforeAll(async () => {
    account = await bookerOfNewAccount();
    t.clock.now = new Date('2030-04-20T09:00:00Z');
    onAccount = await book({ account });
    inCar = await book('car');
  });

  it('names the account it is billed to, for every member of staff who sees it; a booking paid otherwise names none', async () => {
    expect((await desk(onAccount, admin)).account).toEqual({ id: account.id, name: account.name });
    expect((await desk(onAccount, metro)).account).toEqual({ id: account.id, name: account.name });
    expect((await desk(inCar, admin)).account).toBeNull();
  });

  it("offers the office Change charge once the journey is completed or a no-show, never before, nor to a company's staff", async () => {
    expect((await desk(onAccount, admin)).actions).not.toContain('adjustCharge');
    t.clock.now = new Date('2030-05-02T09:00:00Z');
    expect((await t.call('POST', `/operator/bookings/${onAccount}/complete`, {}, admin)).status).toBe(200);
    expect((await t.call('POST', `/operator/bookings/${inCar}/no-show`, {}, admin)).status).toBe(200);
    expect((await desk(onAccount, admin)).actions).toEqual(['adjustCharge']);
    expect((await desk(onAccount, metro)).actions).toEqual([]);
    // Paid in the car: nothing of the account's to change.
    expect((await desk(inCar, admin)).actions).toEqual([]);
  });

  it('changes the charge of a journey not yet invoiced: no note, it goes on the next invoice', async () => {
    const changed = await t.call('POST', `/operator/bookings/${onAccount}/charge`, { amount: '12.50', reason: 'Waiting time agreed with the client' }, admin);
    expect([changed.status, changed.body]).toEqual([200, { done: "Charge changed: it goes on the account's next invoice.", note: null }]);
    const [row] = await t.db.query<{ total: number }>('SELECT total_booking_amount_pence AS total FROM bookings WHERE booking_number = $1', [onAccount]);
    expect(row.total).toBe(1250);
  });
});
