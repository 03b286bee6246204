// Issue 43 §4 (decision 60): a passenger's requests about their personal data, through the API. The export holds
// EVERYTHING the database holds about the address: checked by searching every text and jsonb column of every table
// for the e-mail, the names and the phones, each hit required in the export (so a table added later fails this test
// until its step is written in src/server/privacy/tables.ts). The erase leaves no trace of them but what the law
// keeps (the same search); it is refused while a booking is still to come; only administrators may; each is audited.
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDriverAndCar, testApp } from './setup';
import { book, changeDetails, journeyAt, searchEverywhere, signIn, type Booked, type Hit, type TestApp } from './privacyHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { addStaff } from '../../src/server/operator/staff';
import { setSetting } from '../../src/server/operator/operator';
import { invoiceForDownload } from '../../src/server/manage/invoices';
import { loadSettings } from '../../src/server/deps';
import { KEPT_ON_ERASE } from '../../src/domain/retention';
import { TEST_SECURITY } from './setup';

let t: TestApp;
let admin: { Cookie: string }, dispatcher: { Cookie: string }, company: { Cookie: string };

const ROSA = { first: 'Rosamund', last: 'Quillfeather', email: `Rosamund.Quillfeather.${process.pid}@example.com`, phone: '07700 900871' };
/** What is searched for: the e-mail (any case), each name, the phone as typed, as stored and as its digits. */
const TERMS = [ROSA.email.toLowerCase(), ROSA.first, ROSA.last, '07700 900871', '+447700900871', '7700900871', 'QUILLFEATHER PARTY'];
const BEN = { first: 'Benedikt', last: 'Ormsworth', email: `benedikt.ormsworth.${process.pid}@example.com`, phone: '07700 900872' };
let card: Booked, car: Booked, upcoming: Booked;

beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
  admin = await signIn(t, DEMO_STAFF[0].email, DEMO_STAFF[0].password);
  company = await signIn(t, DEMO_STAFF[1].email, DEMO_STAFF[1].password);
  await addStaff(t.db, { email: `night.${process.pid}@albion-executive.co.uk`, name: 'Night Desk', role: 'dispatcher', password: 'Night-Desk-2026' }, TEST_SECURITY.passwordHashCost);
  dispatcher = await signIn(t, `night.${process.pid}@albion-executive.co.uk`, 'Night-Desk-2026');

  // Rosamund: a card booking with a flight, notes, a stop and a sign she changed herself; a booking paid in the car
  // the office gave a driver (texts to her and to the driver name her); both travelled; a VAT invoice; a contact
  // message, a quote request and a wrong password.
  card = await book(t, ROSA, { date: '2030-09-12', pay: 'card', flight: 'BA 286', notes: 'Rosamund travels with a cello', sign: true, stop: true });
  await changeDetails(t, card, { sign_text: 'QUILLFEATHER PARTY' });
  car = await book(t, ROSA, { date: '2030-09-14' });
  const fleet = await recordDriverAndCar(t.db, 'Albion Executive Cars');
  const assigned = await t.call('POST', `/operator/bookings/${car.booking_number}/driver`, { driver_id: fleet.driver_id, car_id: fleet.car_id }, admin);
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  await journeyAt(t.db, card.id, new Date('2026-01-10T09:00:00Z'), 'completed');
  await journeyAt(t.db, car.id, new Date('2026-02-10T09:00:00Z'), 'completed');
  await t.db.transaction(async (tx) => invoiceForDownload(tx, card.id, await loadSettings(t.db)));
  expect((await t.call('POST', '/contact-us', {
    firstName: ROSA.first, lastName: ROSA.last, email: ROSA.email, telephone: ROSA.phone, queryReason: 'Booking', bookingNumber: card.booking_number,
    comments: 'Please send me the invoice again.',
  })).status).toBe(200);
  // Issue 43 §3: a complaint about her card booking and a lost item about no booking, both opened by her Contact Us
  // messages; the lost item closed by the office with its outcome.
  expect((await t.call('POST', '/contact-us', {
    firstName: ROSA.first, lastName: ROSA.last, email: ROSA.email, telephone: ROSA.phone, queryReason: 'Complaint', bookingNumber: card.booking_number,
    comments: 'Rosamund here: the driver was late and rude.',
  })).status).toBe(200);
  expect((await t.call('POST', '/contact-us', {
    firstName: ROSA.first, lastName: ROSA.last, email: ROSA.email, telephone: ROSA.phone, queryReason: 'Lost Item', bookingNumber: '',
    comments: "Rosamund's black cello bow, left in a taxi from Paddington.",
  })).status).toBe(200);
  await t.db.query("UPDATE lost_property SET status = 'closed', closed_at = now(), closed_by = 'Priya Shah', outcome = 'Returned to Rosamund by courier' WHERE lower(contact_email) = lower($1)", [ROSA.email]);
  expect((await t.call('POST', '/send-instant-email', {
    pickup_address: 'Bath City Centre, Abbey Churchyard, Bath BA1 1LT', dropoff_address: 'Bristol Airport, Lulsgate Bottom, Bristol BS48 3DY',
    pickup_date: '2030-05-02', pickup_time: '07:45', passenger_email: ROSA.email, passenger_phone: ROSA.phone,
    passenger_name: `${ROSA.first} ${ROSA.last}`, additional_info: 'A cello case', passengers: 1, luggages: 2,
  })).status).toBe(200);
  expect((await t.call('POST', '/check-passenger-login', { email: ROSA.email, password: 'not-her-password' })).status).not.toBe(200);
  // The card payment link the office sent her for the car booking (issue 43 §1's table; written as the phone booking writes it).
  await t.db.query("INSERT INTO payment_links (booking_id, key_hash, sent_to, expires_at) VALUES ($1, $2, $3, now())", [car.id, 'f'.repeat(64), ROSA.email]);
  // Her number once answered STOP: kept, so it is never texted again.
  await t.db.query("INSERT INTO sms_opt_outs (phone, source) VALUES ('+447700900871', 'test')");

  // Benedikt: a booking still to come.
  upcoming = await book(t, BEN, { date: '2030-10-01' });
});
afterAll(async () => { await t.db.close(); });

