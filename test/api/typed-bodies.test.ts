// Issue 39 item 6 and decision 50: every body the console and the passenger's booking page send is typed by its schema
// (src/domain/consoleSchemas.ts, manageSchemas.ts) before anything reads it. Each field of each route with a body, sent
// as a number, a list, an object or null where something else is expected, is a 422 naming that field, never a 500
// (a refund amount sent as a number was a 500), and never taken as if it were right.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, recordDriverAndCar, testApp } from './setup';
import { localKeys } from '../../src/server/payments/provider';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { CHANGE_FIELDS } from '../../src/domain/manageChanges';

let t: Awaited<ReturnType<typeof testApp>>;
let admin: Record<string, string>;
let booking: { booking_number: string; manage_key: string };
const [ADMIN] = DEMO_STAFF;

beforeAll(async () => {
  t = await testApp();
  const res = await t.call('POST', '/operator/session', { email: ADMIN.email, password: ADMIN.password });
  admin = { Cookie: res.headers['set-cookie'].split(';')[0] };
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await t.call('POST', '/calculate-distance-price', form);
  const made = await t.call('POST', '/booking', {
    selectedVehicleData: prices.body.price_details[0], selectedVehicle: 1, bookingType: 'milleage', bookingForm: form,
    registrationData: { firstName: 'Ada', surname: 'Typed', number: '07700 900123', email: 'ada.typed@example.com' },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  booking = { booking_number: made.body.data.booking.booking_number, manage_key: made.body.data.manage_key };
  // A driver and car of the booking's company on record, for the assign body (issue 41).
  Object.assign(crew, await recordDriverAndCar(t.db, made.body.data.booking.company_name));
});
afterAll(async () => { await t.db.close(); });

/** A guest booking paid by card through the local test gateway, as the card page pays. */
async function bookByCard() {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: '2030-09-13', pickup_hour: '9am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const vehicle = (await t.call('POST', '/calculate-distance-price', form)).body.price_details[0];
  const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${localKeys(TEST_SECURITY.secret).publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
  const key = `typed-${Date.now()}-${Math.random()}`;
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Ada', surname: 'Card', number: '+44 7700 900012', email: 'ada.card@example.com', additionalInfo: '' },
    payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, { 'Idempotency-Key': key });
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, { 'Idempotency-Key': key });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.data.booking as { booking_number: string; total_booking_amount: string };
}

/** A value of each wrong JSON type; a field that takes text, a number or a flag each refuses the others. */
const NUMBER = 12.5, LIST = ['x'], OBJECT = { x: 'y' }, NULL = null;
const NOT_TEXT = [NUMBER, LIST, OBJECT, NULL];
const NOT_A_NUMBER = [LIST, OBJECT, NULL, true];
const NOT_A_FLAG = ['yes', 1, LIST, OBJECT, NULL];
/** Yes or no, as a checkbox (true, false) or a radio ('yes', 'no') sends it. */
const NOT_YES_NO = [1, LIST, OBJECT, NULL];
/** The driver and car the assign body names: of the booking's company, put on record before the tests. */
const crew: Record<string, unknown> = { driver_id: '0', car_id: '0' };

interface Case { route: string; path: () => string; headers?: () => Record<string, string>; body: Record<string, unknown>; wrap?: (b: Record<string, unknown>) => unknown; fields: [string, unknown[]][] }

const text = (...names: string[]): [string, unknown[]][] => names.map((n) => [n, NOT_TEXT]);
const numbers = (...names: string[]): [string, unknown[]][] => names.map((n) => [n, NOT_A_NUMBER]);
const ref = () => booking.booking_number;
const manageKey = () => ({ 'X-Manage-Key': booking.manage_key });
const data = (change: Record<string, unknown>, fields: [string, unknown[]][]): Case =>
  ({ route: `POST /operator/data (${String(change.kind)})`, path: () => '/operator/data', headers: () => admin, body: change, wrap: (c) => ({ change: c }), fields });

const CASES: Case[] = [
  { route: 'POST /operator/session', path: () => '/operator/session', body: { email: ADMIN.email, password: 'x' }, fields: text('email', 'password') },
  {
    route: 'POST /operator/bookings/{reference}/driver', path: () => `/operator/bookings/${ref()}/driver`, headers: () => admin,
    body: crew, fields: numbers('driver_id', 'car_id'),
  },
  {
    route: 'POST /operator/bookings/{reference}/cancel', path: () => `/operator/bookings/${ref()}/cancel`, headers: () => admin,
    body: { reason: 'Duplicate', refund: 'yes', refund_amount: '10.00' }, fields: text('reason', 'refund', 'refund_amount'),
  },
  data({ kind: 'setting', name: 'GRACE_TIME', value: '120' }, text('kind', 'name', 'value')),
  data({ kind: 'company', company_name: 'Typed Cars', contact_phone: '020 7946 0000', contact_email: 'a@typed.example', address: 'London' },
    text('company_name', 'contact_phone', 'contact_email', 'address')),
  data({ kind: 'companyActive', company_name: 'Metro Cars London', active: true }, [...text('company_name'), ['active', NOT_A_FLAG]]),
  data({ kind: 'vehicle', category_name: 'Estate', seats: '4', luggage: '4', hand_luggage: '3', sort_order: '2' },
    [...text('category_name'), ...numbers('seats', 'luggage', 'hand_luggage', 'sort_order')]),
  data({ kind: 'rate', company_id: 1, vehicle_type_id: 1, base: '4.00', minimum: '22.00', hourly: '35.00', bands: [{ from_miles: '0', per_mile: '2.60' }] },
    [...numbers('company_id', 'vehicle_type_id', 'base', 'minimum', 'hourly'), ['bands', [NUMBER, OBJECT, NULL, 'x']], ['bands.0', [NUMBER, NULL, 'x']],
      ...numbers('bands.0.from_miles', 'bands.0.per_mile')]),
  data({ kind: 'address', address: 'Typed Place, London', postcode: 'WC2N 5DN', lat: '51.5', lon: '-0.12', place_kind: 'place' },
    [...text('address', 'postcode', 'place_kind'), ...numbers('lat', 'lon')]),
  data({ kind: 'ban', pattern: 'Typed Street', reason: 'Closed' }, text('pattern', 'reason')),
  data({ kind: 'unban', pattern: 'Typed Street' }, text('pattern')),
  data({ kind: 'addStaff', email: 'typed@albion-executive.co.uk', name: 'Typed', role: 'dispatcher', company: 'Metro Cars London' }, text('email', 'name', 'role', 'company')),
  data({ kind: 'removeStaff', email: 'typed@albion-executive.co.uk' }, text('email')),
  data({
    kind: 'driver', name: 'Typed Driver', mobile: '07700 900555', email: '', licence_number: 'TD1', licensing_authority: 'Transport for London',
    licence_expiry: '2035-01-31', company_id: 1, active: 'yes',
  }, [...text('name', 'mobile', 'email', 'licence_number', 'licensing_authority', 'licence_expiry'), ...numbers('id', 'company_id'), ['active', NOT_YES_NO]]),
  data({
    kind: 'car', registration: 'TY35 PED', make: 'Skoda', model: 'Superb', colour: 'Grey', vehicle_type_id: 1, passengers: 4, suitcases: '3', wheelchair: false,
    licence_number: 'PHV 1', licence_expiry: '2035-01-31', mot_expiry: '2035-01-31', insurance_expiry: '2035-01-31', company_id: 1, active: true,
  }, [...text('registration', 'make', 'model', 'colour', 'licence_number', 'licence_expiry', 'mot_expiry', 'insurance_expiry'),
    ...numbers('id', 'vehicle_type_id', 'passengers', 'suitcases', 'company_id'), ['wheelchair', NOT_YES_NO], ['active', NOT_YES_NO]]),
  {
    route: 'POST /manage/{reference}/changes', path: () => `/manage/${ref()}/changes`, headers: manageKey,
    body: { passenger_name: 'Ada Typed', accept_total: '50.00' }, fields: text(...CHANGE_FIELDS, 'accept_total'),
  },
  {
    route: 'POST /manage/{reference}/changes/{id}/payment-intent', path: () => `/manage/${ref()}/changes/1/payment-intent`, headers: manageKey,
    body: { paymentMethodId: 'pm_x' }, fields: text('paymentMethodId'),
  },
  {
    route: 'POST /manage/{reference}/changes/{id}/complete', path: () => `/manage/${ref()}/changes/1/complete`, headers: manageKey,
    body: { paymentIntentId: 'pi_x' }, fields: text('paymentIntentId'),
  },
  { route: 'POST /manage/find', path: () => '/manage/find', body: { reference: 'BK-1', email: 'a@b.example' }, fields: text('reference', 'email') },
];

/** Sets a field by its path (bands.0.per_mile) in a copy of the body. */
function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const path = field.split('.');
  let node = copy as Record<string, unknown>;
  for (const part of path.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

describe('every console and manage body, typed before anything reads it', () => {
  for (const c of CASES) {
    it(`${c.route}: each field of the wrong type is a 422 naming it`, async () => {
      for (const [field, values] of c.fields) {
        for (const value of values) {
          const body = withField(c.body, field, value);
          const res = await t.call('POST', c.path(), c.wrap ? c.wrap(body) : body, c.headers?.() ?? {});
          expect({ field, value, status: res.status, named: res.body.field }, JSON.stringify(res.body)).toEqual({ field, value, status: 422, named: field });
          expect(res.body.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}`));
        }
      }
    });
  }

  it('names the change itself when it is not an object, and names kind when it is of no kind', async () => {
    for (const change of [NUMBER, 'setting', NULL]) {
      const res = await t.call('POST', '/operator/data', { change }, admin);
      expect([res.status, res.body.field]).toEqual([422, 'change']);
    }
    for (const kind of ['toString', '__proto__', 'owner', undefined]) {
      const res = await t.call('POST', '/operator/data', { change: { kind, name: 'GRACE_TIME' } }, admin);
      expect([res.status, res.body.field], String(kind)).toEqual([422, 'kind']);
    }
  });

  it('answers a refund amount sent as a number for a paid card booking with 422 naming it (it was a 500), and refunds nothing', async () => {
    const paid = await bookByCard();
    for (const refund_amount of [25, [25], { pounds: 25 }]) {
      const res = await t.call('POST', `/operator/bookings/${paid.booking_number}/cancel`, { reason: 'Duplicate', refund: 'yes', refund_amount }, admin);
      expect([res.status, res.body.field]).toEqual([422, 'refund_amount']);
    }
    const page = await t.call('GET', `/operator/bookings/${paid.booking_number}`, undefined, admin);
    expect(page.body.desk).toMatchObject({ status: 'confirmed', refund: null, payment: { status: 'paid', refundable: paid.total_booking_amount } });
  });

  it('changes nothing when it refuses a body: the booking is still confirmed, without a driver', async () => {
    const page = await t.call('GET', `/operator/bookings/${ref()}`, undefined, admin);
    expect(page.body.desk).toMatchObject({ status: 'confirmed', driver: null, cancel_reason: null });
  });

  it('still takes the bodies as the console and the page send them', async () => {
    expect((await t.call('POST', `/operator/bookings/${ref()}/driver`, CASES[1].body, admin)).status).toBe(200);
    expect((await t.call('POST', '/operator/data', { change: { kind: 'vehicle', category_name: 'Estate', seats: 4, luggage: '4', hand_luggage: 3 } }, admin)).body.done).toBe('Estate saved.');
    // A field left out of a change keeps its value; an amount left out of a cancellation refunds all.
    const changed = await t.call('POST', `/manage/${ref()}/changes`, { passenger_name: 'Ada Lovelace' }, manageKey());
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.manage.form.passenger_name).toBe('Ada Lovelace');
    expect((await t.call('POST', `/operator/bookings/${ref()}/cancel`, { reason: 'Duplicate' }, admin)).body).toEqual({ status: 'cancelled', refund: null });
  });
});
