// Issue 39 item 3, through the API: a booking's page cannot relay mail. Every e-mail to a passenger address because of
// a change, a cancellation or Find my booking counts against that address (messagesToAddress, 10 an hour): a change
// over it is refused before anything is saved, a cancellation is made without the passenger's e-mail (the office is
// told), Find my booking answers as always and sends nothing. A refused request counts nothing. The e-mail address of
// a booking changes 3 times at most, and an address the booking was not made with reads fixed words only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SITE_URL, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { CHANGE_MESSAGES } from '../../src/domain/manageChanges';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';
import { DEFAULT_LIMITS, addressKey, takeAllowance } from '../../src/server/limits';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PASSENGER_NOT_EMAILED } from '../../src/server/manage/cancel';
import { MIGRATIONS_DIR } from '../../src/server/db/migrate';
import { purgeExpiredRecords } from '../../src/server/operator/retention';
import { DEMO_STAFF } from '../../src/server/operator/seed';

let t: Awaited<ReturnType<typeof testApp>>;
/** The site with the real allowances (the file's bookings are made on `t`, whose allowances are roomy). */
let strict: Awaited<ReturnType<typeof testApp>>;
const NOW = new Date('2030-09-01T12:00:00Z');
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  strict = await testApp({ db: t.db, limits: DEFAULT_LIMITS });
  t.clock.now = NOW;
  strict.clock.now = NOW;
});
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes', pickup_fight_number: '',
};
let counter = 0;
interface Booked { reference: string; id: number; key: string; email: string }

async function book(): Promise<Booked> {
  const email = `messages.${++counter}@example.com`;
  const { body } = await t.call('POST', '/calculate-distance-price', form);
  const res = await t.call('POST', '/booking', {
    selectedVehicleData: body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon'),
    selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null, payment_method: 'car', selected_passenger: 'guest_login',
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email, additionalInfo: '' },
    stripe_session_id: null, paymentId: null,
  });
  expect(res.status).toBe(200);
  return { reference: res.body.data.booking.booking_number, id: res.body.data.booking.id, key: res.body.data.manage_key, email };
}

const change = (b: Booked, values: Record<string, unknown>) => strict.call('POST', `/manage/${b.reference}/changes`, values, { 'X-Manage-Key': b.key });
const cancel = (b: Booked) => strict.call('POST', `/manage/${b.reference}/cancel`, {}, { 'X-Manage-Key': b.key });
const view = async (b: Booked) => (await strict.call('GET', `/manage/${b.reference}`, undefined, { 'X-Manage-Key': b.key })).body;
const mailsTo = (address: string) => t.db.query<{ kind: string; booking_id: number; body_text: string; body_html: string }>(
  'SELECT kind, booking_id, body_text, body_html FROM outbound_emails WHERE lower(to_address) = $1 ORDER BY id', [addressKey(address)]);
const mailsOf = (b: Booked, kind: string) => t.db.query<{ to_address: string; body_text: string; body_html: string }>(
  'SELECT to_address, body_text, body_html FROM outbound_emails WHERE booking_id = $1 AND kind = $2 ORDER BY id', [b.id, kind]);
const used = async (name: string, key: string) =>
  (await t.db.query<{ used: number }>('SELECT used FROM rate_limits WHERE name = $1 AND key = $2', [name, key]))[0]?.used ?? 0;
/** Someone else's messages used up the address's allowance for this hour. */
async function useUp(address: string) {
  for (let i = 0; i <= DEFAULT_LIMITS.messagesToAddress.max; i++) {
    try { await takeAllowance(t.db, DEFAULT_LIMITS, [{ limit: 'messagesToAddress', key: addressKey(address) }]); } catch { return; }
  }
  throw new Error('the allowance was never used up');
}
const TOO_MANY = DEFAULT_LIMITS.messagesToAddress.message;

describe('changes aimed at one outside address', () => {
  it('deliver at most its allowance, from every booking together, and none carries what the sender wrote', async () => {
    const victim = 'someone.outside@example.net';
    const first = await book();
    const answers = [await change(first, { passenger_email: victim, additional_info: 'Claim your refund at https://evil.example/refund-form' })];
    for (let i = 1; i < 20; i++) answers.push(await change(first, { additional_info: `Claim ${i}: https://evil.example/refund-form` }));
    const second = await book();
    for (let i = 0; i < 3; i++) answers.push(await change(second, { passenger_email: victim, additional_info: `Again ${i} https://evil.example/x` }));
    const max = DEFAULT_LIMITS.messagesToAddress.max;
    expect(answers.filter((a) => a.status === 200)).toHaveLength(max);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.body.field, refused.body.message]).toEqual([429, 'passenger_email', TOO_MANY]);
    }
    const delivered = await mailsTo(victim);
    expect(delivered).toHaveLength(max);
    for (const m of delivered) {
      expect(m.kind).toBe('booking_changed');
      expect(`${m.body_text}${m.body_html}`).not.toMatch(/evil|Claim|Again|Amelia|Heathrow/);
    }
    // A refused change saved nothing: the second booking keeps its address; the office heard of each saved one only.
    expect((await view(second)).manage.form.passenger_email).toBe(second.email);
    expect(await mailsOf(second, 'booking_change_notice')).toEqual([]);
    expect(await mailsOf(first, 'booking_change_notice')).toHaveLength(max);
  });
});

