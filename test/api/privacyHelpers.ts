// What the privacy API tests share (issue 43 §4): staff sign-in, a passenger's bookings made through the API as the
// site makes them (guest, pay in the car or by card at the local test gateway, with a flight, notes, a sign, stops or
// a return), their journey moved into the past, and a search of EVERY text and jsonb column of the database for a
// person's e-mail, names and phones (information_schema), so a table added later is searched too.
import { expect } from 'vitest';
import type { Queryable } from '../../src/server/db/index';
import { TEST_SECURITY, type testApp } from './setup';
import { localKeys } from '../../src/server/payments/provider';

export type TestApp = Awaited<ReturnType<typeof testApp>>;

export async function signIn(t: TestApp, email: string, password: string): Promise<{ Cookie: string }> {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

export interface Person { first: string; last: string; email: string; phone: string }

export interface Trip {
  date: string; hour?: string;
  pay?: 'car' | 'card';
  flight?: string; notes?: string; sign?: boolean; stop?: boolean;
  /** A return on this date at 9:30am. */
  returnDate?: string;
  company?: string;
}

export interface Booked { id: number; booking_number: string; manage_key: string; passenger_id: number }

/** A guest booking as the site makes it: from Heathrow T5 (a flight number is taken there) to Trafalgar Square. */
export async function book(t: TestApp, who: Person, trip: Trip): Promise<Booked> {
  const form: Record<string, unknown> = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: trip.date, pickup_hour: trip.hour ?? '7am', pickup_min: '15', passengers: 2, luggages: 1,
    ...(trip.flight ? { pickup_fight_number: trip.flight } : {}),
    ...(trip.sign ? { meet_and_greet: 'yes' } : {}),
    ...(trip.stop ? { stops: [{ street_name: '221B Baker Street, London', number: '', postcode: 'NW1 6XE' }] } : {}),
    ...(trip.returnDate ? { select_option: 'return', return_date: trip.returnDate, return_hour: '9am', return_min: '30' } : {}),
  };
  const prices = await t.call('POST', '/calculate-distance-price', form);
  expect(prices.status, JSON.stringify(prices.body)).toBe(200);
  const vehicle = prices.body.price_details.find((p: any) => p.company_name === (trip.company ?? 'Albion Executive Cars') && p.vehicle_type === 'Saloon');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: who.first, surname: who.last, number: who.phone, email: who.email, additionalInfo: trip.notes ?? '' },
    payment_method: trip.pay ?? 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  let res;
  if ((trip.pay ?? 'car') === 'car') {
    res = await t.call('POST', '/booking', request);
  } else {
    // As the card page pays: the card with the billing name and e-mail (src/web/cardProvider.ts), then the intent.
    const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
      method: 'POST', headers: { Authorization: `Bearer ${localKeys(TEST_SECURITY.secret).publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123',
        'billing_details[name]': `${who.first} ${who.last}`, 'billing_details[email]': who.email,
      }),
    })).json();
    const idem = { 'Idempotency-Key': `privacy-${Date.now()}-${Math.random()}` };
    const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, idem);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
    res = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, idem);
  }
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const b = res.body.data.booking;
  const [{ passenger_id }] = await t.db.query<{ passenger_id: number }>('SELECT passenger_id FROM bookings WHERE id = $1', [b.id]);
  return { id: b.id, booking_number: b.booking_number, manage_key: res.body.data.manage_key, passenger_id };
}

/** Moves a booking's journey (and its return, if any, a week later) to `pickup`, as if it had been booked for then. */
export async function journeyAt(db: Queryable, id: number, pickup: Date, status?: string): Promise<void> {
  await db.query(
    `UPDATE bookings SET pickup_at = $2::timestamptz, original_pickup_at = $2::timestamptz,
            pick_up_date = ($2::timestamptz AT TIME ZONE 'Europe/London')::date,
            return_date = CASE WHEN return_date IS NULL THEN NULL ELSE ($2::timestamptz AT TIME ZONE 'Europe/London')::date + 7 END,
            status = coalesce($3, status), completed_at = CASE WHEN $3 = 'completed' THEN $2::timestamptz ELSE completed_at END
      WHERE id = $1`, [id, pickup.toISOString(), status ?? null]);
}

export interface Hit { table: string; column: string; value: unknown }

/**
 * Every value of every text, varchar, json and jsonb column of every table of the database's schema that contains
 * one of `terms` (case-insensitive): what the database holds about a person, found without knowing its tables.
 */
export async function searchEverywhere(db: Queryable, terms: string[]): Promise<Hit[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
      WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
      ORDER BY c.table_name, c.column_name`);
  expect(columns.length).toBeGreaterThan(100);
  const hits: Hit[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const rows = await db.query<{ v: unknown }>(
      `SELECT "${column}" AS v FROM "${table}"
        WHERE EXISTS (SELECT 1 FROM json_array_elements_text($1::json) AS t(term) WHERE "${column}"::text ILIKE '%' || t.term || '%')`,
      [JSON.stringify(terms)]);
    for (const r of rows) hits.push({ table, column, value: r.v });
  }
  return hits;
}

/** The passenger changes their booking's details from its link (a row of booking_changes, the timeline by e-mail). */
export async function changeDetails(t: TestApp, b: Booked, values: Record<string, string>): Promise<void> {
  const key = { 'X-Manage-Key': b.manage_key };
  const page = await t.call('GET', `/manage/${b.booking_number}`, undefined, key);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  const res = await t.call('POST', `/manage/${b.booking_number}/changes`, { ...page.body.manage.form, ...values }, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
