// Issue 39 item 4 (decision 48): invoices that never change. A VAT invoice is issued only for a booking paid by card or
// completed, keeps what it showed when issued (a download after the rate, the settings and the booking changed shows
// the same amounts, the same bytes), and a later difference in what was paid is a credit or debit note referring to
// it, numbered without gaps in a sequence of its own, listed on the invoice and downloaded as a PDF of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KEYS, TEST_SECURITY, openTestDb, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { localKeys } from '../../src/server/payments/provider';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { invoiceOf, settleInvoice, vatOf } from '../../src/server/payments/invoices';
import { NOT_A_VAT_INVOICE } from '../../src/server/manage/receipt';
import { RECEIPT_MESSAGES } from '../../src/server/manage/manage';
import { MIGRATIONS_DIR, migrate } from '../../src/server/db/migrate';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
  await setSetting(t.db, 'VAT_RATE', '20');
});
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes',
  pickup_fight_number: '',
};
let counter = 0;
const PK = localKeys(TEST_SECURITY.secret).publishableKey;
interface Booked { reference: string; id: number; key: string }

async function book(pay: 'car' | 'card' = 'car', vehicles = 1): Promise<Booked> {
  const email = `invoiced.${++counter}@example.com`;
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: vehicles, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email, additionalInfo: '' },
    payment_method: pay, selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  if (pay === 'car') {
    const res = await t.call('POST', '/booking', request);
    expect(res.status).toBe(200);
    return { reference: res.body.data.booking.booking_number, id: res.body.data.booking.id, key: res.body.data.manage_key };
  }
  const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json();
  const idem = { 'Idempotency-Key': `invoice-card-${counter}-${Date.now()}` };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) * vehicles }, idem);
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, idem);
  expect(done.status).toBe(200);
  return { reference: done.body.data.booking.booking_number, id: done.body.data.booking.id, key: done.body.data.manage_key };
}

