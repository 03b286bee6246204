// Issue 43 §2, through the API: the Records page's calls. Every booking picked up in a range of UK days with what the
// licensing rules ask of it (booked when, how and by whom; passenger and how many; pickup time and place; main
// destination; fare quoted and its changes; driver and licence; vehicle and registration; dispatched by and when; the
// company that carried it out; every variation), as JSON and CSV; a company's staff read their own company's only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, recordDriverAndCar, testApp } from './setup';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { ukToday } from '../../src/domain/ukTime';
import { recordColumns, type BookingRecord } from '../../src/domain/bookingRecords';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const [ADMIN, METRO] = DEMO_STAFF;
// A day no other test file books (the API suite shares one database on PostgreSQL).
const DAY = '2031-02-18';

async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

const form = (hour: string) => ({
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: DAY, pickup_hour: hour, pickup_min: '15', passengers: 3, luggages: 1,
});

async function book(company: string, hour: string, who: { first: string; last: string; email: string }) {
  const f = form(hour);
  const { body: prices } = await t.call('POST', '/calculate-distance-price', f);
  const vehicle = prices.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: f,
    registrationData: { firstName: who.first, surname: who.last, number: '07700 900123', email: who.email },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking as { id: number; booking_number: string; total_booking_amount: string };
}