describe("a booking's e-mail address", () => {
  it('is changed 3 times at most (a 422 naming passenger_email after that, nothing saved); capitals alone are no change of address', async () => {
    const b = await book();
    for (const n of [1, 2, 3]) expect((await change(b, { passenger_email: `moved.${n}.${b.id}@example.com` })).status, `change ${n}`).toBe(200);
    const fourth = await change(b, { passenger_email: `moved.4.${b.id}@example.com`, flight_no: 'BA 117' });
    expect([fourth.status, fourth.body.field, fourth.body.message]).toEqual([422, 'passenger_email', CHANGE_MESSAGES.emailChangesUsed]);
    expect((await view(b)).manage.form).toMatchObject({ passenger_email: `moved.3.${b.id}@example.com`, flight_no: '' });
    expect((await change(b, { passenger_email: `Moved.3.${b.id}@Example.com` })).status).toBe(200);
    expect((await t.db.query('SELECT passenger_email_changes FROM bookings WHERE id = $1', [b.id]))[0]).toEqual({ passenger_email_changes: 3 });
  });

  it('given in a change, reads fixed words and Find my booking only: no notes, sign, names or addresses; the old address and the office read it all', async () => {
    const b = await book();
    const newAddress = `new.address.${b.id}@example.org`;
    const res = await change(b, {
      passenger_email: newAddress, passenger_name: 'Mallory Spoof', sign_text: 'Visit evil.example now',
      additional_info: 'Your refund is waiting: https://evil.example/refund-form',
    });
    expect(res.status).toBe(200);
    const [toNew] = await mailsTo(newAddress);
    const text = toNew.body_text;
    for (const written of ['evil', 'refund', 'Mallory', 'Spoof', 'Amelia', 'Heathrow', 'Trafalgar']) {
      expect(`${text}${toNew.body_html}`, written).not.toContain(written);
    }
    expect(text).toContain(`This e-mail address was given for booking ${b.reference} with Albion Executive Cars`);
    expect(text).toMatch(new RegExp(`Reference ID +${b.reference}`));
    expect(text).toMatch(/Pickup +12-09-2030 7:15 AM \(UK time\)/);
    expect(text).toMatch(new RegExp(`Find your booking +${TEST_SITE_URL}/manage\\n`));
    expect(toNew.body_html).toContain(`<a href="${TEST_SITE_URL}/manage">`);
    const [toOld] = (await mailsTo(b.email)).filter((m) => m.kind === 'booking_changed');
    expect(toOld.body_text.replace(/\u200B/g, '')).toContain('Your refund is waiting: https://evil.example/refund-form');
    const [office] = await mailsOf(b, 'booking_change_notice');
    expect(office.body_text.replace(/\u200B/g, '')).toContain('https://evil.example/refund-form');

    // The new address is the booking's now; a later change tells it in the same fixed words, and so does its link.
    expect((await change(b, { additional_info: 'Now https://evil.example/again' })).status).toBe(200);
    const find = await strict.call('POST', '/manage/find', { reference: b.reference, email: newAddress }, { 'X-Forwarded-For': '203.0.113.70' });
    expect(find.body.message).toBe(MANAGE_MESSAGES.findSent);
    const later = await mailsTo(newAddress);
    expect(later.map((m) => m.kind)).toEqual(['booking_changed', 'booking_changed', 'manage_link']);
    for (const m of later) expect(`${m.body_text}${m.body_html}`).not.toMatch(/evil|Heathrow/);
    expect(later[2].body_text).toMatch(new RegExp(`${TEST_SITE_URL}/manage/${b.reference}#key=[\\w-]{43}`));
  });
});

describe('what a refused request counts', () => {
  it('is nothing: an invalid change, one over a recipient\'s allowance, one past the cut-off, a cancel too late', async () => {
    const b = await book();
    const counts = async () => [await used('bookingChanges', String(b.id)), await used('messagesToAddress', addressKey(b.email))];
    const before = await counts();
    expect((await change(b, { passenger_phone: '12' })).status).toBe(422);
    expect(await counts()).toEqual(before);
    const full = `full.inbox.${b.id}@example.net`;
    await useUp(full);
    const refused = await change(b, { passenger_email: full, flight_no: 'BA 9' });
    expect([refused.status, refused.body.field, refused.body.message]).toEqual([429, 'passenger_email', TOO_MANY]);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(await counts()).toEqual(before);
    expect((await t.db.query('SELECT passenger_email_changes FROM bookings WHERE id = $1', [b.id]))[0]).toEqual({ passenger_email_changes: 0 });
    expect((await view(b)).manage.form).toMatchObject({ passenger_email: b.email, flight_no: '' });
    try {
      strict.clock.now = new Date('2030-09-11T10:00:00Z'); // after the free cancelling, before the change cut-off
      expect((await cancel(b)).status).toBe(409);
      expect(await counts()).toEqual(before);
      strict.clock.now = new Date('2030-09-12T05:00:00Z'); // after the change cut-off
      expect((await change(b, { flight_no: 'BA 9' })).status).toBe(409);
      expect(await counts()).toEqual(before);
    } finally {
      strict.clock.now = NOW;
    }
    // A change that is made counts once on each.
    expect((await change(b, { flight_no: 'BA 9' })).status).toBe(200);
    expect(await counts()).toEqual([before[0] + 1, before[1] + 1]);
  });
});

