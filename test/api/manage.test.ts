// Issue 27 parts 1 and 2, through the API: a booking's "Manage your booking" key (made with the booking, stored only
// as a hash), the page's call that it opens (its own booking only: BOLA), expired and wrong keys, and "Find my
// booking" (the same answer whether or not it matches, the link to the booking's own address, limits).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, recordDriverAndCar, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';
import { hashKey } from '../../src/server/bookings/manageKeys';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { inflateSync } from 'node:zlib';
import { setSetting } from '../../src/server/operator/operator';
import { vatOf } from '../../src/server/payments/invoices';
import { printable } from '../../src/server/manage/receipt';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
};
let counter = 0;
async function book(email = `amelia.${++counter}@example.com`) {
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email },
  });
  expect(res.status).toBe(200);
  return res.body.data as { booking: { id: number; booking_number: string }; manage_key: string };
}
const view = (reference: string, key?: string) => t.call('GET', `/manage/${reference}`, undefined, key === undefined ? {} : { 'X-Manage-Key': key });

describe("a booking's key", () => {
  it('comes once, with the booking, and is kept only as its hash; the confirmation carries its link, erased once sent', async () => {
    const b = await book();
    expect(b.manage_key).toMatch(/^[\w-]{43}$/);
    const rows = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM booking_keys WHERE booking_id = $1', [b.booking.id]);
    expect(rows).toEqual([{ key_hash: hashKey(b.manage_key) }]);
    const link = `${TEST_SITE_URL}/manage/${b.booking.booking_number}#key=${b.manage_key}`;
    const holding = async () => (await t.db.query<{ kind: string }>(
      `SELECT kind FROM outbound_emails WHERE booking_id = $1
          AND (body_text LIKE '%' || $2 || '%' OR body_html LIKE '%' || $2 || '%' OR template_data LIKE '%' || $2 || '%')`,
      [b.booking.id, b.manage_key])).map((r) => r.kind);
    // Only the passenger's confirmation holds it, never the office's notice.
    expect(await holding()).toEqual(['booking_confirmation']);
    await t.mail.deliverDue();
    const sent = t.mailbox.sent.find((m) => m.subject === `Booking confirmed: ${b.booking.booking_number}`)!;
    expect(sent.text.split('\n').find((l) => l.includes(link))).toMatch(/^Manage your booking +https:/);
    expect(sent.html).toContain(`<a href="${link}">`);
    // What the fare includes: the pickup is Heathrow, so the free waiting counts from the landing.
    expect(sent.text).toMatch(/Free waiting +45 minutes of free waiting after the flight lands/);
    expect(await holding()).toEqual([]);
  });

  it('opens its own booking: the status in words, every detail, the price lines, the payment, the deadlines in UK time', async () => {
    t.clock.now = new Date('2030-09-01T12:00:00Z');
    try {
      const b = await book();
      const res = await view(b.booking.booking_number, b.manage_key);
      expect(res.status).toBe(200);
      expect(res.body.booking.booking.booking_number).toBe(b.booking.booking_number);
      expect(res.body.booking.manage_key).toBeUndefined();
      expect(res.body.manage).toMatchObject({
        status: 'confirmed', status_words: 'Confirmed', driver: null, cancelled: null, refund: null,
        payment: { method: 'car', status: 'due_in_car', test: false },
        // 07:15 BST on Thursday 12 September 2030: changes until 2 hours before, free cancelling until 24 hours before.
        change_until: 'Thursday 12 September 2030 at 05:15', cancel_until: 'Wednesday 11 September 2030 at 07:15',
        may: { change: true, cancel: true },
      });
      expect(res.body.manage.breakdown.length).toBeGreaterThan(0);
      t.clock.now = new Date('2030-09-11T07:00:00Z'); // 08:00 BST on the 11th: past the free cancelling, before the change cut-off
      expect((await view(b.booking.booking_number, b.manage_key)).body.manage.may).toEqual({ change: true, cancel: false });
    } finally {
      t.clock.now = new Date();
    }
  });

  it("never opens another booking, and a wrong, missing or malformed key is a clear 404", async () => {
    const mine = await book();
    const theirs = await book();
    for (const [reference, key] of [
      [theirs.booking.booking_number, mine.manage_key], [mine.booking.booking_number, theirs.manage_key],
      [mine.booking.booking_number, `${mine.manage_key.slice(0, -1)}${mine.manage_key.endsWith('A') ? 'B' : 'A'}`],
      [mine.booking.booking_number, ''], [mine.booking.booking_number, 'not a key'], ['BK-NOSUCH22', mine.manage_key],
    ]) {
      const res = await view(reference, key);
      expect(res.status, `${reference} ${key}`).toBe(404);
      expect(res.body.message).toBe(MANAGE_MESSAGES.unknownLink);
    }
    expect((await view(mine.booking.booking_number)).status).toBe(404);
  });

  it('says when it has expired (some time after the pickup), with a 410', async () => {
    const b = await book();
    await t.db.query("UPDATE booking_keys SET expires_at = now() - interval '1 minute' WHERE booking_id = $1", [b.booking.id]);
    const res = await view(b.booking.booking_number, b.manage_key);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe(MANAGE_MESSAGES.expiredLink);
  });

  it("shows the office's driver, and a cancellation with its reason", async () => {
    const b = await book();
    const signIn = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
    const staff = { Cookie: signIn.headers['set-cookie'].split(';')[0] };
    const crew = await recordDriverAndCar(t.db, 'Metro Cars London', { name: 'Dan Price' });
    const assigned = await t.call('POST', `/operator/bookings/${b.booking.booking_number}/driver`, crew, staff);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const shown = (await view(b.booking.booking_number, b.manage_key)).body.manage;
    expect(shown).toMatchObject({
      status: 'driverAssigned', status_words: 'Confirmed: your driver is assigned',
      driver: { name: 'Dan Price', mobile: assigned.body.driver.mobile, vehicle: 'Mercedes-Benz E-Class', registration: crew.registration },
    });
    // The passenger sees the driver and the car, never the office's record of them (licence numbers, who dispatched).
    expect(Object.keys(shown.driver).sort()).toEqual(['colour', 'mobile', 'name', 'registration', 'vehicle']);
    await t.call('POST', `/operator/bookings/${b.booking.booking_number}/cancel`, { reason: 'Flight cancelled' }, staff);
    const after = (await view(b.booking.booking_number, b.manage_key)).body.manage;
    expect(after).toMatchObject({ status: 'cancelled', driver: null, cancelled: { reason: 'Flight cancelled' }, may: { change: false, cancel: false } });
    expect(after.cancelled.at).toMatch(/^\w+day \d{1,2} \w+ \d{4} at \d{2}:\d{2}$/);
  });
});

