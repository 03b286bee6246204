// Issue 44 §1 through the API: the office keeps corporate accounts (Operator data > Accounts), their booking fields
// and their bookers. An account's name is unique; a company's staff keep their own company's accounts only, and its
// credit limit, terms and status stay the office's; at most six fields are asked, one name each, two added at once
// taking turns on the cap; a booker is a passenger with a sign-in, and a company's staff never learn of, nor take, one
// who is not theirs. Then what paying on account checks inside a transaction (src/server/accounts/billing.ts) and how
// a booker's journeys are filtered and listed (journeys.ts), called directly where no request reaches them alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_SITE_URL } from './setup';
import { issueAccountInvoices } from '../../src/server/accounts/invoiceRun';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { hashPassword } from '../../src/server/auth/passwords';
import { loadSettings } from '../../src/server/deps';
import { accountForBooking, holdCredit, holdCreditForChange } from '../../src/server/accounts/billing';
import { JOURNEY_COLUMNS, journeysOf } from '../../src/server/accounts/journeys';
import type { Settings } from '../../src/domain/settings';

let t: Awaited<ReturnType<typeof testApp>>;
let admin: Record<string, string>;
let metro: Record<string, string>;
let metroCompany: number;
let settings: Settings;
const [ADMIN, METRO] = DEMO_STAFF;
/** Unique across test files sharing one database (test:pg). */
const RUN = Math.random().toString(36).slice(2, 8);
const NOT_OURS = 'No booker can be added or removed with this e-mail. They need a sign-in (Sign In > Create an account); one who books for another account is moved by the office.';

beforeAll(async () => {
  t = await testApp();
  admin = await staffSession(ADMIN.email, ADMIN.password);
  metro = await staffSession(METRO.email, METRO.password);
  [{ id: metroCompany }] = await t.db.query<{ id: number }>('SELECT id FROM companies WHERE company_name = $1', [METRO.company]);
  settings = await loadSettings(t.db);
});
afterAll(async () => { await t.db.close(); });

