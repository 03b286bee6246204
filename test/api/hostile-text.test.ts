// Hostile text in every text field: control characters (a NUL byte once gave
// 500 in 27 fields) and e-mail values that would become several recipients or
// a header. Each is a 422 naming the field, and nothing is stored or sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, HEATHROW_TO_TRAFALGAR } from './setup';
import { toMailOptions } from '../../src/server/mail/transport';

const IDENTITY = { key: 'a1b2c3d4e5f6', createdAt: new Date('2030-01-02T03:04:05Z') };
import { isEmail } from '../../src/domain/fields';
import { setSetting } from '../../src/server/operator/operator';

let t: Awaited<ReturnType<typeof testApp>>;
let vehicle: Record<string, unknown>;
beforeAll(async () => {
  t = await testApp();
  await setSetting(t.db, 'HOURLY_RATE_STATUS', 'enable');
  vehicle = (await t.call('POST', '/calculate-distance-price', HEATHROW_TO_TRAFALGAR)).body.price_details[0];
});
afterAll(async () => { await t.db.close(); });

const trip = {
  ...HEATHROW_TO_TRAFALGAR, select_option: 'return', return_date: '2030-06-08', return_hour: '5pm', return_min: '30',
  pickup_fight_number: 'BA 117', return_fight_number: 'BA 118', modal: 'none',
  stops: [{ street_name: 'Euston Station, Euston Road, London', number: '1', postcode: 'NW1 2RT' }],
};
const guest = {
  firstName: 'Amelia', surname: 'Hart', number: '+44 770 090 012', email: 'amelia@example.com', username: 'amelia@example.com',
  passengerDetails: 'yes', passengerName: 'Tom', passengerLastname: 'Hart', passengerEmail: 'tom@example.com',
  passengerPhone: '+44 770 090 013', additionalInfo: 'Two bags', return_additionalInfo: 'One bag',
};

/** A valid body for each POST, and the text fields in it. */
const CALLS: Record<string, { body: () => Record<string, any>; fields: string[] }> = {
  '/calculate-distance-price': {
    body: () => structuredClone(trip),
    fields: ['pickup', 'dropoff', 'pickup_fight_number', 'return_fight_number', 'modal', 'stops.0.street_name', 'stops.0.number', 'stops.0.postcode'],
  },
  '/calculate-hourly-price': {
    body: () => ({ pickup: trip.pickup, pickup_date: '2030-06-01', pickup_duration: '5hour', pickup_hour: '9am', pickup_min: '00' }),
    fields: ['pickup'],
  },
  '/calculate-distance': { body: () => ({ pickup: trip.pickup, dropoff: trip.dropoff }), fields: ['pickup', 'dropoff'] },
  '/check-passenger-email': { body: () => ({ email: 'amelia@example.com', password: 'secret-1' }), fields: ['email'] },
  '/booking': {
    body: () => ({
      selectedVehicleData: vehicle, bookingType: 'milleage', bookingForm: structuredClone(trip), payment_method: 'car',
      selected_passenger: 'guest_login', registrationData: { ...guest }, stripe_session_id: 'none', paymentId: 'none',
    }),
    fields: [
      ...Object.keys(guest).filter((k) => k !== 'passengerDetails').map((k) => `registrationData.${k}`),
      'bookingForm.pickup', 'bookingForm.dropoff', 'bookingForm.pickup_fight_number', 'bookingForm.stops.0.street_name',
      'stripe_session_id', 'paymentId',
    ],
  },
  '/send-instant-email': {
    body: () => ({
      pickup_address: trip.pickup, dropoff_address: trip.dropoff, pickup_date: '2030-06-01', pickup_time: '15:05',
      passenger_email: 'amelia@example.com', passenger_phone: '+44 7700 900123', passenger_name: 'Amelia Hart', additional_info: 'Hi',
    }),
    fields: ['pickup_address', 'dropoff_address', 'passenger_email', 'passenger_phone', 'passenger_name', 'additional_info'],
  },
  '/contact-us': {
    body: () => ({ firstName: 'Amelia', lastName: 'Hart', email: 'amelia@example.com', telephone: '07700 900123', queryReason: 'Booking', bookingNumber: 'BK-ABCDEFGH', comments: 'Hello' }),
    fields: ['firstName', 'lastName', 'email', 'telephone', 'bookingNumber', 'comments'],
  },
  '/auth/forgot-password': { body: () => ({ email: 'amelia@example.com', type: 'website' }), fields: ['email', 'type'] },
  '/auth/verify-code': { body: () => ({ email: 'amelia@example.com', code: '123456' }), fields: ['email'] },
  '/auth/reset-password': { body: () => ({ email: 'amelia@example.com', code: '123456', new_password: 'abcdef', type: 'website' }), fields: ['email', 'type'] },
};