describe('Find my booking', () => {
  it('answers the same whether or not the reference and e-mail match, and e-mails a new link only to the booking\'s address', async () => {
    const b = await book('ruth.bennett@example.com');
    const wrong = await t.call('POST', '/manage/find', { reference: b.booking.booking_number, email: 'someone.else@example.com' });
    const unknown = await t.call('POST', '/manage/find', { reference: 'BK-NOSUCH22', email: 'ruth.bennett@example.com' });
    const right = await t.call('POST', '/manage/find', { reference: b.booking.booking_number.toLowerCase(), email: ' Ruth.Bennett@Example.com ' });
    for (const res of [wrong, unknown, right]) expect([res.status, res.body.message]).toEqual([200, MANAGE_MESSAGES.findSent]);
    const mails = await t.db.query<{ to_address: string; body_text: string; erase_after_send: boolean }>(
      "SELECT to_address, body_text, erase_after_send FROM outbound_emails WHERE booking_id = $1 AND kind = 'manage_link'", [b.booking.id]);
    expect(mails).toHaveLength(1);
    expect(mails[0].to_address).toBe('ruth.bennett@example.com');
    expect(mails[0].erase_after_send).toBe(true);
    const link = new RegExp(`${TEST_SITE_URL}/manage/${b.booking.booking_number}#key=([\\w-]{43})`).exec(mails[0].body_text);
    expect(link).not.toBeNull();
    expect((await view(b.booking.booking_number, link![1])).status).toBe(200);
    // The first link still works.
    expect((await view(b.booking.booking_number, b.manage_key)).status).toBe(200);
  });

  it('names the field of a reference or e-mail that cannot be one', async () => {
    expect((await t.call('POST', '/manage/find', { reference: 'my booking', email: 'a@example.com' })).body.field).toBe('reference');
    expect((await t.call('POST', '/manage/find', { reference: 'BK-ABCDEFGH', email: 'nope' })).body.field).toBe('email');
  });

  it('is limited: 10 look-ups an hour from one address, 3 links an hour for one reference, whether or not it exists', async () => {
    const strict = await testApp({ db: t.db, limits: DEFAULT_LIMITS });
    const from = (n: number) => ({ 'X-Forwarded-For': `203.0.113.${n}` });
    for (let i = 0; i < 3; i++) {
      expect((await strict.call('POST', '/manage/find', { reference: 'BK-NOSUCH33', email: 'x@example.com' }, from(i))).status).toBe(200);
    }
    const fourth = await strict.call('POST', '/manage/find', { reference: 'BK-NOSUCH33', email: 'x@example.com' }, from(9));
    expect([fourth.status, fourth.body.field]).toEqual([429, 'reference']);
    for (let i = 0; i < 10; i++) {
      expect((await strict.call('POST', '/manage/find', { reference: `BK-LOOKUP${String(i).padStart(2, '0')}`.slice(0, 11), email: 'x@example.com' }, from(50))).status).toBe(200);
    }
    expect((await strict.call('POST', '/manage/find', { reference: 'BK-LOOKUPZZ', email: 'x@example.com' }, from(50))).status).toBe(429);
  });
});

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

