// Issue 43 §4 (decision 60): the daily retention job, with a controlled clock. A booking 13 months past its journey
// loses its personal data and keeps its non-personal record; one 11 months past (or whose return is) keeps it; a
// guest's contact record goes only once none of its bookings is kept; an account stays; a VAT invoice stays whole
// while the invoice time runs, then loses its buyer and journey; the settings move the times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';
import { book, changeDetails, journeyAt, type Booked, type TestApp } from './privacyHelpers';
import { removeExpiredPersonalData } from '../../src/server/privacy/job';
import { REMOVED_BECAUSE } from '../../src/server/privacy/anonymise';
import { loadSettings } from '../../src/server/deps';
import { setSetting } from '../../src/server/operator/operator';
import { invoiceForDownload } from '../../src/server/manage/invoices';
import { addMonths } from '../../src/domain/retention';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';

let t: TestApp;
const OLD_PICKUP = new Date('2030-09-12T06:15:00Z');
/** The job's clock: 13 months after OLD's journey, 11 months after YOUNG's. */
const NOW = addMonths(OLD_PICKUP, 13);
const ANN = { first: 'Annabel', last: 'Threlkeld', email: `annabel.threlkeld.${process.pid}@example.com`, phone: '07700 900614' };
let old: Booked, young: Booked, returning: Booked;
/** The demo corporate account's bookings (all of 2026: long past at the job's clock). */
let accountBookings: number[] = [];

beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
  old = await book(t, ANN, { date: '2030-09-12', flight: 'BA 286', notes: 'Two child seats please, call on arrival', sign: true, stop: true, pay: 'card' });
  await changeDetails(t, old, { sign_text: 'THRELKELD PARTY' });
  young = await book(t, ANN, { date: '2030-11-12' });
  returning = await book(t, ANN, { date: '2030-09-05', returnDate: '2030-09-12' });
  await journeyAt(t.db, old.id, OLD_PICKUP, 'completed');
  await journeyAt(t.db, young.id, addMonths(NOW, -11), 'completed');
  // Out 13 months and a week before the clock, back 11 months before it.
  await journeyAt(t.db, returning.id, addMonths(NOW, -13), 'completed');
  await t.db.query("UPDATE bookings SET return_date = $2::date WHERE id = $1", [returning.id, addMonths(NOW, -11).toISOString().slice(0, 10)]);
  // One guest contact record for two bookings: OLD's and YOUNG's (as a guest who booked twice would be, were records shared).
  await t.db.query('UPDATE bookings SET passenger_id = $2 WHERE id = $1', [young.id, old.passenger_id]);
  await t.db.query('UPDATE booking_passengers SET passenger_id = $2 WHERE booking_id = $1', [young.id, old.passenger_id]);
  // OLD's VAT invoice, issued today (real time: more than 4 years before the job's clock).
  await t.db.transaction(async (tx) => invoiceForDownload(tx, old.id, await loadSettings(t.db)));
  accountBookings = (await t.db.query<{ id: number }>(
    'SELECT b.id FROM bookings b JOIN passengers p ON p.id = b.passenger_id WHERE p.email = $1', [DEMO_CORPORATE.email])).map((b) => b.id);
  expect(accountBookings.length).toBeGreaterThan(1);
});
afterAll(async () => { await t.db.close(); });

const run = async (now: Date, settings: Record<string, string> = {}) =>
  removeExpiredPersonalData(t.db, { ...(await loadSettings(t.db)), ...settings }, now);

async function bookingRow(id: number) {
  const [b] = await t.db.query<any>(
    `SELECT b.booking_number, b.pick_up_address, b.drop_off_address, b.flight_no, b.passenger_id, b.status, b.pick_up_date::text AS pick_up_date,
            b.pick_up_time, b.total_booking_amount_pence, b.payment_method, b.payment_status, b.payment_id, b.company_id, b.vehicle_type_id,
            b.personal_data_removed_at, p.passenger_name, p.passenger_email, p.passenger_contact_no, p.additional_info, p.total_passengers, d.sign_text
       FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id JOIN booking_details d ON d.booking_id = b.id WHERE b.id = $1`, [id]);
  return b;
}
const count = async (sql: string, id: number) => (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, [id]))[0].n;
const contact = async (id: number) => (await t.db.query<any>('SELECT name, email, phone, personal_data_removed_at FROM passengers WHERE id = $1', [id]))[0];