function setPath(body: Record<string, any>, path: string, value: string) {
  const keys = path.split('.');
  let node = body;
  for (const k of keys.slice(0, -1)) node = node[k];
  node[keys.at(-1)!] = value;
  return body;
}

const cases = Object.entries(CALLS).flatMap(([call, { fields }]) => fields.map((field) => [call, field] as const));

async function stored() {
  const [row] = await t.db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM bookings) + (SELECT count(*) FROM quote_requests) + (SELECT count(*) FROM contact_messages)
            + (SELECT count(*) FROM outbound_emails) AS n`);
  return Number(row.n);
}

describe('control characters in text fields', () => {
  it('accepts every base body as it is (so each refusal below is about the one field changed)', async () => {
    for (const [call, { body }] of Object.entries(CALLS)) {
      const res = await t.call('POST', call, body());
      expect(res.status, `${call}: ${JSON.stringify(res.body).slice(0, 200)}`).not.toBe(422);
      expect(res.status, call).toBeLessThan(500);
    }
  });

  it.each(cases)('%s refuses a NUL byte in %s with 422 naming the field', async (call, field) => {
    const before = await stored();
    const res = await t.call('POST', call, setPath(CALLS[call].body(), field, 'Ab\u0000cd@example.com'));
    expect([res.status, res.body.field]).toEqual([422, field]);
    expect(typeof res.body.message).toBe('string');
    expect(await stored()).toBe(before);
  });

  it('refuses other control characters, and line breaks outside multi-line fields', async () => {
    for (const value of ['Line\u0007bell', 'Esc\u001b[31m', 'Del\u007f', 'C1\u0085next']) {
      const res = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), lastName: value });
      expect([res.status, res.body.field], JSON.stringify(value)).toEqual([422, 'lastName']);
      expect(res.body.message).toContain('control characters');
    }
    const newline = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), firstName: 'Amelia\r\nBcc: x@example.com' });
    expect([newline.status, newline.body.field]).toEqual([422, 'firstName']);
    const comments = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), comments: 'Line one\r\nLine two\ttabbed' });
    expect(comments.status).toBe(200);
  });
});

describe('text that shows in another order than it is (issue 24)', () => {
  it.each(cases)('%s refuses a right-to-left override in %s with 422 naming the field', async (call, field) => {
    const before = await stored();
    const res = await t.call('POST', call, setPath(CALLS[call].body(), field, 'gpj.\u202eexe@example.com'));
    expect([res.status, res.body.field]).toEqual([422, field]);
    expect(await stored()).toBe(before);
  });

  it('refuses isolates and line separators in a name, and a line separator only outside multi-line text', async () => {
    for (const value of ['Amelia\u2066Hart\u2069', 'Amelia\u2028Hart', 'Amelia\u2029Hart', 'Amelia\u202aHart']) {
      const res = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), lastName: value });
      expect([res.status, res.body.field], JSON.stringify(value)).toEqual([422, 'lastName']);
      expect(res.body.message).toContain('control characters');
    }
    const comments = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), comments: 'Line one\u2028Line two' });
    expect(comments.status).toBe(200);
    const hidden = await t.call('POST', '/contact-us', { ...CALLS['/contact-us'].body(), comments: 'Pay to \u202e0001 ,tnuocca' });
    expect([hidden.status, hidden.body.field]).toEqual([422, 'comments']);
  });
});

describe('JSON nested deeper than 32 levels (issue 24)', () => {
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const withExtra = (body: Record<string, unknown>, extra: string) => `${JSON.stringify(body).slice(0, -1)},"extra":${extra}}`;

  it.each(Object.keys(CALLS))('%s refuses 10,000 nested arrays in an extra field with 400, before anything reads them', async (call) => {
    const before = await stored();
    const res = await t.call('POST', call, withExtra(CALLS[call].body(), nested(10_000)), { 'Idempotency-Key': `deep-${call}` });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is nested too deeply: at most 32 levels of arrays and objects.');
    expect(await stored()).toBe(before);
  });

  it('takes 32 levels, refuses 33, and does not count brackets inside text', async () => {
    // The body itself is the first level: an extra field of 31 nested arrays makes 32.
    const body = { ...CALLS['/contact-us'].body(), comments: `[{"${'['.repeat(100)}` };
    expect((await t.call('POST', '/contact-us', withExtra(body, nested(31)))).status).toBe(200);
    expect((await t.call('POST', '/contact-us', withExtra(body, nested(32)))).status).toBe(400);
    const quoted = { ...CALLS['/contact-us'].body(), comments: 'Say \\"[[[" and \\' };
    expect((await t.call('POST', '/contact-us', withExtra(quoted, nested(31)))).status).toBe(200);
  });
});

