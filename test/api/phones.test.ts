// Decision 20 on the server: every phone a request carries (booking, quote,
// contact form, profile) passes the one phone rule or is a 422 naming its field
// with SPEC 5's text; it is stored as E.164 and e-mailed formatted. The contact
// form takes booking references as the site issues them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const PHONE_MESSAGE = 'Please enter a valid phone number (e.g., +xxx xxx xxx xxx)';
const bookingForm = {
  pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Euston Station, Euston Road, London NW1 2RT',
  pickup_date: '2030-04-11', pickup_hour: '9am', pickup_min: '15', passengers: 1,
};
const guest = { firstName: 'Priya', surname: 'Shah', email: 'priya.shah@example.com', number: '07700 900123' };

async function book(registrationData: Record<string, unknown>, mode = 'guest_login', headers: Record<string, string> = {}) {
  const prices = await t.call('POST', '/calculate-distance-price', bookingForm);
  return t.call('POST', '/booking', {
    selectedVehicleData: prices.body.price_details[0], bookingType: 'milleage', bookingForm, registrationData,
    payment_method: 'car', selected_passenger: mode,
  }, headers);
}

describe('phones in bookings', () => {
  it('stores a UK number as E.164, answers it so, and e-mails it formatted', async () => {
    const res = await book({ ...guest, passengerDetails: 'yes', passengerName: 'Ravi', passengerPhone: '(020) 7946-0321' });
    expect(res.status).toBe(200);
    expect(res.body.data.passengerDetails.passenger_contact_no).toBe('+442079460321');
    const [passenger] = await t.db.query<any>('SELECT phone FROM passengers WHERE email = $1', [guest.email]);
    expect(passenger.phone).toBe('+447700900123');
    await t.mail.deliverDue();
    const mail = t.mailbox.sent.find((m) => m.subject.includes(res.body.data.booking.booking_number))!;
    expect(mail.text).toMatch(/^Name +Ravi$/m);
    expect(mail.text).toMatch(/^Email +priya\.shah@example\.com$/m);
    expect(mail.text).toMatch(/^Phone +\+44 20 7946 0321$/m);
  });

  it("keeps SPEC 5's +xxx xxx xxx xxx working, stored without its spaces", async () => {
    const res = await book({ ...guest, email: 'spec.shape@example.com', number: '+123 456 789 012' });
    expect([res.status, res.body.data?.passengerDetails.passenger_contact_no]).toEqual([200, '+123456789012']);
  });

  it.each([
    ['a short number', { number: '07700 90012' }, 'registrationData.number'],
    ['letters', { number: '0770 nine 00 123' }, 'registrationData.number'],
    ["the other passenger's", { passengerDetails: 'yes', passengerName: 'Ravi', passengerPhone: '12345' }, 'registrationData.passengerPhone'],
  ])('refuses %s with 422 naming the field and SPEC 5\'s text, and books nothing', async (_what, change, field) => {
    const before = await t.db.query('SELECT id FROM bookings');
    const res = await book({ ...guest, email: 'refused@example.com', ...change });
    expect([res.status, res.body.success, res.body.field]).toEqual([422, false, field]);
    expect(res.body.message).toContain(PHONE_MESSAGE);
    expect(await t.db.query('SELECT id FROM bookings')).toHaveLength(before.length);
  });

  it('checks a phone sent by a signed-in passenger too, and otherwise uses the account\'s', async () => {
    const login = await t.call('POST', '/check-passenger-login', { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password });
    const bearer = { Authorization: `Bearer ${login.body.access_token}` };
    const bad = await book({ email: DEMO_CORPORATE.email, number: '999' }, 'guest_login', bearer);
    expect([bad.status, bad.body.field]).toEqual([422, 'registrationData.number']);
    const ok = await book({ email: DEMO_CORPORATE.email, number: '' }, 'guest_login', bearer);
    expect([ok.status, ok.body.data.passengerDetails.passenger_contact_no]).toEqual([200, '+442079460018']);
  });
});

describe('phones in the quote request, the contact form and the profile', () => {
  const quote = {
    pickup_date: '2030-05-02', pickup_time: '07:45', passenger_email: 'mia@example.com', passenger_phone: '+44 20 7946 0321', passengers: 1,
  };

  it('stores the quote telephone as E.164 and e-mails it formatted; refuses a bad one naming passenger_phone', async () => {
    expect((await t.call('POST', '/send-instant-email', quote)).status).toBe(200);
    const [row] = await t.db.query<any>('SELECT passenger_phone FROM quote_requests ORDER BY id DESC LIMIT 1');
    expect(row.passenger_phone).toBe('+442079460321');
    await t.mail.deliverDue();
    expect(t.mailbox.sent.at(-1)!.text).toContain('+44 20 7946 0321');
    const bad = await t.call('POST', '/send-instant-email', { ...quote, passenger_phone: 'call me' });
    expect([bad.status, bad.body.field, bad.body.message]).toEqual([422, 'passenger_phone', `passenger_phone: ${PHONE_MESSAGE}`]);
  });

  it('takes a contact telephone with digits, spaces and a leading +, and a booking reference as issued', async () => {
    const issued = (await book({ ...guest, email: 'contact.ref@example.com' })).body.data.booking.booking_number as string;
    const message = {
      firstName: 'Noah', lastName: 'Patel', email: '', telephone: '+44 7700 900456', queryReason: 'Lost Item',
      bookingNumber: issued.toLowerCase(), comments: 'I left an umbrella in the car.',
    };
    expect((await t.call('POST', '/contact-us', message)).status).toBe(200);
    const [row] = await t.db.query<any>('SELECT telephone, booking_number FROM contact_messages ORDER BY id DESC LIMIT 1');
    expect(row).toEqual({ telephone: '+447700900456', booking_number: issued });
    for (const [change, field] of [
      [{ telephone: '07700-900-456 x2' }, 'telephone'], [{ telephone: 'none' }, 'telephone'],
      [{ bookingNumber: '12345' }, 'bookingNumber'], [{ bookingNumber: 'BK-OOOOOOOO' }, 'bookingNumber'],
    ] as const) {
      const res = await t.call('POST', '/contact-us', { ...message, ...change });
      expect([res.status, res.body.field], JSON.stringify(change)).toEqual([422, field]);
    }
  });

  it('stores the profile phone as E.164, takes it away when emptied, and refuses a bad one naming phone', async () => {
    const login = await t.call('POST', '/check-passenger-login', { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password });
    const bearer = { Authorization: `Bearer ${login.body.access_token}` };
    const body = { name: DEMO_CORPORATE.name, email: DEMO_CORPORATE.email };
    const saved = await t.call('PATCH', '/update-passenger', { ...body, phone: '07700 900777' }, bearer);
    expect(saved.body.passenger.passenger_contact_no).toBe('+447700900777');
    const bad = await t.call('PATCH', '/update-passenger', { ...body, phone: '0770' }, bearer);
    expect([bad.status, bad.body.field]).toEqual([422, 'phone']);
    const [row] = await t.db.query<any>('SELECT phone FROM passengers WHERE email = $1', [DEMO_CORPORATE.email]);
    expect(row.phone).toBe('+447700900777');
    const emptied = await t.call('PATCH', '/update-passenger', { ...body, phone: '' }, bearer);
    expect(emptied.body.passenger.passenger_contact_no).toBe('');
    await t.call('PATCH', '/update-passenger', { ...body, phone: DEMO_CORPORATE.phone }, bearer);
  });
});
