// Issue 44, through the API: corporate accounts that pay monthly on one invoice. A booker of an active account pays on
// account with its required fields; a guest, a suspended or closed account, a missing field, a value not in the list
// or a limit exceeded is refused on its field with nothing written. The month's invoice (a controlled clock) lists each
// finished journey once, is numbered in the one sequence, e-mailed and downloadable by the account's bookers only; two
// runs at once issue it once; a later change of a journey's charge is a credit or debit note carried onto the next
// invoice, the issued one unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { testApp } from './setup';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import { hashPassword } from '../../src/server/auth/passwords';
import { setSetting } from '../../src/server/operator/operator';

let t: Awaited<ReturnType<typeof testApp>>;
let admin: Record<string, string>;
let metro: Record<string, string>;
const [ADMIN, METRO] = DEMO_STAFF;
/** Unique across test files sharing one database (test:pg). */
const RUN = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
  await setSetting(t.db, 'VAT_RATE', '20');
  admin = await staffSession(ADMIN.email, ADMIN.password);
  metro = await staffSession(METRO.email, METRO.password);
});
afterAll(async () => { await t.db.close(); });

async function staffSession(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status).toBe(200);
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

async function booker(email: string, password: string) {
  const res = await t.call('POST', '/check-passenger-login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { Authorization: `Bearer ${res.body.access_token}` };
}

/** A passenger with a sign-in, as "Create an account" makes one. */
async function newPassenger(name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${RUN}@example.co.uk`;
  await t.db.query('INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, $4)',
    [name, email, '+447700900555', await hashPassword('Booker-Pass-1', 10)]);
  return { email, auth: await booker(email, 'Booker-Pass-1') };
}

/** A new account through the console, with a required PO number and a cost centre list; its id and fields. */
async function newAccount(name: string, extra: Record<string, unknown> = {}) {
  const saved = await t.call('POST', '/operator/accounts', {
    name: `${name} ${RUN}`, address: '1 Test Street, London EC1A 1AA', billing_email: `billing.${RUN}@${name.toLowerCase().replace(/\W+/g, '')}.example`,
    vat_number: '', terms_days: '30', credit_limit: '1000', status: 'active', ...extra,
  }, admin);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const id = saved.body.id as number;
  expect((await t.call('POST', `/operator/accounts/${id}/fields`, { label: 'PO number', required: 'yes', options: '' }, admin)).status).toBe(200);
  expect((await t.call('POST', `/operator/accounts/${id}/fields`, { label: 'Cost centre', required: 'no', options: 'Sales\nOperations' }, admin)).status).toBe(200);
  const [po, cc] = await t.db.query<{ id: number }>('SELECT id FROM account_fields WHERE account_id = $1 ORDER BY position', [id]);
  return { id, po: String(po.id), cc: String(cc.id) };
}

const FORM = {
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Heathrow Airport Terminal 3, Hounslow TW6 1QG',
  pickup_hour: '6am', pickup_min: '30', passengers: 1, luggages: 1,
};

async function request(date: string, fields: Record<string, string> | undefined, email = 'nobody@example.com') {
  const form = { ...FORM, pickup_date: date };
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
  return {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: '', surname: '', email, number: '', additionalInfo: '' },
    payment_method: 'account', selected_passenger: 'existing_client', account_fields: fields,
  };
}

let keys = 0;
const book = async (p: { email: string; auth: Record<string, string> }, date: string, fields?: Record<string, string>) =>
  t.call('POST', '/booking', await request(date, fields, p.email), { ...p.auth, 'Idempotency-Key': `acct-${RUN}-${++keys}` });
const bookingCount = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings'))[0].n;

/** The text a PDF shows: each text run of its compressed pages, in order. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (let at = raw.indexOf('stream\n'); at !== -1; at = raw.indexOf('stream\n', at + 1)) {
    const start = at + 'stream\n'.length;
    const end = raw.indexOf('\nendstream', start);
    let content: string;
    try { content = inflateSync(pdf.subarray(start, end)).toString('latin1'); } catch { continue; }
    for (const m of content.matchAll(/\[(.*?)\] TJ|<([0-9a-f]+)> Tj/g)) {
      const hex = m[1] ? [...m[1].matchAll(/<([0-9a-f]+)>/g)].map((x) => x[1]).join('') : m[2];
      out.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return out.join(' ');
}

async function download(path: string, who: Record<string, string>) {
  const res = await t.app.request(`/api/v1${path}`, { headers: { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret', ...who } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, disposition: res.headers.get('content-disposition'), body, text: res.status === 200 ? pdfText(body) : body.toString() };
}

describe('paying on account', () => {
  it("tells the demo booker their account's name and fields", async () => {
    const auth = await booker(DEMO_CORPORATE.email, DEMO_CORPORATE.password);
    const res = await t.call('GET', '/account/billing', undefined, auth);
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({
      name: 'Northbridge Consulting', status: 'active', reason: '',
      fields: [{ label: 'PO number', required: true, options: [] }, { label: 'Cost centre', required: false, options: ['Consulting', 'Sales', 'Operations', 'Finance'] }],
    });
  });

  it('books with the required field, keeps the values and says so to the office', async () => {
    const { id, po, cc } = await newAccount('Fieldwork Ltd');
    const p = await newPassenger('Olive Fieldwork');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const res = await book(p, '2030-05-02', { [po]: ' PO-1001 ', [cc]: 'sales' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.booking.payment_method).toBe('account');
    const [row] = await t.db.query<any>('SELECT account_id, account_fields, payment_status, status FROM bookings WHERE id = $1', [res.body.data.booking.id]);
    expect(row).toEqual({
      account_id: id, payment_status: 'on_account', status: 'confirmed',
      account_fields: [{ label: 'PO number', value: 'PO-1001' }, { label: 'Cost centre', value: 'Sales' }],
    });
    const [notice] = await t.db.query<{ template_data: string }>(
      "SELECT template_data FROM outbound_emails WHERE booking_id = $1 AND kind = 'new_booking_notice'", [res.body.data.booking.id]);
    expect(JSON.parse(notice.template_data).notice.paymentStatus).toBe(`On account: Fieldwork Ltd ${RUN}, PO number PO-1001, Cost centre Sales`);
  });

  it('refuses a missing required field, a value not in the list and a field of no account, on the field, writing nothing', async () => {
    const { id, po, cc } = await newAccount('Strict Co');
    const p = await newPassenger('Sam Strict');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const before = await bookingCount();
    const missing = await book(p, '2030-05-03', { [cc]: 'Sales' });
    expect([missing.status, missing.body.field]).toEqual([422, `account_fields.${po}`]);
    expect(missing.body.message).toBe('Enter the PO number: your company asks for it on every booking.');
    const listed = await book(p, '2030-05-03', { [po]: 'PO-1', [cc]: 'Marketing' });
    expect([listed.status, listed.body.field, listed.body.message]).toEqual([422, `account_fields.${cc}`, 'Choose the Cost centre from the list.']);
    const stranger = await book(p, '2030-05-03', { [po]: 'PO-1', 999999: 'x' });
    expect([stranger.status, stranger.body.field]).toEqual([422, 'account_fields.999999']);
    expect(await bookingCount()).toBe(before);
  });

  it('refuses a guest, and a passenger of no account', async () => {
    const guest = await request('2030-05-04', {});
    const res = await t.call('POST', '/booking', { ...guest, selected_passenger: 'guest_login', registrationData: { firstName: 'Gus', surname: 'Guest', email: `gus.${RUN}@example.com`, number: '07700 900123', additionalInfo: '' } });
    expect([res.status, res.body.field]).toEqual([422, 'payment_method']);
    const loner = await newPassenger('Lone Traveller');
    const alone = await book(loner, '2030-05-04', {});
    expect([alone.status, alone.body.field]).toEqual([422, 'payment_method']);
  });

  it("refuses a suspended or closed account's bookers, saying why, and they see it before paying", async () => {
    const { id, po } = await newAccount('Paused Partners');
    const p = await newPassenger('Pat Paused');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const noReason = await t.call('POST', '/operator/accounts', { id, name: `Paused Partners ${RUN}`, billing_email: 'b@paused.example', terms_days: '30', credit_limit: '1000', status: 'suspended' }, admin);
    expect([noReason.status, noReason.body.field]).toEqual([422, 'status_reason']);
    const suspended = await t.call('POST', '/operator/accounts', {
      id, name: `Paused Partners ${RUN}`, billing_email: 'b@paused.example', terms_days: '30', credit_limit: '1000', status: 'suspended',
      status_reason: 'invoice INV-000012 is overdue',
    }, admin);
    expect(suspended.status).toBe(200);
    const billing = await t.call('GET', '/account/billing', undefined, p.auth);
    expect(billing.body.account).toMatchObject({ status: 'suspended', reason: 'invoice INV-000012 is overdue' });
    const before = await bookingCount();
    const res = await book(p, '2030-05-05', { [po]: 'PO-9' });
    expect([res.status, res.body.field]).toEqual([422, 'payment_method']);
    expect(res.body.message).toMatch(/^Paused Partners \w+'s account is on hold: invoice INV-000012 is overdue\. Bookings cannot be paid on account for now\. Please call us on /);
    await t.call('POST', '/operator/accounts', { id, name: `Paused Partners ${RUN}`, billing_email: 'b@paused.example', terms_days: '30', credit_limit: '1000', status: 'closed', status_reason: 'Closed at their request' }, admin);
    const closed = await book(p, '2030-05-05', { [po]: 'PO-9' });
    expect(closed.body.message).toMatch(/account is closed/);
    expect(await bookingCount()).toBe(before);
  });

  it('refuses a booking past the credit limit, and two at once never both pass it', async () => {
    const probe = await request('2030-05-06', {});
    const fare = Math.round(Number(probe.selectedVehicleData.price) * 100);
    // Room for one such journey and not two.
    const { id, po } = await newAccount('Tight Budget', { credit_limit: ((fare * 1.5) / 100).toFixed(2) });
    const p = await newPassenger('Tess Tight');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const [a, b] = await Promise.all([book(p, '2030-05-06', { [po]: 'PO-A' }), book(p, '2030-05-07', { [po]: 'PO-B' })]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const refused = a.status === 422 ? a : b;
    expect(refused.body.field).toBe('payment_method');
    expect(refused.body.message).toMatch(/would take your company's account past its credit limit: £\d+\.\d\d of £\d+\.\d\d is left\. Please call us on /);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE account_id = $1', [id]);
    expect(n).toBe(1);
  });
});

describe("the month's invoice", () => {
  let account: Awaited<ReturnType<typeof newAccount>>;
  let p: Awaited<ReturnType<typeof newPassenger>>;
  const refs: string[] = [];
  beforeAll(async () => {
    account = await newAccount('Monthly Metrics', { vat_number: 'GB123456789' });
    p = await newPassenger('Mia Monthly');
    await t.call('POST', `/operator/accounts/${account.id}/bookers`, { email: p.email }, admin);
    t.clock.now = new Date('2030-04-20T09:00:00Z');
    for (const [date, po] of [['2030-05-02', 'PO-501'], ['2030-05-20', 'PO-502'], ['2030-06-03', 'PO-601']] as const) {
      const res = await book(p, date, { [account.po]: po, [account.cc]: 'Operations' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      refs.push(res.body.data.booking.booking_number);
    }
    // May's two journeys are driven (one a no-show), June's after June.
    t.clock.now = new Date('2030-05-25T09:00:00Z');
    expect((await t.call('POST', `/operator/bookings/${refs[0]}/complete`, {}, admin)).status).toBe(200);
    expect((await t.call('POST', `/operator/bookings/${refs[1]}/no-show`, {}, admin)).status).toBe(200);
  });

  it('is refused for a month not over, and issues nothing for a month with no journeys', async () => {
    const early = await t.call('POST', '/operator/invoices/run', { month: '2030-05', account_id: account.id }, admin);
    expect([early.status, early.body.field]).toEqual([422, 'month']);
    t.clock.now = new Date('2030-06-01T08:00:00Z');
    const april = await t.call('POST', '/operator/invoices/run', { month: '2030-04', account_id: account.id }, admin);
    expect(april.body.issued).toEqual([]);
  });

  it('lists each finished journey once, numbered in the one sequence, e-mailed, and two runs at once issue it once', async () => {
    const [{ last }] = await t.db.query<{ last: number }>('SELECT last FROM invoice_counter');
    const [one, two] = await Promise.all([
      t.call('POST', '/operator/invoices/run', { account_id: account.id }, admin), t.call('POST', '/operator/invoices/run', { account_id: account.id }, admin),
    ]);
    const issued = [...one.body.issued, ...two.body.issued];
    expect(issued.length).toBe(1);
    expect(issued[0]).toBeGreaterThan(last);
    const list = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    const [inv] = list.body.invoices;
    expect(inv).toMatchObject({ number: issued[0], month: 'May 2030', journeys: 2, status: 'due', due_on: '2030-07-01', paid_on: null });
    const [{ total }] = await t.db.query<{ total: number }>('SELECT sum(total_booking_amount_pence)::int AS total FROM bookings WHERE booking_number = ANY($1)', [refs.slice(0, 2)]);
    expect(inv.gross).toBe((total / 100).toFixed(2));
    expect(inv.amount_due).toBe(inv.gross);
    const [row] = await t.db.query<any>('SELECT net_pence, vat_pence, gross_pence FROM invoices WHERE number = $1', [inv.number]);
    expect(row.net_pence + row.vat_pence).toBe(row.gross_pence);
    expect(row.net_pence).toBe(Math.round((total * 100) / 120));
    const mails = await t.db.query<{ to_address: string; subject: string; body_text: string }>(
      "SELECT to_address, subject, body_text FROM outbound_emails WHERE kind = 'account_invoice' AND subject LIKE $1", [`Invoice ${inv.label}%`]);
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([[`billing.${RUN}@monthlymetrics.example`, `Invoice ${inv.label} for May 2030`]]);
    const again = await t.call('POST', '/operator/invoices/run', { account_id: account.id }, admin);
    expect(again.body.issued).toEqual([]);
  });

  it("is downloadable by the account's bookers only, its PDF listing each journey with the account's fields and the totals", async () => {
    const { body } = await t.call('GET', '/account/invoices', undefined, p.auth);
    const [inv] = body.invoices;
    const pdf = await download(`/account/invoices/${inv.label}`, p.auth);
    expect([pdf.status, pdf.disposition]).toEqual([200, `attachment; filename="invoice-${inv.label}.pdf"`]);
    for (const text of [inv.label, 'May 2030', refs[0], refs[1], 'PO-501', 'PO-502', 'Operations', 'Mia Monthly', `£${inv.gross}`, 'Amount due']) {
      expect(pdf.text).toContain(text);
    }
    expect(pdf.text).not.toContain(refs[2]);
    const stranger = await newPassenger('Nosy Neighbour');
    const other = await newAccount('Other Outfit');
    await t.call('POST', `/operator/accounts/${other.id}/bookers`, { email: stranger.email }, admin);
    expect((await download(`/account/invoices/${inv.label}`, stranger.auth)).status).toBe(404);
    expect((await t.call('GET', '/account/invoices', undefined, stranger.auth)).body.invoices).toEqual([]);
    // A company's staff see their own company's accounts only.
    expect((await download(`/operator/invoices/${inv.label}`, metro)).status).toBe(404);
    const theirs = await t.call('GET', '/operator/accounts', undefined, metro);
    expect(theirs.body.accounts.map((a: any) => a.name)).not.toContain(`Monthly Metrics ${RUN}`);
    // Nor take a booker from another company's account, nor open one.
    const own = await t.call('POST', '/operator/accounts', { name: `Metro Client ${RUN}`, billing_email: 'ap@metro-client.example', terms_days: '30', credit_limit: '100' }, metro);
    expect([own.status, own.body.done]).toEqual([200, `Metro Client ${RUN} saved. Its credit limit, payment terms and status are set by the office.`]);
    const taken = await t.call('POST', `/operator/accounts/${own.body.id}/bookers`, { email: p.email }, metro);
    expect([taken.status, taken.body.field, taken.body.message]).toEqual([422, 'email',
      'No booker can be added or removed with this e-mail. They need a sign-in (Sign In > Create an account); one who books for another account is moved by the office.']);
    // Nor learn who has a sign-in: an unknown address reads the same.
    const nobody = await t.call('POST', `/operator/accounts/${own.body.id}/bookers`, { email: `nobody.${RUN}@example.com` }, metro);
    expect(nobody.body.message).toBe(taken.body.message);
    // The limit, terms and status are the office's: a company's new account has no credit until the office gives it.
    const ownRow = (await t.call('GET', '/operator/accounts', undefined, metro)).body.accounts.find((a: any) => a.id === own.body.id);
    expect([ownRow.credit_limit_pence, ownRow.terms_days, ownRow.status]).toEqual([0, 30, 'active']);
    await t.call('POST', '/operator/accounts', { id: own.body.id, name: `Metro Client ${RUN}`, billing_email: 'ap@metro-client.example', terms_days: '120', credit_limit: '9999', status: 'active' }, metro);
    const after = (await t.call('GET', '/operator/accounts', undefined, metro)).body.accounts.find((a: any) => a.id === own.body.id);
    expect([after.credit_limit_pence, after.terms_days]).toEqual([0, 30]);
    expect((await t.call('POST', `/operator/accounts/${account.id}/fields`, { label: 'Sneaky' }, metro)).status).toBe(404);
    expect((await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, metro)).status).toBe(404);
  });

  it('is never changed by a later change of a charge: a credit note refers to it and is carried onto the next invoice', async () => {
    const { body: list } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    const may = list.invoices[0];
    const before = await download(`/operator/invoices/${may.label}`, admin);
    const [{ total }] = await t.db.query<{ total: number }>('SELECT total_booking_amount_pence AS total FROM bookings WHERE booking_number = $1', [refs[1]]);
    const waived = await t.call('POST', `/operator/bookings/${refs[1]}/charge`, { amount: '0', reason: 'Flight diverted: no-show charge waived' }, admin);
    expect(waived.status, JSON.stringify(waived.body)).toBe(200);
    expect(waived.body.note).toMatch(/^CN-\d{6}$/);
    const after = await download(`/operator/invoices/${may.label}`, admin);
    expect(after.body.equals(before.body)).toBe(true);
    const [row] = await t.db.query<any>('SELECT gross_pence, amount_due_pence FROM invoices WHERE number = $1', [may.number]);
    expect([row.gross_pence, row.amount_due_pence]).toEqual([Math.round(Number(may.gross) * 100), Math.round(Number(may.gross) * 100)]);
    const note = await download(`/account/invoices/${waived.body.note}`, p.auth);
    expect(note.status).toBe(200);
    expect(note.text).toContain(may.label);
    expect(note.text).toContain(refs[1]);
    // June's journey, then June's invoice carries the credit: due = June's journeys less the credit note.
    t.clock.now = new Date('2030-06-04T09:00:00Z');
    expect((await t.call('POST', `/operator/bookings/${refs[2]}/complete`, {}, admin)).status).toBe(200);
    t.clock.now = new Date('2030-07-01T07:00:00Z');
    const june = await t.call('POST', '/operator/invoices/run', { account_id: account.id }, admin);
    expect(june.body.issued.length).toBe(1);
    const { body: again } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    const juneInv = again.invoices[0];
    expect(juneInv.month).toBe('June 2030');
    expect(Math.round(Number(juneInv.amount_due) * 100)).toBe(Math.round(Number(juneInv.gross) * 100) - total);
    expect(juneInv.notes).toEqual([expect.objectContaining({ label: waived.body.note, kind: 'credit', invoice: may.label, carried: true })]);
    const junePdf = await download(`/operator/invoices/${juneInv.label}`, admin);
    expect(junePdf.text).toContain(waived.body.note);
  });

  it("is in a booker's privacy export with their own journeys' lines only, and counted as kept on an erase", async () => {
    // A colleague's journey on the same account, invoiced on June's invoice beside Mia's.
    const colleague = await newPassenger('Colin Colleague');
    await t.call('POST', `/operator/accounts/${account.id}/bookers`, { email: colleague.email }, admin);
    const { body: list } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    const june = list.invoices.find((i: any) => i.month === 'June 2030');
    const [line] = (await t.db.query<{ lines: any[] }>('SELECT lines FROM invoices WHERE number = $1', [june.number]))[0].lines;
    await t.db.query(`UPDATE invoices SET lines = lines || $2::jsonb WHERE number = $1`, [june.number,
      JSON.stringify([{ ...line, booking_number: 'BK-COLLEAG1', passenger: 'Colin Colleague' }])]);
    const exported = await t.call('POST', '/operator/privacy/export', { email: p.email }, admin);
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const invoices = exported.body.sections.find((x: any) => x.table === 'invoices');
    const junes = invoices.rows.find((r: any) => r.number === june.number);
    expect(junes.lines.map((l: any) => l.booking_number)).toEqual([refs[2]]);
    expect(JSON.stringify(exported.body)).not.toContain('Colin Colleague');
    const notes = exported.body.sections.find((x: any) => x.table === 'invoice_notes');
    expect(notes.rows.map((n: any) => n.booking_id)).toContain((await t.db.query<{ id: number }>('SELECT id FROM bookings WHERE booking_number = $1', [refs[1]]))[0].id);
  });

  it('is marked paid by the office with its date, not by a company\'s staff', async () => {
    const { body } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    const inv = body.invoices[1];
    expect((await t.call('POST', `/operator/invoices/${inv.number}/paid`, { paid_on: '2030-06-20' }, metro)).status).toBe(403);
    const future = await t.call('POST', `/operator/invoices/${inv.number}/paid`, { paid_on: '2031-01-01' }, admin);
    expect([future.status, future.body.field]).toEqual([422, 'paid_on']);
    const paid = await t.call('POST', `/operator/invoices/${inv.number}/paid`, { paid_on: '2030-06-20' }, admin);
    expect(paid.status).toBe(200);
    const { body: after } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    expect(after.invoices[1]).toMatchObject({ status: 'paid', paid_on: '2030-06-20', paid_by: ADMIN.name });
    // The booker sees it paid, and no name of the office's staff.
    const mine = (await t.call('GET', '/account/invoices', undefined, p.auth)).body.invoices.find((i: any) => i.number === inv.number);
    expect(mine).toMatchObject({ status: 'paid', paid_on: '2030-06-20', paid_by: null });
    t.clock.now = new Date('2030-08-15T09:00:00Z');
    const { body: late } = await t.call('GET', `/operator/invoices?account=${account.id}`, undefined, admin);
    expect(late.invoices[0].status).toBe('overdue');
  });

  it("lets a booker filter their journeys by date and field and download them as CSV", async () => {
    const filtered = await t.call('GET', `/account/journeys?from=2030-05-01&to=2030-05-31&field=PO%20number&value=po-50`, undefined, p.auth);
    expect(filtered.status).toBe(200);
    expect(filtered.body.journeys.map((j: any) => j.booking_number).sort()).toEqual(refs.slice(0, 2).sort());
    const csv = await t.app.request('/api/v1/account/journeys.csv?from=2030-06-01', { headers: { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret', ...p.auth } });
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('Booking number,Pickup date,Pickup time,Pickup,Destination,Passenger,Vehicle,Payment,Status,Amount (GBP),Invoice,PO number,Cost centre');
    expect(text).toContain(`${refs[2]},03-06-2030`);
    expect(text).toContain('PO-601,Operations');
    const bad = await t.call('GET', '/account/journeys?from=2030-13-01', undefined, p.auth);
    expect([bad.status, bad.body.field, bad.body.message]).toEqual([422, 'from', 'Enter the first day as a date, like 01/10/2026.']);
  });
});

describe('npm run admin', () => {
  it('adds an account with a field and a booker, lists it, issues and marks paid its invoice', async () => {
    const { runAdmin } = await import('../../src/server/operator/adminCommands');
    const name = `Admin Analytics ${RUN}`;
    expect(await runAdmin(t.db, ['add-account', '--name', name, '--email', `ap.${RUN}@analytics.example`, '--limit', '2500', '--terms', '14']))
      .toMatch(new RegExp(`^Account \\d+: ${name}, limit £2500.00$`));
    await expect(runAdmin(t.db, ['add-account', '--name', `Bad ${RUN}`, '--email', 'x@y.example', '--limit', '12.345'])).rejects.toThrow('--limit: Credit limit: an amount in pounds');
    expect(await runAdmin(t.db, ['account-field', '--account', name, '--label', 'Project', '--required', '--options', 'Alpha,Beta']))
      .toBe(`${name}: Project (required)`);
    const p = await newPassenger('Ada Admin');
    expect(await runAdmin(t.db, ['add-booker', '--account', name, '--email', p.email])).toBe(`Ada Admin now books for ${name}`);
    const listed = await runAdmin(t.db, ['accounts']);
    const line = listed.split('\n').find((l) => l.includes(name))!;
    expect(line).toContain('Project* [Alpha|Beta]');
    expect(line).toContain(p.email);
    await expect(runAdmin(t.db, ['issue-invoices', '--month', 'May'])).rejects.toThrow('--month must be a month, like 2026-10');
    await expect(runAdmin(t.db, ['invoice-paid', 'INV-999999', '--on', '2026-01-01'])).rejects.toThrow('No account invoice INV-999999');
    await expect(runAdmin(t.db, ['invoice-paid', 'CN-1'])).rejects.toThrow('Name the invoice');
  });
});

describe('a change of a journey on account', () => {
  it('that raises its price past the credit limit is refused on the price, the booking unchanged', async () => {
    const { id, po } = await newAccount('Change Partners');
    const p = await newPassenger('Cy Change');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const before = await setSetting(t.db, 'MEET_AND_GREET', '10').then(() => '10');
    try {
      const req = await request('2031-03-04', { [po]: 'PO-CH' }, p.email);
      req.bookingForm = { ...req.bookingForm, meet_and_greet: 'yes' } as typeof req.bookingForm;
      const res = await t.call('POST', '/booking', req, { ...p.auth, 'Idempotency-Key': `acct-${RUN}-change` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const b = res.body.data.booking;
      const key = { 'X-Manage-Key': res.body.data.manage_key };
      // The account's limit is now exactly what it has booked.
      await t.call('POST', '/operator/accounts', {
        id, name: `Change Partners ${RUN}`, billing_email: `billing.${RUN}@changepartners.example`, terms_days: '30', credit_limit: b.total_booking_amount,
      }, admin);
      await setSetting(t.db, 'MEET_AND_GREET', '30');
      const form = (await t.call('GET', `/manage/${b.booking_number}`, undefined, key)).body.manage.form;
      const asked = await t.call('POST', `/manage/${b.booking_number}/changes`, { ...form, pickup_hour: '8am' }, key);
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'confirm', difference: '20.00' });
      const refused = await t.call('POST', `/manage/${b.booking_number}/changes`, { ...form, pickup_hour: '8am', accept_total: asked.body.new_total }, key);
      expect([refused.status, refused.body.field]).toEqual([422, 'accept_total']);
      expect(refused.body.message).toMatch(/^This change \(£\d+\.\d\d\) would take your company's account past its credit limit: £(\d+\.\d\d) of £\1 is left\./);
      const [row] = await t.db.query<{ total: number; time: string }>('SELECT total_booking_amount_pence AS total, pick_up_time AS time FROM bookings WHERE id = $1', [b.id]);
      expect([row.total / 100, row.time]).toEqual([Number(b.total_booking_amount), '06:30']);
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', before);
    }
  });
});

describe('keeping personal data only as long as needed', () => {
  it("anonymises an account's invoice once the invoices' time is up: no passenger, the route as postcode districts", async () => {
    const { removeExpiredPersonalData } = await import('../../src/server/privacy/job');
    const { loadSettings } = await import('../../src/server/deps');
    const [inv] = await t.db.query<{ number: number }>(`SELECT i.number FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE a.name = $1 ORDER BY i.number LIMIT 1`, [`Monthly Metrics ${RUN}`]);
    const settings = await loadSettings(t.db);
    // Within its time (six years from 2030): kept whole.
    await removeExpiredPersonalData(t.db, settings, new Date('2034-01-01T00:00:00Z'));
    const [kept] = await t.db.query<{ lines: any[] }>('SELECT lines FROM invoices WHERE number = $1', [inv.number]);
    expect(kept.lines[0]).toMatchObject({ passenger: 'Mia Monthly', route: expect.stringContaining('Paddington Station') });
    await removeExpiredPersonalData(t.db, settings, new Date('2037-01-01T00:00:00Z'));
    const [row] = await t.db.query<{ lines: any[]; personal_data_removed_at: Date | null; gross_pence: number }>(
      'SELECT lines, personal_data_removed_at, gross_pence FROM invoices WHERE number = $1', [inv.number]);
    expect(row.personal_data_removed_at).not.toBeNull();
    expect(row.lines.map((l) => [l.passenger, l.route])).toEqual(row.lines.map(() => ['', expect.stringMatching(/^W2 to TW6( \(passenger did not show\))?$/)]));
    expect(row.lines[0].fields).toEqual([{ label: 'PO number', value: 'PO-501' }, { label: 'Cost centre', value: 'Operations' }]);
  });
});

describe("a journey on account's own download", () => {
  it('says it is on account, is not a receipt of a payment, and takes no VAT invoice number of its own', async () => {
    const { id, po } = await newAccount('Receipt Readers');
    const p = await newPassenger('Rhea Receipt');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const res = await book(p, '2031-04-02', { [po]: 'PO-RR' });
    expect(res.status).toBe(200);
    const [{ last }] = await t.db.query<{ last: number }>('SELECT last FROM invoice_counter');
    const pdf = await download(`/manage/${res.body.data.booking.booking_number}/receipt`, { 'X-Manage-Key': res.body.data.manage_key });
    expect([pdf.status, pdf.disposition]).toEqual([200, `attachment; filename="receipt-${res.body.data.booking.booking_number}.pdf"`]);
    expect(pdf.text).toContain('On account: invoiced with');
    expect(pdf.text).toContain('Booking confirmation');
    expect((await t.db.query<{ last: number }>('SELECT last FROM invoice_counter'))[0].last).toBe(last);
  });
});

describe('booking on account for someone else', () => {
  it('names the passenger beside the booker, tells the passenger and copies the booker, and the invoice line is the passenger\'s', async () => {
    const { id, po } = await newAccount('Guest Hosts');
    const p = await newPassenger('Hal Host');
    await t.call('POST', `/operator/accounts/${id}/bookers`, { email: p.email }, admin);
    const req = await request('2031-05-07', { [po]: 'PO-GUEST' }, p.email);
    req.registrationData = {
      ...req.registrationData, passengerDetails: 'yes', passengerName: 'Vera', passengerLastname: 'Visitor',
      passengerEmail: `vera.${RUN}@example.com`, passengerPhone: '07700 900888',
    } as typeof req.registrationData;
    const res = await t.call('POST', '/booking', req, { ...p.auth, 'Idempotency-Key': `acct-${RUN}-guest` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.passengerDetails).toMatchObject({ passenger_name: 'Vera Visitor', passenger_email: `vera.${RUN}@example.com`, passenger_contact_no: '+447700900888' });
    const to = await t.db.query<{ to_address: string }>(
      "SELECT to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY to_address", [res.body.data.booking.id]);
    expect(to.map((m) => m.to_address).sort()).toEqual([p.email, `vera.${RUN}@example.com`].sort());
    await t.db.query("UPDATE bookings SET status = 'completed' WHERE id = $1", [res.body.data.booking.id]);
    t.clock.now = new Date('2031-06-02T09:00:00Z');
    const run = await t.call('POST', '/operator/invoices/run', { month: '2031-05', account_id: id }, admin);
    expect(run.body.issued.length).toBe(1);
    const [inv] = await t.db.query<{ lines: { passenger: string; booking_number: string }[] }>('SELECT lines FROM invoices WHERE number = $1', [run.body.issued[0]]);
    expect(inv.lines).toEqual([expect.objectContaining({ booking_number: res.body.data.booking.booking_number, passenger: 'Vera Visitor' })]);
  });
});