describe('e-mail fields', () => {
  const emailFields = [
    ['/booking', 'registrationData.email'], ['/booking', 'registrationData.passengerEmail'], ['/send-instant-email', 'passenger_email'],
    ['/contact-us', 'email'], ['/check-passenger-email', 'email'], ['/auth/forgot-password', 'email'],
  ] as const;
  const hostile = [
    'a@example.com,b@example.com', 'a@example.com; b@example.com', 'Eve <eve@example.com>', 'a@example.com\r\nBcc: b@example.com',
    'group: a@example.com, b@example.com;', '"a,b"@example.com', 'a@example.com\u0000',
  ];

  it.each(emailFields)('%s refuses lists, groups, names and header breaks in %s', async (call, field) => {
    const before = await stored();
    for (const value of hostile) {
      const res = await t.call('POST', call, setPath(CALLS[call].body(), field, value));
      expect([res.status, res.body.field], JSON.stringify(value)).toEqual([422, field]);
    }
    expect(await stored()).toBe(before);
  });

  it('sends a booking for someone else to exactly the two addresses given', async () => {
    const res = await t.call('POST', '/booking', CALLS['/booking'].body());
    expect(res.status).toBe(200);
    const to = await t.db.query<{ to_address: string }>("SELECT to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation' ORDER BY id", [res.body.data.booking.id]);
    expect(to.map((r) => r.to_address)).toEqual(['amelia@example.com', 'tom@example.com']);
  });

  it('reach the mail library as single address objects, and a bad one is refused before sending', () => {
    const options = toMailOptions({ ...IDENTITY, from: 'bookings@example.com', to: 'a@example.com', cc: 'c@example.com', replyTo: 'r@example.com', subject: 's', text: 't', html: 'h' });
    expect(options).toMatchObject({
      from: { name: '', address: 'bookings@example.com' }, to: [{ name: '', address: 'a@example.com' }], cc: [{ name: '', address: 'c@example.com' }],
      replyTo: [{ name: '', address: 'r@example.com' }],
    });
    for (const bad of hostile) {
      expect(() => toMailOptions({ ...IDENTITY, from: 'bookings@example.com', to: bad, subject: 's', text: 't', html: 'h' }), bad).toThrow(/not one valid e-mail address/);
      expect(() => toMailOptions({ ...IDENTITY, from: 'bookings@example.com', to: 'a@example.com', cc: bad, subject: 's', text: 't', html: 'h' }), bad)
        .toThrow(/copy address .* is not one valid e-mail address/s);
    }
  });

  it('share one rule with the forms', () => {
    for (const good of ['amelia@example.com', 'first.last+tag@sub.example.co.uk', ' spaced@example.com ']) expect(isEmail(good), good).toBe(true);
    for (const bad of [...hostile, 'no-at.example.com', 'a@b', '', 'a b@example.com']) expect(isEmail(bad), bad).toBe(false);
  });
});
