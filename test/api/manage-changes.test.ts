// Issue 27 parts 3 and 4, through the API: a passenger changes their booking's details and pickup time from its
// link (priced again by the same engine; a higher card price paid by card once, a lower one refunded once, a
// pay-in-car price confirmed), and cancels it with a full refund. Every change reaches the passenger, the office
// with the company in copy, and the console's timeline. Deadlines, the clock changes and other bookings' keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, TEST_SECURITY, testApp } from './setup';
import { setSetting } from '../../src/server/operator/operator';
import { localKeys } from '../../src/server/payments/provider';
import { CHANGE_MESSAGES } from '../../src/domain/manageChanges';
import { MANAGE_MESSAGES } from '../../src/domain/manageRules';
import { SKIPPED_HOUR_MESSAGE } from '../../src/domain/clockChanges';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { PASSENGER_CANCEL_REASON } from '../../src/server/manage/cancel';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'MEET_AND_GREET', '10');
  t.clock.now = new Date('2030-09-01T12:00:00Z');
});
afterAll(async () => { await t.db.close(); });

const form = {
  pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
  pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1, meet_and_greet: 'yes',
  pickup_fight_number: '',
};
let counter = 0;
const PK = localKeys(TEST_SECURITY.secret).publishableKey;

async function paymentMethod(card = '4242424242424242') {
  return (await (await t.app.request('/test-gateway/v1/payment_methods', {
    method: 'POST', headers: { Authorization: `Bearer ${PK}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': card, 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json()).id as string;
}

interface Booked { reference: string; id: number; key: string; email: string }

async function book(pay: 'car' | 'card' = 'car', trip = form): Promise<Booked> {
  const email = `traveller.${++counter}@example.com`;
  const { body } = await t.call('POST', '/calculate-distance-price', trip);
  const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: trip, hourlyRateForm: null,
    registrationData: { firstName: 'Amelia', surname: 'Hart', number: '07700 900012', email, additionalInfo: '' },
    payment_method: pay, selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  if (pay === 'car') {
    const res = await t.call('POST', '/booking', request);
    expect(res.status).toBe(200);
    return { reference: res.body.data.booking.booking_number, id: res.body.data.booking.id, key: res.body.data.manage_key, email };
  }
  const idem = { 'Idempotency-Key': `change-card-${counter}-${Date.now()}` };
  const created = await t.call('POST', '/create-payment-intent', { ...request, paymentMethodId: await paymentMethod(), amount: Math.round(Number(vehicle.price) * 100) }, idem);
  const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await t.call('POST', '/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, idem);
  expect(done.status).toBe(200);
  return { reference: done.body.data.booking.booking_number, id: done.body.data.booking.id, key: done.body.data.manage_key, email };
}

const as = (b: Booked) => ({ 'X-Manage-Key': b.key });
const view = async (b: Booked) => (await t.call('GET', `/manage/${b.reference}`, undefined, as(b))).body;
const change = (b: Booked, values: Record<string, unknown>) => t.call('POST', `/manage/${b.reference}/changes`, values, as(b));
async function formOf(b: Booked) { return (await view(b)).manage.form as Record<string, string>; }

async function mailsOf(b: Booked) {
  return t.db.query<{ kind: string; to_address: string; cc_address: string | null; subject: string; body_text: string }>(
    'SELECT kind, to_address, cc_address, subject, body_text FROM outbound_emails WHERE booking_id = $1 ORDER BY id', [b.id]);
}
async function staffCookie() {
  const res = await t.call('POST', '/operator/session', { email: DEMO_STAFF[0].email, password: DEMO_STAFF[0].password });
  return { Cookie: res.headers['set-cookie'].split(';')[0] };
}

describe('changing the details', () => {
  it("lets a booking made with the longest names and notes the booking form takes change only its phone (SPEC 5's lengths)", async () => {
    const { body } = await t.call('POST', '/calculate-distance-price', form);
    const vehicle = body.price_details.find((p: any) => p.company_name === 'Metro Cars London' && p.vehicle_type === 'Saloon');
    const email = `traveller.${++counter}@example.com`;
    const res = await t.call('POST', '/booking', {
      selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
      registrationData: { firstName: 'A'.repeat(100), surname: 'H'.repeat(100), number: '07700 900012', email, additionalInfo: 'n'.repeat(1000) },
      payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
    });
    expect(res.status).toBe(200);
    const b = { reference: res.body.data.booking.booking_number, id: res.body.data.booking.id, key: res.body.data.manage_key, email };
    const before = await formOf(b);
    expect([before.passenger_name.length, before.additional_info.length]).toEqual([201, 1000]);
    const saved = await change(b, { ...before, passenger_phone: '07700 900999' });
    expect([saved.status, saved.body.status]).toEqual([200, 'saved']);
    expect(saved.body.booking.passengerDetails.passenger_contact_no).toBe('+447700900999');
  });

  it('saves the name, phone, e-mail, flight, sign and notes, and tells the passenger (both addresses), the office with the company, and the timeline', async () => {
    const b = await book();
    const before = await formOf(b);
    expect(before).toMatchObject({ passenger_name: 'Amelia Hart', passenger_phone: '+447700900012', flight_no: '', sign_text: '', pickup_hour: '7am', pickup_min: '15' });
    const res = await change(b, {
      ...before, passenger_name: 'Amelia J. Hart', passenger_phone: '07700 900999', passenger_email: 'amelia.new@example.com',
      flight_no: 'ba 117', sign_text: 'ACME Ltd: Ms Hart', additional_info: 'Two child seats are not needed.',
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('saved');
    expect(res.body.booking.booking.flight_no).toBe('BA 117');
    expect(res.body.booking.passengerDetails).toMatchObject({ passenger_name: 'Amelia J. Hart', passenger_contact_no: '+447700900999', passenger_email: 'amelia.new@example.com' });
    expect(res.body.booking.bookingDetail.sign_text).toBe('ACME Ltd: Ms Hart');
    const mails = (await mailsOf(b)).filter((m) => m.kind === 'booking_changed' || m.kind === 'booking_change_notice');
    expect(mails.map((m) => [m.kind, m.to_address, m.cc_address])).toEqual([
      ['booking_changed', 'amelia.new@example.com', null], ['booking_changed', b.email, null],
      ['booking_change_notice', 'bookings@albion-executive.co.uk', 'dispatch@metrocars.london'],
    ]);
    // What changed, in the passenger's words, goes to the address the booking was made with; the new one reads fixed
    // words (issue 39: api/manage-messages).
    expect(mails[1].body_text).toContain('Flight number');
    expect(mails[1].body_text).toContain('(none) -> BA 117');
    const desk = await t.call('GET', `/operator/bookings/${b.reference}`, undefined, await staffCookie());
    const entry = desk.body.timeline.find((e: any) => e.text === 'Changed by the passenger');
    expect(entry.by).toBe(`Passenger (${b.email})`);
    expect(entry.detail).toContain('Flight number: (none) -> BA 117');
  });

  it('names the field it refuses, as the form does, and refuses a change that changes nothing', async () => {
    const b = await book();
    const values = await formOf(b);
    for (const [field, bad, message] of [
      ['passenger_name', '  ', CHANGE_MESSAGES.nameRequired], ['passenger_phone', '12', undefined], ['passenger_email', 'not-an-address', undefined],
      ['sign_text', 'x'.repeat(61), CHANGE_MESSAGES.tooLong(60)], ['pickup_min', '07', CHANGE_MESSAGES.minuteInvalid],
    ] as const) {
      const res = await change(b, { ...values, [field]: bad });
      expect(res.status, field).toBe(422);
      expect(res.body.field).toBe(field);
      if (message) expect(res.body.message).toBe(message);
    }
    const same = await change(b, values);
    expect(same.status).toBe(422);
    expect(same.body.message).toBe(CHANGE_MESSAGES.nothingChanged);
  });

  it('is closed from CHANGE_CUTOFF_HOURS before the pickup, and to a cancelled booking', async () => {
    const b = await book();
    const values = await formOf(b);
    try {
      t.clock.now = new Date('2030-09-12T04:16:00Z'); // 05:16 BST, one minute past the cut-off of 05:15
      const late = await change(b, { ...values, flight_no: 'BA 117' });
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(CHANGE_MESSAGES.tooLate);
      t.clock.now = new Date('2030-09-12T04:14:00Z');
      expect((await change(b, { ...values, flight_no: 'BA 117' })).status).toBe(200);
    } finally {
      t.clock.now = new Date('2030-09-01T12:00:00Z');
    }
  });

  it("never changes another booking: another booking's key is the same 404 as a wrong one", async () => {
    const mine = await book();
    const theirs = await book();
    const values = await formOf(theirs);
    const res = await t.call('POST', `/manage/${theirs.reference}/changes`, { ...values, flight_no: 'EZY 1' }, as(mine));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(MANAGE_MESSAGES.unknownLink);
    expect((await t.call('POST', `/manage/${theirs.reference}/cancel`, {}, as(mine))).status).toBe(404);
    expect((await formOf(theirs)).flight_no).toBe('');
    expect((await view(theirs)).manage.status).toBe('confirmed');
  });
});

describe('changing the pickup time', () => {
  it('saves a new time at the same price at once; the deadlines stay those of the pickup booked (issue 39)', async () => {
    const b = await book();
    const values = await formOf(b);
    const res = await change(b, { ...values, pickup_hour: '9am', pickup_min: '45' });
    expect(res.body.status).toBe('saved');
    expect(res.body.booking.booking).toMatchObject({ pick_up_time: '09:45', pick_up_date: '2030-09-12' });
    expect(res.body.manage.change_until).toBe('Thursday 12 September 2030 at 05:15');
    const [row] = await t.db.query<{ pickup_at: Date }>('SELECT pickup_at FROM bookings WHERE id = $1', [b.id]);
    expect(new Date(row.pickup_at).toISOString()).toBe('2030-09-12T08:45:00.000Z');
  });

  it('keeps the grace rule: a pickup sooner than GRACE_TIME from now is refused on the date field', async () => {
    const b = await book();
    const values = await formOf(b);
    const res = await change(b, { ...values, pickup_date: '2030-09-01', pickup_hour: '1pm', pickup_min: '30' }); // 13:30 BST, 30 min from now
    expect(res.status).toBe(422);
    expect(res.body.field).toBe('pickup_date');
  });

  it('is UK time on both sides of the clock changes: 01:30 on the last Sunday of October is the second 01:30 (GMT), and says so; in March it does not exist and is refused', async () => {
    const b = await book();
    const values = await formOf(b);
    const autumn = await change(b, { ...values, pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' });
    expect(autumn.body.status).toBe('saved');
    const [row] = await t.db.query<{ pickup_at: Date }>('SELECT pickup_at FROM bookings WHERE id = $1', [b.id]);
    expect(new Date(row.pickup_at).toISOString()).toBe('2030-10-27T01:30:00.000Z'); // 01:30 GMT, after the clocks went back at 02:00 BST
    // The deadlines stay those of the pickup booked (issue 39).
    expect(autumn.body.manage).toMatchObject({
      pickup_words: 'Sunday 27 October 2030 at 01:30 GMT', change_until: 'Thursday 12 September 2030 at 05:15', cancel_until: 'Wednesday 11 September 2030 at 07:15',
    });
    // A booking made for that time: two hours before is 00:30 BST that night (there are three hours between 23:30 and
    // 01:30 GMT); 24 hours before is 02:30 BST on Saturday.
    const made = await book('car', { ...form, pickup_date: '2030-10-27', pickup_hour: '1am', pickup_min: '30' });
    expect((await view(made)).manage).toMatchObject({
      pickup_words: 'Sunday 27 October 2030 at 01:30 GMT', change_until: 'Sunday 27 October 2030 at 00:30', cancel_until: 'Saturday 26 October 2030 at 02:30',
    });
    const spring = await change(b, { ...(await formOf(b)), pickup_date: '2031-03-30', pickup_hour: '1am', pickup_min: '30' });
    expect(spring.status).toBe(422);
    expect(spring.body).toMatchObject({ field: 'pickup_hour', message: SKIPPED_HOUR_MESSAGE });
    // Across midnight: 23:55 on one day to 00:05 on the next is a new date, and the deadlines follow it.
    const late = await change(b, { ...(await formOf(b)), pickup_date: '2030-11-14', pickup_hour: '12am', pickup_min: '05' });
    expect(late.body.booking.booking).toMatchObject({ pick_up_date: '2030-11-14', pick_up_time: '00:05' });
    expect(late.body.manage.pickup_words).toBe('Thursday 14 November 2030 at 00:05');
  });

  it('asks a pay-in-car passenger to confirm a new price, then saves it with the new price lines', async () => {
    const b = await book();
    const values = await formOf(b);
    const oldTotal = (await view(b)).booking.booking.total_booking_amount;
    await setSetting(t.db, 'MEET_AND_GREET', '25');
    try {
      const asked = await change(b, { ...values, pickup_hour: '8am' });
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'confirm', old_total: oldTotal, difference: '15.00' });
      expect((await view(b)).booking.booking.pick_up_time).toBe('07:15');
      // A confirmation of another price (what was shown before the price moved) is asked again.
      expect((await change(b, { ...values, pickup_hour: '8am', accept_total: oldTotal })).body.status).toBe('confirm_price');
      const saved = await change(b, { ...values, pickup_hour: '8am', accept_total: asked.body.new_total });
      expect(saved.body.status).toBe('saved');
      expect(saved.body.booking.booking.total_booking_amount).toBe(asked.body.new_total);
      expect(saved.body.manage.breakdown.find((l: any) => /Meet/.test(l.label)).amount).toBe('25.00');
      const notice = (await mailsOf(b)).find((m) => m.kind === 'booking_change_notice')!;
      expect(notice.body_text).toContain(`£${oldTotal} -> £${asked.body.new_total}`);
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });
});

describe('a card booking whose price changes', () => {
  it('pays a higher price\'s difference by card, once, however often the completion and the webhook arrive', async () => {
    const b = await book('card');
    const values = await formOf(b);
    const paidBefore = (await view(b)).booking.booking.total_booking_amount;
    await setSetting(t.db, 'MEET_AND_GREET', '30');
    // Its VAT invoice is issued first (a download), so what follows is told in notes referring to it (decision 48).
    await setSetting(t.db, 'VAT_NUMBER', 'GB 123 4567 89');
    expect((await t.app.request(`/api/v1/manage/${b.reference}/receipt`, { headers: { ...KEYS, ...as(b) } })).status).toBe(200);
    const notes = () => t.db.query<{ kind: string; gross_pence: number }>(
      'SELECT n.kind, n.gross_pence FROM invoice_notes n JOIN invoices i ON i.number = n.invoice_number WHERE i.booking_id = $1 ORDER BY n.id', [b.id]);
    try {
      const asked = await change(b, { ...values, pickup_hour: '8am' });
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'pay', difference: '20.00' });
      const waiting = await change(b, { ...values, pickup_hour: '8am', accept_total: asked.body.new_total });
      expect(waiting.body).toMatchObject({ status: 'payment_required', amount_pence: 2000, new_total: asked.body.new_total });
      // Nothing changes until it is paid; the page shows what waits.
      const before = await view(b);
      expect(before.booking.booking.pick_up_time).toBe('07:15');
      expect(before.manage.waiting_change).toMatchObject({ id: waiting.body.change_id, amount_pence: 2000 });
      const path = `/manage/${b.reference}/changes/${waiting.body.change_id}`;
      const intent = await t.call('POST', `${path}/payment-intent`, { paymentMethodId: await paymentMethod() }, as(b));
      expect(intent.status).toBe(200);
      const again = await t.call('POST', `${path}/payment-intent`, { paymentMethodId: await paymentMethod() }, as(b));
      expect(again.body.paymentIntentId).toBe(intent.body.paymentIntentId);
      const confirmed = await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId });
      expect(confirmed.body.status).toBe('succeeded');
      const [done1, done2] = await Promise.all([1, 2].map(() => t.call('POST', `${path}/complete`, { paymentIntentId: intent.body.paymentIntentId }, as(b))));
      expect([done1.status, done2.status]).toEqual([200, 200]);
      expect(done1.body.data.booking).toMatchObject({ pick_up_time: '08:15', total_booking_amount: asked.body.new_total });
      const changes = await t.db.query('SELECT status, paid_pence FROM booking_changes WHERE booking_id = $1', [b.id]);
      expect(changes).toEqual([{ status: 'applied', paid_pence: 2000 }]);
      const told = (await mailsOf(b)).filter((m) => m.kind === 'booking_changed');
      expect(told).toHaveLength(1);
      expect(told[0].body_text).toContain('The difference of £20.00 was paid by card.');
      expect(paidBefore).not.toBe(asked.body.new_total);
      // The difference is a debit note, issued as the change is applied, once.
      expect(await notes()).toEqual([{ kind: 'debit', gross_pence: 2000 }]);

      // Then cancelled: both payments come back in full, one refund each, once.
      const [c1, c2] = await Promise.all([1, 2].map(() => t.call('POST', `/manage/${b.reference}/cancel`, {}, as(b))));
      expect([c1.status, c2.status].sort()).toEqual([200, 409]);
      const refunds = await t.db.query<{ amount_pence: number; status: string }>(
        'SELECT amount_pence, status FROM refunds WHERE booking_id = $1 ORDER BY amount_pence', [b.id]);
      expect(refunds).toEqual([{ amount_pence: 2000, status: 'succeeded' }, { amount_pence: Math.round(Number(paidBefore) * 100), status: 'succeeded' }]);
      const after = await view(b);
      expect(after.manage).toMatchObject({ status: 'cancelled', payment: { status: 'refunded' }, refund: { amount: asked.body.new_total, status: 'succeeded' } });
      expect(after.manage.cancelled.reason).toBe(PASSENGER_CANCEL_REASON);
      // Each refund is a credit note as it is made: the invoice and its notes come to nothing, as the card did.
      expect(await notes()).toEqual([
        { kind: 'debit', gross_pence: 2000 },
        ...[2000, Math.round(Number(paidBefore) * 100)].map(() => ({ kind: 'credit', gross_pence: expect.any(Number) })),
      ]);
      const credited = (await notes()).filter((n) => n.kind === 'credit').reduce((sum, n) => sum + n.gross_pence, 0);
      expect(credited).toBe(2000 + Math.round(Number(paidBefore) * 100));
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
      await setSetting(t.db, 'VAT_NUMBER', '');
    }
  });

  it('does not apply a difference paid after the change cut-off (asked before it): the payment is refunded in full', async () => {
    const b = await book('card');
    const values = await formOf(b);
    await setSetting(t.db, 'MEET_AND_GREET', '30');
    try {
      t.clock.now = new Date('2030-09-12T04:00:00Z'); // 05:00 BST: 15 minutes before the cut-off of 05:15
      const asked = await change(b, { ...values, pickup_hour: '8am' });
      const waiting = await change(b, { ...values, pickup_hour: '8am', accept_total: asked.body.new_total });
      expect(waiting.body).toMatchObject({ status: 'payment_required', amount_pence: 2000 });
      const path = `/manage/${b.reference}/changes/${waiting.body.change_id}`;
      const intent = await t.call('POST', `${path}/payment-intent`, { paymentMethodId: await paymentMethod() }, as(b));
      expect(intent.status).toBe(200);
      // The page stays open past the pickup; then the card is confirmed and the payment completed.
      t.clock.now = new Date('2030-09-12T06:30:00Z'); // 07:30 BST, after the pickup of 07:15
      expect((await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId })).body.status).toBe('succeeded');
      const done = await t.call('POST', `${path}/complete`, { paymentIntentId: intent.body.paymentIntentId }, as(b));
      expect([done.status, done.body.message]).toEqual([409, 'This change could no longer be made, so the payment for it is refunded in full.']);
      const after = await view(b);
      expect(after.booking.booking).toMatchObject({ pick_up_time: '07:15', total_booking_amount: asked.body.old_total });
      // It waits no more: nothing applies it later, even a check of its payment by a clock before the cut-off.
      expect(after.manage.waiting_change).toBeNull();
      expect(await t.db.query('SELECT status, paid_pence FROM booking_changes WHERE booking_id = $1', [b.id])).toEqual([{ status: 'replaced', paid_pence: 2000 }]);
      const { localCards } = await import('./setup');
      const { reconcileCardBookings } = await import('../../src/server/cardEvents/cardEvents');
      const { loadSettings } = await import('../../src/server/deps');
      const early = { settings: () => loadSettings(t.db), siteUrl: 'https://bookings.example.co.uk', now: () => new Date('2030-09-01T12:00:00Z') };
      expect(await reconcileCardBookings(t.db, localCards(t.db, null), early)).toBe(0);
      expect((await view(b)).booking.booking.pick_up_time).toBe('07:15');
      expect((await mailsOf(b)).filter((m) => m.kind === 'booking_changed')).toEqual([]);
      // Given back once, by whichever of the provider's webhook and the browser's completion came first.
      await expect.poll(() => t.db.query('SELECT amount_pence, status, change_id FROM refunds WHERE booking_id = $1', [b.id]), { timeout: 10_000 })
        .toEqual([{ amount_pence: 2000, status: 'succeeded', change_id: waiting.body.change_id }]);
    } finally {
      t.clock.now = new Date('2030-09-01T12:00:00Z');
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });

  it('refunds a lower price\'s difference once, from the card it was paid with', async () => {
    const b = await book('card');
    const values = await formOf(b);
    await setSetting(t.db, 'MEET_AND_GREET', '4');
    try {
      const asked = await change(b, { ...values, pickup_min: '30' });
      expect(asked.body).toMatchObject({ status: 'confirm_price', outcome: 'refund', difference: '6.00' });
      const saved = await change(b, { ...values, pickup_min: '30', accept_total: asked.body.new_total });
      expect(saved.body).toMatchObject({ status: 'saved', refund: { status: 'succeeded' } });
      const refunds = await t.db.query<{ amount_pence: number; change_id: number | null }>('SELECT amount_pence, change_id FROM refunds WHERE booking_id = $1', [b.id]);
      expect(refunds).toEqual([{ amount_pence: 600, change_id: expect.any(Number) }]);
      expect(saved.body.manage.payment.status).toBe('partially_refunded');
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });
});

describe('cancelling', () => {
  it('is free until CANCELLATION_WINDOW_HOURS before the pickup; after it, the page gives the office instead', async () => {
    const b = await book();
    try {
      t.clock.now = new Date('2030-09-11T06:16:00Z'); // 07:16 BST on the 11th: one minute past the free cancelling
      const late = await t.call('POST', `/manage/${b.reference}/cancel`, {}, as(b));
      expect(late.status).toBe(409);
      expect(late.body.message).toBe(CHANGE_MESSAGES.cancelTooLate);
      t.clock.now = new Date('2030-09-11T06:14:00Z');
      const res = await t.call('POST', `/manage/${b.reference}/cancel`, {}, as(b));
      expect(res.body).toMatchObject({ status: 'cancelled', manage: { status: 'cancelled', may: { change: false, cancel: false } } });
      const mails = (await mailsOf(b)).filter((m) => m.kind === 'booking_cancelled' || m.kind === 'booking_change_notice');
      expect(mails.map((m) => [m.kind, m.to_address, m.cc_address])).toEqual([
        ['booking_cancelled', b.email, null], ['booking_change_notice', 'bookings@albion-executive.co.uk', 'dispatch@metrocars.london'],
      ]);
      expect(mails[0].body_text).toContain('Nothing is charged.');
    } finally {
      t.clock.now = new Date('2030-09-01T12:00:00Z');
    }
  });
});

describe('a difference paid while no one was told', () => {
  it('is applied, once, by the check the server runs at its start and every 15 minutes', async () => {
    const { localCards } = await import('./setup');
    const { reconcileCardBookings } = await import('../../src/server/cardEvents/cardEvents');
    const { loadSettings } = await import('../../src/server/deps');
    const b = await book('card');
    const values = await formOf(b);
    await setSetting(t.db, 'MEET_AND_GREET', '30');
    try {
      // The site's webhook endpoint is unreachable and the browser closes after the bank approved.
      const cards = localCards(t.db, null);
      const quiet = await testApp({ db: t.db, cards: () => cards });
      quiet.clock.now = t.clock.now;
      const asked = await change(b, { ...values, pickup_hour: '10am' });
      const waiting = await change(b, { ...values, pickup_hour: '10am', accept_total: asked.body.new_total });
      const intent = await quiet.call('POST', `/manage/${b.reference}/changes/${waiting.body.change_id}/payment-intent`, { paymentMethodId: await paymentMethod() }, as(b));
      expect((await quiet.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId })).body.status).toBe('succeeded');
      expect((await view(b)).booking.booking.pick_up_time).toBe('07:15');
      const site = { settings: () => loadSettings(t.db), siteUrl: 'https://bookings.example.co.uk' };
      expect(await reconcileCardBookings(t.db, cards, site)).toBe(1);
      expect((await view(b)).booking.booking).toMatchObject({ pick_up_time: '10:15', total_booking_amount: asked.body.new_total });
      expect(await reconcileCardBookings(t.db, cards, site)).toBe(0);
      expect((await mailsOf(b)).filter((m) => m.kind === 'booking_changed')).toHaveLength(1);
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });
});

describe('what a change keeps', () => {
  it('keeps a field left out of the request, and a one-way trip never gets a return flight', async () => {
    const b = await book();
    const res = await change(b, { flight_no: 'VS 3', return_flight_no: 'VS 4' });
    expect(res.body.status).toBe('saved');
    expect(res.body.manage.form).toMatchObject({ passenger_name: 'Amelia Hart', pickup_hour: '7am', flight_no: 'VS 3', return_flight_no: '' });
    const refused = await change(b, { passenger_phone: 7700 });
    expect([refused.status, refused.body.field]).toEqual([422, 'passenger_phone']);
  });

  it('drops a change still waiting for its payment when another is saved, and refunds that payment in full if it is made later', async () => {
    const b = await book('card');
    const values = await formOf(b);
    await setSetting(t.db, 'MEET_AND_GREET', '30');
    try {
      const asked = await change(b, { ...values, pickup_hour: '8am' });
      const waiting = await change(b, { ...values, pickup_hour: '8am', accept_total: asked.body.new_total });
      const path = `/manage/${b.reference}/changes/${waiting.body.change_id}`;
      const intent = await t.call('POST', `${path}/payment-intent`, { paymentMethodId: await paymentMethod() }, as(b));
      // Meanwhile a flight is added (same price): the waiting change is dropped.
      expect((await change(b, { flight_no: 'BA 9' })).body).toMatchObject({ status: 'saved', manage: { waiting_change: null } });
      // The old change is then paid (another tab): it is not applied, and what it took goes back.
      await t.call('POST', '/confirm-payment-intent', { paymentIntentId: intent.body.paymentIntentId });
      const done = await t.call('POST', `${path}/complete`, { paymentIntentId: intent.body.paymentIntentId }, as(b));
      expect(done.status).toBe(409);
      const after = await view(b);
      expect(after.booking.booking).toMatchObject({ pick_up_time: '07:15', flight_no: 'BA 9' });
      // Given back once, by whichever of the provider's webhook and the browser's completion came first.
      await expect.poll(() => t.db.query('SELECT amount_pence, status FROM refunds WHERE booking_id = $1', [b.id]), { timeout: 10_000 })
        .toEqual([{ amount_pence: 2000, status: 'succeeded' }]);
    } finally {
      await setSetting(t.db, 'MEET_AND_GREET', '10');
    }
  });

  it('is limited to 20 changes and cancellings an hour for one booking, as the README says', async () => {
    const { DEFAULT_LIMITS } = await import('../../src/server/limits');
    // Each change also e-mails the passenger: that address's allowance (api/manage-messages) is roomy here.
    const { ROOMY_LIMITS } = await import('./setup');
    const strict = await testApp({ db: t.db, limits: { ...DEFAULT_LIMITS, messagesToAddress: ROOMY_LIMITS.messagesToAddress } });
    strict.clock.now = t.clock.now;
    const b = await book();
    for (let i = 0; i < 20; i++) {
      const res = await strict.call('POST', `/manage/${b.reference}/changes`, { additional_info: `Note ${i}` }, as(b));
      expect(res.status, `change ${i + 1}`).toBe(200);
    }
    const next = await strict.call('POST', `/manage/${b.reference}/changes`, { additional_info: 'One more' }, as(b));
    expect(next.status).toBe(429);
    expect((await strict.call('POST', `/manage/${b.reference}/cancel`, {}, as(b))).status).toBe(429);
  });
});