describe("a passenger address whose allowance is used up", () => {
  it('still has its booking cancelled, refund and all, without its e-mail; the office is told, and the page says so', async () => {
    const b = await book();
    await useUp(b.email);
    const res = await cancel(b);
    expect(res.status).toBe(200);
    expect(res.body.manage).toMatchObject({ status: 'cancelled', cancelled: { emailed: false } });
    expect(await mailsOf(b, 'booking_cancelled')).toEqual([]);
    const [office] = await mailsOf(b, 'booking_change_notice');
    expect(office.body_text).toContain(PASSENGER_NOT_EMAILED);
    // Under it, the passenger is e-mailed and counted.
    const other = await book();
    const before = await used('messagesToAddress', addressKey(other.email));
    expect((await cancel(other)).body.manage.cancelled.emailed).toBe(true);
    expect((await mailsOf(other, 'booking_cancelled')).map((m) => m.to_address)).toEqual([other.email]);
    expect(await used('messagesToAddress', addressKey(other.email))).toBe(before + 1);
  });

  it('gets no Find my booking link, and the answer is the same as ever', async () => {
    const b = await book();
    await useUp(b.email);
    const find = await strict.call('POST', '/manage/find', { reference: b.reference, email: b.email }, { 'X-Forwarded-For': '203.0.113.71' });
    expect([find.status, find.body.message]).toEqual([200, MANAGE_MESSAGES.findSent]);
    expect(await mailsOf(b, 'manage_link')).toEqual([]);
    const other = await book();
    const before = await used('messagesToAddress', addressKey(other.email));
    await strict.call('POST', '/manage/find', { reference: other.reference, email: other.email }, { 'X-Forwarded-For': '203.0.113.72' });
    expect(await mailsOf(other, 'manage_link')).toHaveLength(1);
    expect(await used('messagesToAddress', addressKey(other.email))).toBe(before + 1);
  });
});

describe('a cancellation e-mail removed by retention', () => {
  /** The booking's e-mails sent 100 days ago, then the retention clean-up (90 days after sending) removes them. */
  async function sentLongAgo(b: Booked) {
    await t.db.query("UPDATE outbound_emails SET status = 'sent', sent_at = now() - interval '100 days' WHERE booking_id = $1", [b.id]);
    await purgeExpiredRecords(t.db);
    expect(await mailsOf(b, 'booking_cancelled')).toEqual([]);
  }

  it("still shows as sent on the booking's page (its links work for 180 days after the pickup), and one never sent as not sent", async () => {
    const b = await book();
    expect((await cancel(b)).body.manage.cancelled.emailed).toBe(true);
    await sentLongAgo(b);
    expect((await view(b)).manage.cancelled).toMatchObject({ reason: 'Cancelled by the passenger', emailed: true });
    const full = await book();
    await useUp(full.email);
    expect((await cancel(full)).body.manage.cancelled.emailed).toBe(false);
    await sentLongAgo(full);
    expect((await view(full)).manage.cancelled.emailed).toBe(false);
  });

  it("shows the office's cancellation as e-mailed too, after retention", async () => {
    const b = await book();
    const session = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
    const office = await t.call('POST', `/operator/bookings/${b.reference}/cancel`, { reason: 'The passenger phoned to cancel.' },
      { Cookie: session.headers['set-cookie'].split(';')[0] });
    expect(office.status).toBe(200);
    expect((await view(b)).manage.cancelled).toMatchObject({ reason: 'The passenger phoned to cancel.', emailed: true });
    await sentLongAgo(b);
    expect((await view(b)).manage.cancelled.emailed).toBe(true);
  });

  it('is read from the e-mails that are left for a booking cancelled before it was recorded (migration 020): e-mailed unless the office was told it was not', async () => {
    const [sent, removed, never] = [await book(), await book(), await book()];
    await cancel(sent);
    await cancel(removed);
    await sentLongAgo(removed);
    await useUp(never.email);
    await cancel(never);
    const ids = [sent.id, removed.id, never.id];
    await t.db.query('UPDATE bookings SET cancel_emailed = NULL WHERE id = ANY($1::int[])', [ids]);
    const sql = readFileSync(path.join(MIGRATIONS_DIR, '020_cancel_emailed.sql'), 'utf8');
    await t.db.exec(sql.slice(sql.indexOf('UPDATE bookings')));
    const rows = await t.db.query<{ id: number; cancel_emailed: boolean }>('SELECT id, cancel_emailed FROM bookings WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
    expect(rows.map((r) => r.cancel_emailed)).toEqual([true, true, false]);
    expect([(await view(removed)).manage.cancelled.emailed, (await view(never)).manage.cancelled.emailed]).toEqual([true, false]);
  });
});