const exportOf = (email: string, who = admin) => t.call('POST', '/operator/privacy/export', { email }, who);
const erase = (email: string, who = admin) => t.call('POST', '/operator/privacy/erase', { email }, who);
const auditRows = () => t.db.query<{ staff_name: string; action: string; subject: string; after: any }>(
  "SELECT staff_name, action, subject, after FROM audit_log WHERE action LIKE 'Personal data e%' ORDER BY id");

type Export = { sections: { table: string; rows: Record<string, unknown>[] }[] };
/** Whether the export has the hit's row: in its table's section, a row whose column holds the value (or says it withheld it). */
function inExport(data: Export, hit: Hit): boolean {
  const section = data.sections.find((s) => s.table === hit.table);
  const value = JSON.parse(JSON.stringify(hit.value));
  return Boolean(section?.rows.some((r) => isDeepStrictEqual(r[hit.column], value) || (r.withheld as string[] | undefined)?.includes(hit.column)));
}
const where = (hits: Hit[]) => [...new Set(hits.map((h) => `${h.table}.${h.column}`))].sort();

describe('who may', () => {
  it('nobody without a session (401), and no one but an administrator (403), writing nothing', async () => {
    const before = (await auditRows()).length;
    const none = await t.call('POST', '/operator/privacy/export', { email: ROSA.email });
    expect(none.status).toBe(401);
    expect((await t.call('POST', '/operator/privacy/erase', { email: ROSA.email })).status).toBe(401);
    for (const who of [dispatcher, company]) {
      expect((await exportOf(ROSA.email, who))).toEqual({ status: 403, body: expect.objectContaining({ message: 'Only an administrator can do this.' }) });
      expect((await erase(ROSA.email, who)).status).toBe(403);
    }
    expect(await auditRows()).toHaveLength(before);
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM booking_passengers WHERE passenger_name = $1', [`${ROSA.first} ${ROSA.last}`]))[0].n).toBe(2);
  });

  it('an address that is none is a 422 naming the field, and nothing is written', async () => {
    const before = (await auditRows()).length;
    for (const email of ['', 'rosamund', undefined]) {
      const res = await erase(email as string);
      expect([res.status, res.body.field]).toEqual([422, 'email']);
    }
    expect((await t.call('POST', '/operator/privacy/export', { email: 42 }, admin)).body.field).toBe('email');
    expect(await auditRows()).toHaveLength(before);
  });
});