describe('the booking records', () => {
  let admin: Record<string, string>;
  let metro: Record<string, string>;
  let metroBooking: { booking_number: string; total_booking_amount: string };
  let albionBooking: { booking_number: string };
  let assigned: Awaited<ReturnType<typeof recordDriverAndCar>>;
  beforeAll(async () => {
    admin = await signIn(ADMIN.email, ADMIN.password);
    metro = await signIn(METRO.email, METRO.password);
    metroBooking = await book('Metro Cars London', '9am', { first: 'Oliver', last: 'Bennett', email: 'oliver.records@example.com' });
    albionBooking = await book('Albion Executive Cars', '7am', { first: 'Grace', last: 'Adeyemi', email: 'grace.records@example.com' });
    assigned = await recordDriverAndCar(t.db, 'Metro Cars London', { name: 'Dan Records' });
    const res = await t.call('POST', `/operator/bookings/${metroBooking.booking_number}/driver`, { driver_id: assigned.driver_id, car_id: assigned.car_id }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('needs a member of staff', async () => {
    expect((await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`)).status).toBe(401);
    expect((await t.call('GET', `/operator/records.csv?from=${DAY}&to=${DAY}`)).status).toBe(401);
  });

  it('refuses a range it cannot show, naming the field', async () => {
    const cases: [string, number, string, string][] = [
      [`from=2031-02-30&to=${DAY}`, 422, 'from', 'Choose the first day.'],
      [`from=${DAY}&to=2031-02-17`, 422, 'to', 'The last day is before the first.'],
      [`from=2031-01-01&to=2031-04-30`, 422, 'to', 'Choose at most 92 days at a time.'],
    ];
    for (const [query, status, field, message] of cases) {
      const res = await t.call('GET', `/operator/records?${query}`, undefined, admin);
      expect([res.status, res.body.field, res.body.message], query).toEqual([status, field, message]);
      expect((await t.call('GET', `/operator/records.csv?${query}`, undefined, admin)).status).toBe(status);
    }
  });

  it("answers today's records when no day is asked for", async () => {
    const res = await t.call('GET', '/operator/records', undefined, admin);
    expect(res.status).toBe(200);
    const today = ukToday();
    expect(res.body.range).toEqual({ from: today, to: today });
  });

  it('keeps every field the record asks for, heads it with the operator and its licence, in pickup order', async () => {
    const res = await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`, undefined, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.operator).toEqual({
      name: 'Albion Executive Cars', address: '27 Old Gloucester Street, London WC1N 3AX', licence_number: '0041287', licensing_authority: 'Transport for London',
    });
    expect(res.body.company).toBeNull();
    const records = res.body.records as BookingRecord[];
    expect(records.map((r) => r.reference)).toEqual([albionBooking.booking_number, metroBooking.booking_number]);
    const r = records[1];
    const [{ dispatched_at }] = await t.db.query<{ dispatched_at: string }>(
      "SELECT to_char(dispatched_at AT TIME ZONE 'Europe/London', 'DD/MM/YYYY HH24:MI') AS dispatched_at FROM bookings WHERE booking_number = $1", [metroBooking.booking_number]);
    expect(r).toEqual({
      reference: metroBooking.booking_number, status: 'Confirmed',
      booked_at: expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/), booked_via: 'web', booked_by: 'The passenger, online',
      passenger: 'Oliver Bennett', passengers: 3,
      pickup_date: '18/02/2031', pickup_time: '09:15', pickup_place: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA',
      destination: 'Trafalgar Square, London WC2N 5DN', return_journey: null,
      fare_quoted: `£${metroBooking.total_booking_amount}`, fare_charged: `£${metroBooking.total_booking_amount}`, fare_changes: [],
      vehicle_type: 'Saloon',
      driver: 'Dan Records', driver_licence: expect.stringMatching(/^T\d{6}[A-Z]{2} \(Transport for London\)$/),
      vehicle: 'Black Mercedes-Benz E-Class', registration: assigned.registration,
      dispatched_by: `${ADMIN.name} (${ADMIN.email})`, dispatched_at,
      company: 'Metro Cars London',
      variations: [expect.stringMatching(new RegExp(`^\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d Driver assigned: Dan Records \\(licence T\\d{6}[A-Z]{2}\\), Black Mercedes-Benz E-Class ${assigned.registration}, by ${ADMIN.name} \\(${ADMIN.email}\\)$`))],
    });
    expect(records[0]).toMatchObject({ passenger: 'Grace Adeyemi', driver: null, driver_licence: null, registration: null, dispatched_by: null, dispatched_at: null, variations: [] });
  });

  it("shows the same record on the booking's page in the console, for any status", async () => {
    const res = await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`, undefined, admin);
    const page = await t.call('GET', `/operator/bookings/${metroBooking.booking_number}`, undefined, admin);
    expect(page.body.record).toEqual((res.body.records as BookingRecord[]).find((r) => r.reference === metroBooking.booking_number));
    expect((await t.call('GET', `/operator/bookings/${albionBooking.booking_number}`, undefined, metro)).status).toBe(404);
  });

  it("gives a company's staff their own company's records only", async () => {
    const res = await t.call('GET', `/operator/records?from=${DAY}&to=${DAY}`, undefined, metro);
    expect(res.status).toBe(200);
    expect(res.body.company).toBe('Metro Cars London');
    expect(res.body.records.map((r: BookingRecord) => r.reference)).toEqual([metroBooking.booking_number]);
    const csv = await t.app.request(`/api/v1/operator/records.csv?from=${DAY}&to=${DAY}`, { headers: { ...KEYS, ...metro } });
    const text = await csv.text();
    expect(text).toContain(metroBooking.booking_number);
    expect(text).not.toContain(albionBooking.booking_number);
  });

  it('downloads the same records as a CSV file, one booking a row, with a column for each field', async () => {
    const res = await t.app.request(`/api/v1/operator/records.csv?from=${DAY}&to=${DAY}`, { headers: { ...KEYS, ...admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="booking-records-${DAY}-to-${DAY}.csv"`);
    const lines = (await res.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe(recordColumns().map(([name]) => name).join(','));
    expect(lines).toHaveLength(3);
    const row = lines[2];
    for (const part of [metroBooking.booking_number, 'Website', 'The passenger, online', 'Oliver Bennett', '18/02/2031', '09:15', 'Dan Records', assigned.registration, 'Metro Cars London', 'Driver assigned']) {
      expect(row).toContain(part);
    }
  });
});