async function staffSession(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

const form = (name: string, extra: Record<string, unknown> = {}) => ({
  name: `${name} ${RUN}`, address: '2 Record Row, Leeds LS1 4AP', billing_email: `ap.${RUN}@${name.toLowerCase().replace(/\W+/g, '')}.example`,
  vat_number: '', terms_days: '30', credit_limit: '500', status: 'active', ...extra,
});

async function saved(name: string, who: Record<string, string>, extra: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/operator/accounts', form(name, extra), who);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

const row = async (id: number) => (await t.db.query<{ company_id: number | null; credit_limit_pence: number; terms_days: number; status: string; status_reason: string; name: string }>(
  'SELECT company_id, credit_limit_pence, terms_days, status, status_reason, name FROM accounts WHERE id = $1', [id]))[0];
const fieldsOf = async (id: number) => (await t.db.query<{ id: number; label: string; active: boolean; position: number }>(
  'SELECT id, label, active, position FROM account_fields WHERE account_id = $1 ORDER BY position', [id]));
const addField = (id: number, label: string, who = admin, extra: Record<string, unknown> = {}) =>
  t.call('POST', `/operator/accounts/${id}/fields`, { label, required: 'no', options: '', ...extra }, who);

/** A passenger with a sign-in, as "Create an account" makes one (or, `signIn` false, one who only booked as a guest). */
async function passenger(name: string, signIn = true) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${RUN}@example.co.uk`;
  const [p] = await t.db.query<{ id: number }>('INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4) RETURNING id',
    [name, email, '+447700900556', signIn ? await hashPassword('Booker-Pass-1', 4) : null]);
  return { id: p.id, email };
}
const accountOf = async (passengerId: number) =>
  (await t.db.query<{ account_id: number | null }>('SELECT account_id FROM passengers WHERE id = $1', [passengerId]))[0].account_id;
const booker = (id: number, email: string, who = admin, join?: boolean) =>
  t.call('POST', `/operator/accounts/${id}/bookers`, join === undefined ? { email } : { email, join }, who);

describe("the office's accounts", () => {
  it('adds and changes an account; a name on the record already, an unknown company or an unknown account is refused', async () => {
    const add = await t.call('POST', '/operator/accounts', form('Ledger Lane'), admin);
    expect([add.status, add.body.done]).toEqual([200, `Ledger Lane ${RUN} saved.`]);
    const id = add.body.id as number;
    expect(await row(id)).toMatchObject({ company_id: null, credit_limit_pence: 50000, terms_days: 30, status: 'active' });
    const twice = await t.call('POST', '/operator/accounts', form('LEDGER LANE'), admin);
    expect([twice.status, twice.body.field, twice.body.message]).toEqual([422, 'name', 'An account with this name is already on the record.']);
    const company = await t.call('POST', '/operator/accounts', form('Nowhere Co', { company_id: '999999' }), admin);
    expect([company.status, company.body.field, company.body.message]).toEqual([422, 'company_id', 'Choose a company from the list, or none.']);
    const unknown = await t.call('POST', '/operator/accounts', { ...form('Ghost Ltd'), id: 999999 }, admin);
    expect([unknown.status, unknown.body.message]).toEqual([404, 'No such account on your record.']);
    const changed = await t.call('POST', '/operator/accounts', { ...form('Ledger Lane', { credit_limit: '750', terms_days: '14', company_id: String(metroCompany) }), id }, admin);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await row(id)).toMatchObject({ company_id: metroCompany, credit_limit_pence: 75000, terms_days: 14 });
    expect((await t.db.query('SELECT 1 FROM accounts WHERE name = $1', [`Nowhere Co ${RUN}`])).length).toBe(0);
  });

  it("lets a company's staff keep their own company's accounts only, the credit limit, terms and status staying the office's", async () => {
    const add = await t.call('POST', '/operator/accounts', form('Metro Client', { credit_limit: '9000', terms_days: '90', status: 'suspended', status_reason: 'Mine' }), metro);
    expect([add.status, add.body.done]).toEqual([200, `Metro Client ${RUN} saved. Its credit limit, payment terms and status are set by the office.`]);
    const id = add.body.id as number;
    expect(await row(id)).toMatchObject({ company_id: metroCompany, credit_limit_pence: 0, terms_days: 30, status: 'active', status_reason: '' });
    // The office sets them; the company's next save keeps what the office set.
    const office = { company_id: String(metroCompany), credit_limit: '1200', terms_days: '45', status: 'suspended', status_reason: 'Unpaid March' };
    expect((await t.call('POST', '/operator/accounts', { ...form('Metro Client', office), id }, admin)).status).toBe(200);
    const kept = await t.call('POST', '/operator/accounts', { ...form('Metro Client', { address: '9 New Road, Leeds LS2 8AA', credit_limit: '99999', terms_days: '7', status: 'active' }), id }, metro);
    expect(kept.status).toBe(200);
    expect(await row(id)).toMatchObject({ company_id: metroCompany, credit_limit_pence: 120000, terms_days: 45, status: 'suspended', status_reason: 'Unpaid March' });
    const [other] = await t.db.query<{ id: number }>('SELECT id FROM companies WHERE id <> $1 ORDER BY id LIMIT 1', [metroCompany]);
    const elsewhere = await t.call('POST', '/operator/accounts', form('Metro Elsewhere', { company_id: String(other.id) }), metro);
    expect([elsewhere.status, elsewhere.body.field, elsewhere.body.message]).toEqual([422, 'company_id', "You can only keep your own company's accounts."]);
    const officeOnly = await saved('Office Only', admin);
    const notTheirs = await t.call('POST', '/operator/accounts', { ...form('Office Only'), id: officeOnly }, metro);
    expect([notTheirs.status, notTheirs.body.message]).toEqual([404, 'No such account on your record.']);
    const listed = await t.call('GET', '/operator/accounts', undefined, metro);
    expect(listed.body.accounts.length).toBeGreaterThan(0);
    expect(listed.body.accounts.every((a: { company_id: number }) => a.company_id === metroCompany)).toBe(true);
    expect(listed.body.accounts.map((a: { id: number }) => a.id)).toContain(id);
  });
});

describe("an account's booking fields", () => {
  it('adds them in order, changes one by its id, and refuses a name twice or a field of another account', async () => {
    const id = await saved('Field Works', admin);
    const po = await addField(id, 'PO number', admin, { required: 'yes' });
    expect([po.status, po.body.done]).toEqual([200, `PO number saved for Field Works ${RUN}.`]);
    expect((await addField(id, 'Cost centre')).status).toBe(200);
    const twice = await addField(id, 'po NUMBER');
    expect([twice.status, twice.body.field, twice.body.message]).toEqual([422, 'label', 'The account has a field of this name already.']);
    const [first, second] = await fieldsOf(id);
    expect([first.label, second.label, first.position < second.position]).toEqual(['PO number', 'Cost centre', true]);
    const renamed = await addField(id, 'Purchase order', admin, { id: String(first.id), required: 'yes' });
    expect([renamed.status, renamed.body.done]).toEqual([200, `Purchase order saved for Field Works ${RUN}.`]);
    expect((await fieldsOf(id)).map((f) => [f.id, f.label, f.position])).toEqual([[first.id, 'Purchase order', first.position], [second.id, 'Cost centre', second.position]]);
    const clash = await addField(id, 'Cost centre', admin, { id: String(first.id) });
    expect([clash.status, clash.body.field]).toEqual([422, 'label']);
    const other = await saved('Field Others', admin);
    const foreign = await addField(other, 'Stolen', admin, { id: String(first.id) });
    expect([foreign.status, foreign.body.message]).toEqual([404, 'This field is not on the account: reload the page.']);
    expect(await fieldsOf(other)).toEqual([]);
    const theirs = await addField(id, 'Project', metro);
    expect([theirs.status, theirs.body.message]).toEqual([404, 'No such account on your record.']);
  });

  it('asks at most six at once: a seventh, or one asked again, is refused on its name; a field put aside or changed is not', async () => {
    const id = await saved('Six Fields', admin);
    for (const label of ['One', 'Two', 'Three', 'Four', 'Five']) expect((await addField(id, label)).status).toBe(200);
    const aside = await addField(id, 'Aside', admin, { active: 'no' });
    expect(aside.status).toBe(200);
    expect((await addField(id, 'Six')).status).toBe(200);
    const seventh = await addField(id, 'Seven');
    expect([seventh.status, seventh.body.field, seventh.body.message]).toEqual([422, 'label', 'An account asks for at most 6 fields.']);
    const fields = await fieldsOf(id);
    const byLabel = (l: string) => fields.find((f) => f.label === l)!;
    const again = await addField(id, 'Aside', admin, { id: String(byLabel('Aside').id), active: 'yes' });
    expect([again.status, again.body.message]).toEqual([422, 'An account asks for at most 6 fields.']);
    // One of the six changed stays asked; one put aside makes room for the one set aside before.
    expect((await addField(id, 'One again', admin, { id: String(byLabel('One').id) })).status).toBe(200);
    expect((await addField(id, 'Two', admin, { id: String(byLabel('Two').id), active: 'no' })).status).toBe(200);
    expect((await addField(id, 'Aside', admin, { id: String(byLabel('Aside').id), active: 'yes' })).status).toBe(200);
    expect((await fieldsOf(id)).filter((f) => f.active).map((f) => f.label)).toEqual(['One again', 'Three', 'Four', 'Five', 'Aside', 'Six']);
  });

  it('takes turns on the cap when fields are added at once: one is saved, the others refused', async () => {
    const id = await saved('Twin Fields', admin);
    for (const label of ['A', 'B', 'C', 'D', 'E']) expect((await addField(id, label)).status).toBe(200);
    const all = await Promise.all(['Left', 'Right', 'Middle', 'Last'].map((label) => addField(id, label)));
    expect(all.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
    expect((await fieldsOf(id)).filter((f) => f.active)).toHaveLength(6);
  });
});

describe("an account's bookers", () => {
  it('adds a passenger with a sign-in (their e-mail in any case), removes them, and says why it cannot', async () => {
    const id = await saved('Booker Bay', admin);
    const p = await passenger('Bea Booker');
    const added = await booker(id, p.email.toUpperCase());
    expect([added.status, added.body.done]).toEqual([200, `Bea Booker now books for Booker Bay ${RUN}.`]);
    expect(await accountOf(p.id)).toBe(id);
    const guest = await passenger('Gil Guest', false);
    const noSignIn = await booker(id, guest.email);
    expect([noSignIn.status, noSignIn.body.field, noSignIn.body.message])
      .toEqual([422, 'email', 'Nobody has a sign-in with this e-mail. Ask them to create one (Sign In > Create an account) first.']);
    expect((await booker(id, '')).body).toMatchObject({ field: 'email', message: "Enter the booker's e-mail address." });
    const other = await passenger('Otto Other');
    const notOne = await booker(id, other.email, admin, false);
    expect([notOne.status, notOne.body.message]).toEqual([422, `Otto Other is not a booker of Booker Bay ${RUN}.`]);
    const removed = await booker(id, p.email, admin, false);
    expect([removed.status, removed.body.done]).toEqual([200, `Bea Booker no longer books for Booker Bay ${RUN}.`]);
    expect(await accountOf(p.id)).toBeNull();
  });

  it("lets the office move a booker from one account to another; a company's staff only between their own, told nothing of others", async () => {
    const office = await saved('Mover One', admin);
    const target = await saved('Mover Two', admin);
    const p = await passenger('Mo Mover');
    await booker(office, p.email);
    expect((await booker(target, p.email)).status).toBe(200);
    expect(await accountOf(p.id)).toBe(target);
    const mine = await saved('Metro Mover A', metro);
    const mineToo = await saved('Metro Mover B', metro);
    // Another's booker, a guest, a passenger of no account removed: one answer, nothing changed.
    for (const [email, join] of [[p.email, true], [(await passenger('Gia Guest', false)).email, true], [p.email, false]] as const) {
      const res = await booker(mine, email, metro, join);
      expect([res.status, res.body.field, res.body.message]).toEqual([422, 'email', NOT_OURS]);
    }
    expect(await accountOf(p.id)).toBe(target);
    const q = await passenger('Quin Metro');
    expect((await booker(mine, q.email, metro)).status).toBe(200);
    expect((await booker(mineToo, q.email, metro)).status).toBe(200);
    expect(await accountOf(q.id)).toBe(mineToo);
    const free = await passenger('Fay Free');
    expect((await booker(mine, free.email, metro)).status).toBe(200);
    expect(await accountOf(free.id)).toBe(mine);
    expect((await booker(target, q.email, metro)).status).toBe(404);
  });
});

describe('paying on account, inside the booking', () => {
  it("refuses a guest, names the office's phone to a suspended account's booker, and finds a booker moved while booking", async () => {
    await expect(accountForBooking(t.db, null, {}, settings)).rejects.toMatchObject({
      field: 'payment_method', message: "Paying on account is for a company's bookers: please sign in, or choose another way to pay.",
    });
    const id = await saved('Held Holdings', admin, { status: 'suspended', status_reason: 'Invoices overdue' });
    const p = await passenger('Hal Held');
    await booker(id, p.email);
    const phone = settings.Company_Contact_Info?.trim() ?? '';
    expect(phone).not.toBe('');
    const held = accountForBooking(t.db, p.id, {}, settings);
    await expect(held).rejects.toMatchObject({ field: 'payment_method', message: expect.stringContaining('Invoices overdue') });
    await expect(held).rejects.toMatchObject({ message: expect.stringContaining(phone) });
    // The office, booking for the booker by telephone, is told in its own words on its own field.
    await expect(accountForBooking(t.db, p.id, {}, settings, true)).rejects.toMatchObject({
      field: 'payment', message: `Held Holdings ${RUN}'s account is on hold: Invoices overdue. Choose pay in the car or a payment link.`,
    });
    const other = await saved('Held Elsewhere', admin);
    await expect(holdCredit(t.db, p.id, other, 100, settings)).rejects.toMatchObject({
      field: 'payment_method', message: 'Your company account changed while you were booking. Please try again.',
    });
    const none = await passenger('Nell None');
    await expect(holdCredit(t.db, none.id, other, 100, settings)).rejects.toMatchObject({ message: 'Your company account changed while you were booking. Please try again.' });
  });

  it("checks a change's higher price against the account only: a lower price, or a booking not on account, passes", async () => {
    const id = await saved('Change Checks', admin, { credit_limit: '100' });
    const [seeded] = await t.db.query<{ id: number }>('SELECT id FROM bookings WHERE account_id IS NULL ORDER BY id LIMIT 1');
    const [b] = await t.db.query<{ id: number }>(
      `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode, pick_up_address,
         drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method,
         payment_status, pickup_at, status, account_id)
       SELECT 'BK-' || upper(substr(md5(random()::text), 1, 8)), 'Q', 'milleage', company_id, vehicle_type_id, passenger_id, 'existing_client',
         pick_up_address, drop_off_address, '2031-07-01', '09:00', 1, 6000, 6000, price_breakdown, 'account', 'on_account', '2031-07-01 09:00',
         'confirmed', $1 FROM bookings WHERE id = $2 RETURNING id`, [id, seeded.id]);
    // £100 limit, £60 booked: £40 left for this journey to grow by.
    await expect(holdCreditForChange(t.db, b.id, 6000, 9000, settings)).resolves.toBeUndefined();
    await expect(holdCreditForChange(t.db, b.id, 6000, 16100, settings)).rejects.toMatchObject({
      field: 'accept_total', message: expect.stringMatching(/^This change \(£161\.00\) would take your company's account past its credit limit/),
    });
    await expect(holdCreditForChange(t.db, seeded.id, 6000, 900000, settings)).resolves.toBeUndefined();
    await t.call('POST', '/operator/accounts', { ...form('Change Checks', { credit_limit: '100', status: 'suspended', status_reason: 'Under review' }), id }, admin);
    await expect(holdCreditForChange(t.db, b.id, 6000, 5000, settings)).resolves.toBeUndefined();
    await expect(holdCreditForChange(t.db, b.id, 6000, 6000, settings)).resolves.toBeUndefined();
    await expect(holdCreditForChange(t.db, b.id, 6000, 6100, settings)).rejects.toMatchObject({ field: 'accept_total', message: expect.stringContaining('Under review') });
  });
});