describe('the export', () => {
  it('holds every row of every table that holds her e-mail, names or phones, found by searching the whole database', async () => {
    const hits = await searchEverywhere(t.db, TERMS);
    // The search reaches every place her data went: bookings, their passenger, extras, changes, timeline, messages,
    // the invoice, the card at the test gateway, her contact records, the enquiry tables, sign-in attempts, allowances.
    expect(where(hits)).toEqual(expect.arrayContaining([
      'audit_log.staff_name', 'auth_throttle.email', 'booking_changes.after', 'booking_changes.before', 'booking_details.sign_text',
      'booking_passengers.additional_info', 'booking_passengers.passenger_email', 'booking_passengers.passenger_name', 'contact_messages.email',
      'invoices.buyer', 'outbound_emails.template_data', 'outbound_emails.to_address', 'passengers.email', 'quote_requests.passenger_email',
      'payment_links.sent_to', 'rate_limits.key', 'sms_opt_outs.phone', 'test_gateway_objects.data',
      'complaints.contact_email', 'complaints.contact_name', 'complaints.nature', 'lost_property.contact_email', 'lost_property.description', 'lost_property.outcome',
    ]));
    const res = await exportOf(ROSA.email.toUpperCase());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const missing = hits.filter((h) => !inExport(res.body, h));
    expect(where(missing), 'held about her but not exported').toEqual([]);
    // Both bookings, their driver's texts among the messages; secrets said to exist, never shown.
    const section = (table: string) => res.body.sections.find((s: any) => s.table === table)?.rows ?? [];
    expect(section('bookings').map((b: any) => b.booking_number).sort()).toEqual([card.booking_number, car.booking_number].sort());
    expect(section('outbound_emails').map((m: any) => m.kind)).toEqual(expect.arrayContaining(['driver_assigned', 'driver_assigned_sms', 'driver_job']));
    expect(section('booking_keys').every((k: any) => k.key_hash === '(held, not shown)' && k.withheld.includes('key_hash'))).toBe(true);
    expect(JSON.stringify(res.body)).not.toMatch(/"key_hash":"[0-9a-f]{64}"/);
    expect(res.body.erase).toEqual({ allowed: true, refusal: null });
    expect(res.body.kept_on_erase).toEqual(KEPT_ON_ERASE);
    expect(res.body.retention).toEqual({ records_months: 12, invoice_years: 6 });
  });

  it('is audited, the address shortened', async () => {
    const [row] = (await auditRows()).slice(-1);
    expect(row).toMatchObject({ staff_name: `${DEMO_STAFF[0].name} (${DEMO_STAFF[0].email})`, action: 'Personal data exported', subject: 'r…@example.com' });
    expect(row.after.bookings).toBe(2);
  });

  it('of an address nothing is held about has no section', async () => {
    const res = await exportOf('nobody.at.all@example.com');
    expect(res.status).toBe(200);
    expect(res.body.sections).toEqual([]);
  });
});

describe('the erase', () => {
  it('is refused while a booking of the address is still to come, naming it, and changes nothing', async () => {
    const before = await searchEverywhere(t.db, [BEN.email, BEN.last]);
    const res = await erase(BEN.email);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ field: 'email', message: expect.stringContaining(`booking ${upcoming.booking_number} is still to come`) });
    expect(await searchEverywhere(t.db, [BEN.email, BEN.last])).toEqual(before);
    expect((await auditRows()).some((r) => r.action === 'Personal data erased')).toBe(false);
    // The export says so before anyone tries.
    expect((await exportOf(BEN.email)).body.erase).toEqual({ allowed: false, refusal: res.body.message });
    // A corporate account with bookings to come, alike.
    expect((await erase(DEMO_CORPORATE.email)).status).toBe(422);
  });

  it('leaves no trace of her but what the law keeps: the VAT invoice within its time and the STOP of her number', async () => {
    const res = await erase(ROSA.email);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ bookings: 2, already: 0, passengers: 2, invoices_kept: 1, kept: KEPT_ON_ERASE });
    const left = await searchEverywhere(t.db, TERMS);
    expect(where(left)).toEqual(['invoices.buyer', 'sms_opt_outs.phone']);
    const [invoice] = await t.db.query<any>('SELECT buyer FROM invoices WHERE booking_id = $1', [card.id]);
    expect(invoice.buyer).toEqual({ name: `${ROSA.first} ${ROSA.last}` });
    // The bookings keep their non-personal record.
    const [b] = await t.db.query<any>('SELECT booking_number, status, pick_up_address, total_booking_amount_pence > 0 AS priced, driver_id IS NOT NULL AS driven FROM bookings WHERE id = $1', [car.id]);
    expect(b).toEqual({ booking_number: car.booking_number, status: 'completed', pick_up_address: 'TW6', priced: true, driven: true });
  });

  it('is audited, the address shortened, and each booking\'s timeline says who erased it', async () => {
    const [row] = (await auditRows()).slice(-1);
    expect(row).toMatchObject({ action: 'Personal data erased', subject: 'r…@example.com', after: { bookings: 2, passengers: 2, invoices_kept: 1 } });
    const timeline = await t.db.query<any>('SELECT staff_name, action FROM audit_log WHERE booking_id = $1 AND action LIKE $2', [car.id, 'Personal data%']);
    expect(timeline).toEqual([{ staff_name: `${DEMO_STAFF[0].name} (${DEMO_STAFF[0].email})`, action: "Personal data erased at the passenger's request" }]);
  });

  it('a second time finds nothing more to do: nothing ties the address to anything any more', async () => {
    const again = await erase(ROSA.email);
    expect(again.body).toMatchObject({ bookings: 0, passengers: 0, invoices_kept: 0 });
    // What is kept no longer names the address: the invoice names the buyer only, the STOP list a number.
    expect((await exportOf(ROSA.email)).body.sections).toEqual([]);
  });
});