describe('the retention job', () => {
  it('with the records time set to 24 months, takes none of them', async () => {
    const before = await bookingRow(old.id);
    const done = await run(NOW, { RECORDS_RETENTION_MONTHS: '24' });
    expect(done.bookings).toBeGreaterThan(0); // the demo's bookings of 2026
    expect(await bookingRow(old.id)).toEqual(before);
  });

  it('anonymises a booking 13 months after its journey, keeping its non-personal record', async () => {
    const before = await bookingRow(old.id);
    expect(before).toMatchObject({ passenger_name: 'Annabel Threlkeld', flight_no: 'BA 286', sign_text: 'THRELKELD PARTY' });
    expect(await count('booking_keys WHERE booking_id = $1', old.id)).toBeGreaterThan(0);
    expect(await count('outbound_emails WHERE booking_id = $1', old.id)).toBeGreaterThan(0);
    await run(NOW);
    const after = await bookingRow(old.id);
    expect(after).toEqual({
      ...before, pick_up_address: 'TW6', drop_off_address: 'WC2N', flight_no: null, passenger_id: null, passenger_name: '', passenger_email: '',
      passenger_contact_no: '', additional_info: '', sign_text: null, personal_data_removed_at: expect.any(Date),
    });
    expect(after.personal_data_removed_at).not.toBeNull();
    const [stop] = await t.db.query<any>('SELECT stop_address, stop_post_code, stop_street_number FROM booking_stops WHERE booking_id = $1', [old.id]);
    expect(stop).toEqual({ stop_address: 'NW1', stop_post_code: 'NW1', stop_street_number: '' });
    expect(await count('booking_keys WHERE booking_id = $1', old.id)).toBe(0);
    expect(await count('outbound_emails WHERE booking_id = $1', old.id)).toBe(0);
    // The card's billing name and e-mail at the test gateway go too.
    const [card] = await t.db.query<any>(
      `SELECT pm.data->'billing_details' AS billing FROM test_gateway_objects i JOIN bookings b ON b.payment_intent_id = i.id
         JOIN test_gateway_objects pm ON pm.id = i.data->>'payment_method' WHERE b.id = $1`, [old.id]);
    expect(card.billing).toEqual({});
    // The change the passenger made keeps its date and price, not what was written; nor does the timeline.
    const changes = await t.db.query<any>('SELECT before, after, old_total_pence FROM booking_changes WHERE booking_id = $1', [old.id]);
    expect(changes).toHaveLength(1);
    expect(changes[0].before).toMatchObject({ pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15' });
    const timelineRows = await t.db.query<any>('SELECT staff_name, subject, before, after FROM audit_log WHERE booking_id = $1', [old.id]);
    expect(timelineRows.length).toBeGreaterThan(1);
    expect(JSON.stringify([changes, timelineRows])).not.toMatch(/threlkeld|annabel|BA 286|Heathrow|Trafalgar|07700|child seats/i);
    // Its timeline says when and why, once.
    const timeline = await t.db.query<any>('SELECT staff_name, action FROM audit_log WHERE booking_id = $1 AND action LIKE $2', [old.id, 'Personal data%']);
    expect(timeline).toEqual([{ staff_name: 'Records and privacy (automatic)', action: REMOVED_BECAUSE.retention }]);
  });

  it('keeps one 11 months after its journey, and one whose return was 11 months ago', async () => {
    for (const b of [young, returning]) {
      expect(await bookingRow(b.id)).toMatchObject({ passenger_name: 'Annabel Threlkeld', passenger_email: ANN.email, personal_data_removed_at: null });
    }
    expect((await bookingRow(returning.id)).pick_up_address).toBe('Heathrow Airport Terminal 5, Hounslow TW6 2GA');
  });

  it("keeps a guest's contact record while one of its bookings is kept, and takes it with the last", async () => {
    expect(await contact(old.passenger_id)).toMatchObject({ name: 'Annabel Threlkeld', email: ANN.email, personal_data_removed_at: null });
    // Its own contact record went with RETURNING's? Not yet: RETURNING is kept.
    expect(await contact(returning.passenger_id)).toMatchObject({ email: ANN.email });
    const later = addMonths(NOW, 3);
    await run(later);
    expect(await bookingRow(young.id)).toMatchObject({ passenger_name: '', personal_data_removed_at: expect.any(Date) });
    expect(await contact(old.passenger_id)).toMatchObject({ name: '', email: '', phone: '', personal_data_removed_at: expect.any(Date) });
    expect(await contact(returning.passenger_id)).toMatchObject({ name: '', email: '', phone: '' });
  });

  it('keeps a corporate account (it has a password) while its old bookings lose their personal data', async () => {
    const [account] = await t.db.query<any>(
      'SELECT name, phone, password_hash IS NOT NULL AS open, personal_data_removed_at FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
    expect(account).toEqual({ name: DEMO_CORPORATE.name, phone: DEMO_CORPORATE.phone, open: true, personal_data_removed_at: null });
    const rows = await t.db.query<any>(
      `SELECT b.personal_data_removed_at IS NOT NULL AS done, b.passenger_id, p.passenger_email FROM bookings b JOIN booking_passengers p ON p.booking_id = b.id
        WHERE b.id IN (SELECT value::int FROM json_array_elements_text($1::json))`, [JSON.stringify(accountBookings)]);
    expect(rows).toEqual(accountBookings.map(() => ({ done: true, passenger_id: null, passenger_email: '' })));
  });

  it('keeps a VAT invoice whole while the invoice time runs, then keeps only what names no one', async () => {
    const invoice = async () => (await t.db.query<any>('SELECT buyer, journey, gross_pence, lines, personal_data_removed_at FROM invoices WHERE booking_id = $1', [old.id]))[0];
    const issued = await invoice();
    expect(issued.buyer).toEqual({ name: 'Annabel Threlkeld' });
    expect(JSON.stringify(issued.journey)).toContain('Heathrow Airport Terminal 5');
    expect(JSON.stringify(issued.journey)).toContain('BA 286');
    // Five years on: kept whole.
    await run(addMonths(new Date(), 5 * 12));
    expect(await invoice()).toEqual(issued);
    // Six years and a month on: made anonymous.
    const done = await run(addMonths(new Date(), 6 * 12 + 1));
    expect(done.invoices).toBe(1);
    const after = await invoice();
    expect(after).toMatchObject({ buyer: { name: '' }, gross_pence: issued.gross_pence, lines: issued.lines, personal_data_removed_at: expect.any(Date) });
    expect(after.journey).toEqual(expect.arrayContaining([{ label: 'Pickup address', value: 'TW6' }, { label: 'Drop-off address', value: 'WC2N' }]));
    expect(JSON.stringify(after.journey)).not.toMatch(/Heathrow|Trafalgar|BA 286/);
    // With the invoice time set to 8 years, another would wait; the done one is never taken again.
    expect((await run(addMonths(new Date(), 7 * 12), { INVOICE_RETENTION_YEARS: '8' })).invoices).toBe(0);
    expect((await run(addMonths(new Date(), 7 * 12))).invoices).toBe(0);
  });

  it('does nothing the second time', async () => {
    expect(await run(addMonths(NOW, 3))).toEqual({ bookings: 0, passengers: 0, invoices: 0, entries: 0 });
  });
});

describe('complaints and lost property (issue 43 §3), kept with the records', () => {
  /** A lost property entry about no booking, closed `monthsAgo` before the clock (or open). */
  async function lostItem(words: string, closedMonthsAgo: number | null): Promise<number> {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO lost_property (kind, status, source, contact_name, contact_email, contact_phone, description, reported_on, lost_place, notes, outcome,
                                  opened_by, opened_at, closed_by, closed_at)
       VALUES ('reported', $2, 'phone', 'Annabel Threlkeld', $3, '+447700900614', $1, '2030-01-02', 'Paddington rank', 'Called twice', $4, 'Priya Shah',
               $5::timestamptz, $6, $7::timestamptz) RETURNING id`,
      [words, closedMonthsAgo === null ? 'open' : 'closed', ANN.email, closedMonthsAgo === null ? '' : 'Returned by courier',
        addMonths(NOW, -14).toISOString(), closedMonthsAgo === null ? null : 'Priya Shah', closedMonthsAgo === null ? null : addMonths(NOW, -closedMonthsAgo).toISOString()]);
    return row.id;
  }
  const entry = async (table: string, id: number) => (await t.db.query<any>(`SELECT * FROM ${table} WHERE id = $1`, [id]))[0];

  it("a complaint about a booking goes with its booking's personal data; an entry about none once closed for the records time", async () => {
    const booking = await book(t, ANN, { date: '2030-09-20' });
    await journeyAt(t.db, booking.id, addMonths(NOW, -13), 'completed');
    const [complaint] = await t.db.query<{ id: number }>(
      `INSERT INTO complaints (source, booking_id, booking_reference, contact_name, contact_email, contact_phone, nature, investigation, action_taken, opened_by)
       VALUES ('phone', $1, $2, 'Annabel Threlkeld', $3, '+447700900614', 'Annabel says the driver was late', 'Tracked the job', 'Apologised', 'Priya Shah') RETURNING id`,
      [booking.id, booking.booking_number, ANN.email]);
    const gone = await lostItem('Annabel\'s blue scarf', 13);
    const recent = await lostItem('A grey umbrella', 11);
    const open = await lostItem('A phone charger', null);
    const done = await run(NOW);
    expect(done.entries).toBe(1);
    expect(await entry('complaints', complaint.id)).toMatchObject({
      contact_name: '', contact_email: '', contact_phone: '', nature: '(removed)', investigation: '', action_taken: '', outcome: '',
      booking_id: booking.id, booking_reference: booking.booking_number, personal_data_removed_at: expect.any(Date),
    });
    expect(await entry('lost_property', gone)).toMatchObject({
      contact_name: '', contact_email: '', description: '(removed)', lost_place: '', notes: '', outcome: '(removed)', status: 'closed',
      reported_on: expect.anything(), personal_data_removed_at: expect.any(Date),
    });
    for (const kept of [recent, open]) expect(await entry('lost_property', kept)).toMatchObject({ contact_email: ANN.email, personal_data_removed_at: null });
    expect((await run(NOW)).entries).toBe(0);
  });
});