async function staff() {
  const res = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

/** The office marks it completed, once its pickup time has come. */
async function complete(b: Booked) {
  const cookie = await staff();
  const was = t.clock.now;
  t.clock.now = new Date('2030-09-12T09:00:00Z');
  try {
    expect((await t.call('POST', `/operator/bookings/${b.reference}/complete`, {}, cookie)).status).toBe(200);
  } finally {
    t.clock.now = was;
  }
}

/** The text a PDF shows, as a reader would copy it: each text run of its (compressed) pages, in order. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const runs: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try { content = inflateSync(pdf.subarray(start, end)).toString('latin1'); } catch { continue; }
    for (const tj of content.matchAll(/\[(.*?)\]\s*TJ/g)) {
      runs.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''));
    }
  }
  return runs.join('\n');
}

async function download(b: Booked, document?: string) {
  const res = await t.app.request(`/api/v1/manage/${b.reference}/receipt${document ? `?document=${document}` : ''}`, { headers: { ...KEYS, 'X-Manage-Key': b.key } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, disposition: res.headers.get('content-disposition'), body, text: res.status === 200 ? pdfText(body) : body.toString() };
}

const counters = async () => {
  const [{ invoices }] = await t.db.query<{ invoices: number }>('SELECT last AS invoices FROM invoice_counter');
  const notes = Object.fromEntries((await t.db.query<{ kind: string; last: number }>('SELECT kind, last FROM invoice_note_counters')).map((r) => [r.kind, r.last]));
  return { invoices, credit: notes.credit as number, debit: notes.debit as number };
};
const label = (prefix: string, n: number) => `${prefix}-${String(n).padStart(6, '0')}`;
const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
const totalOf = async (b: Booked) =>
  (await t.db.query<{ pence: number }>('SELECT total_booking_amount_pence AS pence FROM bookings WHERE id = $1', [b.id]))[0].pence;

describe('a VAT invoice', () => {
  it('is not issued for a booking not yet paid: its download is a dated booking confirmation that says so, and uses no number', async () => {
    const b = await book();
    const before = await counters();
    const res = await download(b);
    expect([res.status, res.disposition]).toEqual([200, `attachment; filename="receipt-${b.reference}.pdf"`]);
    for (const words of ['Booking confirmation', 'As at', NOT_A_VAT_INVOICE, 'To be paid in the car']) expect(res.text.replace(/\s+/g, ' ')).toContain(words);
    expect(res.text).not.toContain('VAT invoice\n');
    expect(res.text).not.toMatch(/INV-\d{6}/);
    expect(await counters()).toEqual(before);
    expect(await invoiceOf(t.db, b.id)).toBeNull();
    const receiptOf = async () => (await t.call('GET', `/manage/${b.reference}`, undefined, { 'X-Manage-Key': b.key })).body.manage.receipt;
    expect(await receiptOf()).toEqual({ invoice: false, documents: [] });

    // Completed by the office (paid in the car): the next download is its VAT invoice, with the next number.
    await complete(b);
    expect(await receiptOf()).toEqual({ invoice: true, documents: [] });
    const issued = await download(b);
    expect(issued.disposition).toBe(`attachment; filename="invoice-${label('INV', before.invoices + 1)}.pdf"`);
    const total = await totalOf(b);
    const { net, vat } = vatOf(total, 20);
    for (const words of ['VAT invoice', label('INV', before.invoices + 1), 'VAT number: GB 123 4567 89', 'Customer', 'Amelia Hart', 'Paid in the car',
      'VAT at 20%', pounds(net), pounds(vat), pounds(total)]) expect(issued.text, words).toContain(words);
    expect(issued.text).not.toContain(NOT_A_VAT_INVOICE);
    // The page lists it, issuing nothing more.
    expect(await receiptOf()).toEqual({ invoice: true, documents: [
      { number: label('INV', before.invoices + 1), title: 'VAT invoice', issued_on: expect.stringMatching(/^\d{2}-\d{2}-\d{4}$/), amount: (total / 100).toFixed(2) }] });
    expect((await counters()).invoices).toBe(before.invoices + 1);
  });

  it('shows the same amounts, the same bytes, after the rate was lowered, the settings changed and a refund was made; the refund is its credit note', async () => {
    const b = await book('card');
    const paid = await totalOf(b);
    const before = await counters();
    const first = await download(b);
    const number = label('INV', before.invoices + 1);
    expect(first.disposition).toBe(`attachment; filename="invoice-${number}.pdf"`);
    const { net, vat } = vatOf(paid, 20);
    for (const words of [number, 'VAT at 20%', pounds(net), pounds(vat), pounds(paid), 'Paid by card on', '27 Old Gloucester Street']) {
      expect(first.text, words).toContain(words);
    }
    expect(first.text).not.toContain('Credit and debit notes');

    // The rate is lowered, the seller moves, and the passenger moves the pickup to a cheaper time: £6 back to the card.
    await setSetting(t.db, 'VAT_RATE', '5');
    await setSetting(t.db, 'Company_Address', '1 New Street, Leeds LS1 1AA');
    await setSetting(t.db, 'MEET_AND_GREET', '4');
    try {
      const values = (await t.call('GET', `/manage/${b.reference}`, undefined, { 'X-Manage-Key': b.key })).body.manage.form;
      const asked = await t.call('POST', `/manage/${b.reference}/changes`, { ...values, pickup_min: '30' }, { 'X-Manage-Key': b.key });
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'refund', difference: '6.00' });
      const saved = await t.call('POST', `/manage/${b.reference}/changes`, { ...values, pickup_min: '30', accept_total: asked.body.new_total }, { 'X-Manage-Key': b.key });
      expect(saved.body).toMatchObject({ status: 'saved', refund: { status: 'succeeded' } });

      const again = await download(b);
      expect(again.disposition).toBe(`attachment; filename="invoice-${number}.pdf"`);
      // Everything the invoice showed, as it showed it; then its note.
      const issued = first.text.slice(0, first.text.indexOf('Thank you'));
      expect(again.text.slice(0, issued.length)).toBe(issued);
      const credit = label('CN', before.credit + 1);
      const notes = again.text.slice(issued.length);
      for (const words of ['Credit and debit notes', `Credit note ${credit} of`, `-${pounds(600)}`, 'Total after notes', pounds(paid - 600)]) {
        expect(notes, words).toContain(words);
      }
      expect(again.text).not.toContain('VAT at 5%');
      expect(again.text).not.toContain('Leeds');
      // Asked for again: nothing new to settle, and the very same file.
      expect((await download(b)).body.equals(again.body)).toBe(true);
      expect(await counters()).toEqual({ ...before, invoices: before.invoices + 1, credit: before.credit + 1 });

      const note = await download(b, credit);
      expect([note.status, note.disposition]).toEqual([200, `attachment; filename="credit-note-${credit}.pdf"`]);
      const split = vatOf(600, 20);
      for (const words of ['Credit note', credit, 'For VAT invoice', number, b.reference, 'Amelia Hart', 'Refunded to the card', 'VAT at 20%',
        pounds(split.net), pounds(split.vat), pounds(600), `reduces VAT invoice ${number} by ${pounds(600)}`]) expect(note.text, words).toContain(words);
      expect(note.text).not.toContain('Leeds');
      // The invoice by its own number is the same document.
      expect((await download(b, number)).body.equals(again.body)).toBe(true);
    } finally {
      await setSetting(t.db, 'VAT_RATE', '20');
      await setSetting(t.db, 'Company_Address', '27 Old Gloucester Street, London WC1N 3AX');
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });

  it('of a card booking cancelled with a full refund is credited in full', async () => {
    const b = await book('card');
    const paid = await totalOf(b);
    await download(b);
    const before = await counters();
    const cancelled = await t.call('POST', `/manage/${b.reference}/cancel`, {}, { 'X-Manage-Key': b.key });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refund: { status: 'succeeded' } });
    // The note is issued when the refund is made, not when someone next downloads: the accounts see it that day.
    const [note] = await t.db.query<{ gross_pence: number }>(
      "SELECT n.gross_pence FROM invoice_notes n JOIN invoices i ON i.number = n.invoice_number WHERE i.booking_id = $1 AND n.kind = 'credit'", [b.id]);
    expect(note?.gross_pence).toBe(paid);
    const after = await download(b);
    const credit = label('CN', before.credit + 1);
    for (const words of [`Credit note ${credit} of`, `-${pounds(paid)}`, 'Total after notes', '£0.00']) expect(after.text, words).toContain(words);
  });

  it('first issued after a refund shows what was paid: the price lines, each for all the vehicles, and what was refunded or is being refunded', async () => {
    // Two vehicles, the office cancelled with £10 back: the invoice is for what the card kept.
    const b = await book('card', 2);
    const total = await totalOf(b);
    const cookie = await staff();
    expect((await t.call('POST', `/operator/bookings/${b.reference}/cancel`, { reason: 'Plans changed', refund: 'yes', refund_amount: '10.00' }, cookie)).status).toBe(200);
    const inv = await download(b);
    const [line] = (await t.db.query<{ amount: string }>("SELECT price_breakdown->'lines'->0->>'amount' AS amount FROM bookings WHERE id = $1", [b.id]));
    const fare = (await invoiceOf(t.db, b.id))!.lines[0];
    expect(fare).toEqual({ description: expect.stringMatching(/ \(2 vehicles\)$/), pence: Math.round(Number(line.amount) * 100) * 2 });
    for (const words of ['Refunded to the card', `-${pounds(1000)}`, 'Total (gross)', pounds(total - 1000), 'Paid by card on']) expect(inv.text, words).toContain(words);
    expect(inv.text).not.toContain('Credit and debit notes');

    // A refund still being made when the invoice is first issued: paid is paid, and its success is the credit note.
    const c = await book('card');
    const paid = await totalOf(c);
    await setSetting(t.db, 'MEET_AND_GREET', '4');
    try {
      const values = (await t.call('GET', `/manage/${c.reference}`, undefined, { 'X-Manage-Key': c.key })).body.manage.form;
      await t.call('POST', `/manage/${c.reference}/changes`, { ...values, pickup_min: '30', accept_total: ((paid - 600) / 100).toFixed(2) }, { 'X-Manage-Key': c.key });
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
    await t.db.query("UPDATE refunds SET status = 'pending' WHERE booking_id = $1", [c.id]);
    const before = await counters();
    const early = await download(c);
    for (const words of ['Paid beyond the price (a refund is being made)', pounds(600), 'Total (gross)', pounds(paid)]) expect(early.text, words).toContain(words);
    expect(await t.db.transaction((tx) => settleInvoice(tx, c.id))).toBeNull();
    await t.db.query("UPDATE refunds SET status = 'succeeded' WHERE booking_id = $1", [c.id]);
    expect(await t.db.transaction((tx) => settleInvoice(tx, c.id))).toMatchObject({ kind: 'credit', number: before.credit + 1, gross_pence: 600 });

    // A change's difference paid by card is a debit note; a payment for a replaced change, refunded in full, is neither.
    const change = (status: string, intent: string, pence: number) => t.db.query(
      `INSERT INTO booking_changes (booking_id, before, after, old_total_pence, new_total_pence, status, payment_intent_id, paid_pence)
       VALUES ($1, '{}', '{}', 0, 0, $2, $3, $4)`, [c.id, status, intent, pence]);
    await change('replaced', `pi_replaced_${c.id}`, 900);
    await t.db.query("INSERT INTO refunds (booking_id, amount_pence, payment_intent_id, status) VALUES ($1, 900, $2, 'succeeded')", [c.id, `pi_replaced_${c.id}`]);
    expect(await t.db.transaction((tx) => settleInvoice(tx, c.id))).toBeNull();
    await change('applied', `pi_applied_${c.id}`, 2000);
    expect(await t.db.transaction((tx) => settleInvoice(tx, c.id))).toMatchObject({
      kind: 'debit', number: before.debit + 1, gross_pence: 2000, lines: [{ description: 'Further payment by card for a change', pence: 2000 }] });
  });

  it('is not issued for a card booking refunded in full before anyone asked for it: its receipt says so', async () => {
    const b = await book('card');
    await t.call('POST', `/manage/${b.reference}/cancel`, {}, { 'X-Manage-Key': b.key });
    const before = await counters();
    const res = await download(b);
    expect(res.disposition).toBe(`attachment; filename="receipt-${b.reference}.pdf"`);
    for (const words of ['Receipt', NOT_A_VAT_INVOICE, 'refunded to the card']) expect(res.text.replace(/\s+/g, ' ')).toContain(words);
    expect(await counters()).toEqual(before);
  });

  it('numbers stay without gaps when many are asked for at once, and bookings not paid take none', async () => {
    const paid = [await book(), await book(), await book(), await book()];
    const unpaid = [await book(), await book(), await book()];
    for (const b of paid) await complete(b);
    const before = await counters();
    const all = await Promise.all([...paid, ...unpaid, ...paid, ...unpaid].map((b) => download(b)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(await counters()).toEqual({ ...before, invoices: before.invoices + paid.length });
    const numbers = await Promise.all(paid.map(async (b) => (await invoiceOf(t.db, b.id))!.number));
    expect([...numbers].sort((x, y) => x - y)).toEqual(paid.map((_, i) => before.invoices + 1 + i));
    for (const [i, b] of paid.entries()) {
      const name = `attachment; filename="invoice-${label('INV', numbers[i])}.pdf"`;
      expect([all[i].disposition, all[i + paid.length + unpaid.length].disposition]).toEqual([name, name]);
    }
    for (const b of unpaid) expect(await invoiceOf(t.db, b.id)).toBeNull();
  });

  it('is downloaded with its notes only by its own booking, and a document that is not a number is named', async () => {
    const mine = await book();
    const theirs = await book('card');
    await complete(mine);
    await download(mine);
    await download(theirs);
    await t.call('POST', `/manage/${theirs.reference}/cancel`, {}, { 'X-Manage-Key': theirs.key });
    await download(theirs);
    const [{ number }] = await t.db.query<{ number: number }>(
      "SELECT n.number FROM invoice_notes n JOIN invoices i ON i.number = n.invoice_number WHERE i.booking_id = $1 AND n.kind = 'credit'", [theirs.id]);
    const other = await download(mine, label('CN', number));
    expect([other.status, JSON.parse(other.text).message]).toEqual([404, RECEIPT_MESSAGES.noDocument]);
    const bad = await download(mine, 'invoice.pdf');
    expect([bad.status, JSON.parse(bad.text).field]).toEqual([422, 'document']);
    expect((await download(theirs, label('CN', number))).status).toBe(200);
  });
});

describe('settling an invoice', () => {
  it('issues one note for a difference however often and however concurrently it is asked, and nothing without an invoice', async () => {
    const b = await book();
    expect(await t.db.transaction((tx) => settleInvoice(tx, b.id))).toBeNull();
    await complete(b);
    await download(b);
    const before = await counters();
    const total = await totalOf(b);
    // A price raised after completion (paid in the car): one debit note for the £5, at the invoice's rate.
    await t.db.query('UPDATE bookings SET total_booking_amount_pence = total_booking_amount_pence + 500 WHERE id = $1', [b.id]);
    await setSetting(t.db, 'VAT_RATE', '5');
    try {
      const both = await Promise.all([1, 2].map(() => t.db.transaction((tx) => settleInvoice(tx, b.id))));
      const issued = both.filter((n) => n !== null);
      expect(issued).toHaveLength(1);
      const split = vatOf(500, 20);
      expect(issued[0]).toMatchObject({ kind: 'debit', number: before.debit + 1, gross_pence: 500, net_pence: split.net, vat_pence: split.vat, vat_rate: 20,
        lines: [{ description: 'Price increased', pence: 500 }] });
      expect(await t.db.transaction((tx) => settleInvoice(tx, b.id))).toBeNull();
      // Lowered below the invoice: a credit note for the £7 back down.
      await t.db.query('UPDATE bookings SET total_booking_amount_pence = $2 WHERE id = $1', [b.id, total - 200]);
      expect(await t.db.transaction((tx) => settleInvoice(tx, b.id))).toMatchObject({ kind: 'credit', number: before.credit + 1, gross_pence: 700 });
      expect(await t.db.transaction((tx) => settleInvoice(tx, b.id))).toBeNull();
      const text = (await download(b)).text;
      for (const words of [`Debit note ${label('DN', before.debit + 1)}`, pounds(500), `Credit note ${label('CN', before.credit + 1)}`, `-${pounds(700)}`,
        'Total after notes', pounds(total - 200)]) expect(text, words).toContain(words);
      expect(await counters()).toEqual({ invoices: before.invoices, credit: before.credit + 1, debit: before.debit + 1 });
    } finally {
      await setSetting(t.db, 'VAT_RATE', '20');
    }
  });
});

describe('migration 016', () => {
  it('keeps an invoice issued before it as its booking stood: the price lines, net, VAT and gross at its rate, the seller and buyer', async () => {
    const db = await openTestDb();
    try {
      // The database as migration 015 left it, with an invoice as 014 issued it.
      await db.exec('CREATE TABLE schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.*\.sql$/.test(f) && f < '016').sort()) {
        await db.exec(readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'));
        await db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file.replace(/\.sql$/, '')]);
      }
      await db.exec(`
        INSERT INTO settings VALUES ('Company_Name', 'Albion Executive Cars'), ('Company_Address', '27 Old Gloucester Street'),
          ('Company_Contact_Info', '020 7946 0000'), ('Company_Email', 'office@example.co.uk');
        INSERT INTO companies (id, company_name) VALUES (1, 'Metro Cars London');
        INSERT INTO vehicle_types (id, category_name, seats, luggage, hand_luggage, image) VALUES (1, 'Saloon', 4, 2, 2, 'saloon.png');
        INSERT INTO bookings (id, booking_number, ride_type, booking_type, company_id, vehicle_type_id, registration_mode, pick_up_address,
          drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown,
          payment_method, payment_status, status)
        VALUES (7, 'BK-MIGRATE1', 'one_way', 'milleage', 1, 1, 'guest', 'Heathrow T5', 'Trafalgar Square', '2030-09-12', '07:15', 2, 2350, 4700,
          '{"lines": [{"label": "Journey fare", "amount": "20.00"}, {"label": "Meet and greet", "amount": "3.50"}]}', 'car', 'due_in_car', 'confirmed');
        INSERT INTO booking_passengers (booking_id, passenger_name, passenger_email, passenger_contact_no) VALUES (7, 'Amelia Hart', 'a@example.com', '+447700900012');
        INSERT INTO invoices (number, booking_id, vat_number, vat_rate) VALUES (9, 7, 'GB 123 4567 89', 17.5);
        UPDATE invoice_counter SET last = 9;`);
      expect(await migrate(db)).toContain('016_invoice_records');
      const inv = (await invoiceOf(db, 7))!;
      const { net, vat } = vatOf(4700, 17.5);
      expect(inv).toMatchObject({
        number: 9, vat_rate: 17.5, gross_pence: 4700, net_pence: net, vat_pence: vat,
        lines: [{ description: 'Journey fare', pence: 4000 }, { description: 'Meet and greet', pence: 700 }],
        seller: { name: 'Albion Executive Cars', lines: ['27 Old Gloucester Street', '020 7946 0000  |  office@example.co.uk'] },
        buyer: { name: 'Amelia Hart' }, payment: 'To be paid in the car',
      });
      expect(inv.journey).toEqual([
        { label: 'Pickup', value: 'Heathrow T5' }, { label: 'Drop-off', value: 'Trafalgar Square' }, { label: 'Pickup date', value: '12-09-2030' },
        { label: 'Pickup time', value: '07:15' }, { label: 'Vehicle', value: 'Saloon, Metro Cars London' },
      ]);
      const [{ snapshot }] = await db.query<{ snapshot: string }>('SELECT snapshot FROM invoices WHERE number = 9');
      expect(snapshot).toBe('migrated');
      // Cancelled since (nothing was paid in the car): the next settling credits it in full.
      await db.query("UPDATE bookings SET status = 'cancelled' WHERE id = 7");
      expect(await db.transaction((tx) => settleInvoice(tx, 7))).toMatchObject({ kind: 'credit', number: 1, gross_pence: 4700, vat_rate: 17.5 });
    } finally {
      await db.close();
    }
  });
});