const receipt = async (reference: string, key: string) => {
  const res = await t.app.request(`/api/v1/manage/${reference}/receipt`, { headers: { ...(await import('./setup')).KEYS, 'X-Manage-Key': key } });
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), body: Buffer.from(await res.arrayBuffer()) };
};

describe('the receipt', () => {
  it('is a PDF with the seller, the reference, the journey, each price line, the total and how it is paid', async () => {
    const b = await book();
    const res = await receipt(b.booking.booking_number, b.manage_key);
    expect([res.status, res.type, res.disposition]).toEqual([200, 'application/pdf', `attachment; filename="receipt-${b.booking.booking_number}.pdf"`]);
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.body);
    const [row] = await t.db.query<{ total: string; lines: { label: string; amount: string }[] }>(
      "SELECT to_char(total_booking_amount_pence / 100.0, 'FM999990.00') AS total, price_breakdown->'lines' AS lines FROM bookings WHERE id = $1", [b.booking.id]);
    // Not paid yet (paid in the car once travelled): a booking confirmation, as the booking stands now.
    for (const expected of ['Albion Executive Cars', '27 Old Gloucester Street, London WC1N 3AX', 'Booking confirmation', 'As at', b.booking.booking_number,
      'Heathrow Airport Terminal 5, Hounslow TW6 2GA', 'Trafalgar Square, London WC2N 5DN', '12-09-2030', '7:15 AM', 'Saloon, Metro Cars London',
      'Amelia Hart', `£${row.total}`, 'To be paid in the car', ...row.lines.map((l) => l.label)]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('VAT');
    expect((await receipt(b.booking.booking_number, 'x'.repeat(43))).status).toBe(404);
  });

  it('is a VAT invoice when the operator has a VAT number: numbered without gaps, once per booking, net plus VAT making the gross', async () => {
    await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
    try {
      const [first, second] = [await book(), await book()];
      // Paid in the car once completed (issue 39: an unpaid booking is issued no invoice).
      await t.db.query("UPDATE bookings SET status = 'completed' WHERE id = ANY($1)", [[first.booking.id, second.booking.id]]);
      const [{ last: before }] = await t.db.query<{ last: number }>('SELECT last FROM invoice_counter');
      // Asked for twice at once, and again later: one number for the booking.
      const [a, a2] = await Promise.all([receipt(first.booking.booking_number, first.manage_key), receipt(first.booking.booking_number, first.manage_key)]);
      const again = await receipt(first.booking.booking_number, first.manage_key);
      const b2 = await receipt(second.booking.booking_number, second.manage_key);
      const label = (n: number) => `INV-${String(n).padStart(6, '0')}`;
      for (const r of [a, a2, again]) expect(r.disposition).toBe(`attachment; filename="invoice-${label(before + 1)}.pdf"`);
      expect(b2.disposition).toBe(`attachment; filename="invoice-${label(before + 2)}.pdf"`);
      const text = pdfText(a.body);
      const [{ pence }] = await t.db.query<{ pence: number }>('SELECT total_booking_amount_pence AS pence FROM bookings WHERE id = $1', [first.booking.id]);
      const { net, vat } = vatOf(pence, 20);
      for (const expected of ['VAT invoice', label(before + 1), 'VAT number: GB 123 4567 89', 'VAT at 20%', `£${(net / 100).toFixed(2)}`,
        `£${(vat / 100).toFixed(2)}`, `£${(pence / 100).toFixed(2)}`]) expect(text, expected).toContain(expected);
      expect((await t.db.query('SELECT number FROM invoices ORDER BY number')).map((r: any) => r.number).slice(-2)).toEqual([before + 1, before + 2]);
    } finally {
      await setSetting(t.db, 'VAT_NUMBER', '');
    }
  });

  it('says a card payment and its refund, and is not given for a card booking that was never paid', async () => {
    const PK = (await import('../../src/server/payments/provider')).localKeys((await import('./setup')).TEST_SECURITY.secret).publishableKey;
    const { body } = await t.call('POST', '/calculate-distance-price', form);
    const vehicle = body.price_details.find((p: any) => p.company_name === 'Albion Executive Cars' && p.vehicle_type === 'Saloon');
    const pm = await (await t.app.request('/test-gateway/v1/payment_methods', {
      method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
    })).json();
    const request = {
      selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
      registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email: 'amelia.card@example.com', additionalInfo: '' },
      payment_method: 'card', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
    };
    const idem = { 'Idempotency-Key': `manage-card-${Date.now()}` };
    const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, idem);
    // Not paid yet: the card page's key is the pending booking's, and a receipt waits for the payment.
    const [pending] = await t.db.query<{ id: number; booking_number: string }>("SELECT id, booking_number FROM bookings WHERE payment_intent_id = $1", [created.body.paymentIntentId]);
    const { mintKey } = await import('../../src/server/bookings/manageKeys');
    const pendingKey = await mintKey(t.db, pending.id);
    const early = await receipt(pending.booking_number, pendingKey);
    expect(early.status).toBe(409);
    expect(JSON.parse(early.body.toString()).message).toBe(MANAGE_MESSAGES.noReceipt);
    const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
    const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, idem);
    expect(done.body.data.manage_key).toMatch(/^[\w-]{43}$/);
    const paid = pdfText((await receipt(pending.booking_number, done.body.data.manage_key)).body);
    expect(paid).toMatch(/Paid by card on \d{2}-\d{2}-\d{4}/);
    const signIn = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
    await t.call('POST', `/operator/bookings/${pending.booking_number}/cancel`, { reason: 'Plans changed', refund: 'yes', refund_amount: '10.00' },
      { Cookie: signIn.headers['set-cookie'].split(';')[0] });
    expect(pdfText((await receipt(pending.booking_number, done.body.data.manage_key)).body)).toContain('£10.00 refunded to the card');
  });

  it('prints what its fonts have: accents kept or dropped, a character with no Latin form as ?, never a wrong glyph', () => {
    expect(printable('Zoë Ørsted, £62.00 – “Café”')).toBe('Zoë Ørsted, £62.00 – “Café”');
    expect(printable('Łukasz Wałęsa, Đorđe, Ştefan')).toBe('Lukasz Walesa, Dorde, Stefan');
    expect(printable('李 Wei 😀')).toBe('? Wei ?');
  });

  it('splits VAT to the penny so that net and VAT make the gross', () => {
    expect(vatOf(6200, 20)).toEqual({ net: 5167, vat: 1033 });
    expect(vatOf(1, 20)).toEqual({ net: 1, vat: 0 });
    expect(vatOf(12000, 0)).toEqual({ net: 12000, vat: 0 });
    for (const gross of [1, 99, 6200, 18460, 123457]) { const { net, vat } = vatOf(gross, 20); expect(net + vat).toBe(gross); }
  });
});