describe("a booker's journeys", () => {
  it("matches a field's value as typed (a % or _ is no wildcard), and names each journey's invoice", async () => {
    const id = await saved('Journey Judges', admin);
    const p = await passenger('Jo Journey');
    const [seeded] = await t.db.query<{ id: number }>('SELECT id FROM bookings WHERE account_id IS NULL AND drop_off_address IS NOT NULL ORDER BY id LIMIT 1');
    const journey = async (date: string, po: string) => (await t.db.query<{ id: number; booking_number: string }>(
      `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode, pick_up_address,
         drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method,
         payment_status, pickup_at, status, account_id, account_fields)
       SELECT 'BK-' || upper(substr(md5(random()::text), 1, 8)), 'Q', 'milleage', company_id, vehicle_type_id, $2, 'existing_client',
         pick_up_address, drop_off_address, $3::date, '09:00', 1, 4500, 4500, price_breakdown, 'account', 'on_account', ($3::text || ' 09:00')::timestamp,
         'completed', $1, jsonb_build_array(jsonb_build_object('label', 'PO number', 'value', $4::text)) FROM bookings WHERE id = $5
       RETURNING id, booking_number`, [id, p.id, date, po, seeded.id]))[0];
    const percent = await journey('2031-08-01', 'PO-50%');
    const plain = await journey('2031-07-20', 'PO-500');
    const under = await journey('2031-08-03', 'PO_7');
    const all = { from: null, to: null, field: 'PO number' };
    const refs = async (value: string) => (await journeysOf(t.db, p.id, { ...all, value })).map((j) => j.booking_number).sort();
    expect(await refs('50%')).toEqual([percent.booking_number]);
    expect(await refs('%')).toEqual([percent.booking_number]);
    expect(await refs('_')).toEqual([under.booking_number]);
    expect(await refs('po-50')).toEqual([percent.booking_number, plain.booking_number].sort());
    const [number] = await issueAccountInvoices(t.db, { periodStart: '2031-07-01', now: new Date('2031-08-01T07:00:00Z'), settings, siteUrl: TEST_SITE_URL, accountId: id });
    expect(number).toBeGreaterThan(0);
    const listed = await journeysOf(t.db, p.id, { from: '2031-07-01', to: '2031-08-31', field: null, value: null });
    expect(listed.map((j) => [j.booking_number, j.invoice, j.amount, j.fields])).toEqual([
      [under.booking_number, null, '45.00', [{ label: 'PO number', value: 'PO_7' }]],
      [percent.booking_number, null, '45.00', [{ label: 'PO number', value: 'PO-50%' }]],
      [plain.booking_number, `INV-${String(number).padStart(6, '0')}`, '45.00', [{ label: 'PO number', value: 'PO-500' }]],
    ]);
    // The CSV's columns, as a journey gives them.
    const [trip] = await t.db.query<{ pickup: string; dropoff: string; vehicle: string }>(
      `SELECT b.pick_up_address AS pickup, b.drop_off_address AS dropoff, v.category_name AS vehicle
         FROM bookings b JOIN vehicle_types v ON v.id = b.vehicle_type_id WHERE b.id = $1`, [seeded.id]);
    await t.db.query(`INSERT INTO booking_passengers (booking_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info)
                      VALUES ($1, 'Pat Passenger', 'pat@example.com', '+447700900778', 1, '')`, [plain.id]);
    const [withName] = await journeysOf(t.db, p.id, { from: '2031-07-20', to: '2031-07-20', field: null, value: null });
    expect(JOURNEY_COLUMNS.map(([column, value]) => [column, value(withName)])).toEqual([
      ['Booking number', plain.booking_number], ['Pickup date', '20-07-2031'], ['Pickup time', '09:00'], ['Pickup', trip.pickup],
      ['Destination', trip.dropoff], ['Passenger', 'Pat Passenger'], ['Vehicle', trip.vehicle], ['Payment', 'On account'], ['Status', 'Completed'],
      ['Amount (GBP)', '45.00'], ['Invoice', `INV-${String(number).padStart(6, '0')}`],
    ]);
  });
});
