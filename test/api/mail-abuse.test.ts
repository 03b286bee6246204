// Issue 24, 'Mail': the site no longer mails anyone in the operator's name without limit. Contact messages and quote
// requests: 5 an hour per client address; bookings without a corporate sign-in: 10 an hour per address and 3 an
// hour to one recipient; a filled honeypot is answered as sent and neither stored nor mailed; signed-in corporate
// bookings are exempt. The numbers are the README's (DEFAULT_LIMITS is what runs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PADDINGTON_TO_HEATHROW, testApp } from './setup';
import { DEFAULT_LIMITS } from '../../src/server/limits';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp({ limits: DEFAULT_LIMITS }); });
afterAll(async () => { await t.db.close(); });

const from = (address: string) => ({ 'X-Forwarded-For': address });
const count = async (sql: string, params: unknown[] = []) => (await t.db.query<{ n: number }>(sql, params))[0].n;

const quote = {
  pickup_address: 'Bath City Centre, Abbey Churchyard, Bath BA1 1LT', dropoff_address: 'Bristol Airport, Lulsgate Bottom, Bristol BS48 3DY',
  pickup_date: '2030-05-02', pickup_time: '07:45', passenger_email: 'mia@example.com', passenger_phone: '+447700900123',
  passenger_name: 'Mia Clarke', additional_info: 'Two golf bags', passengers: 3, luggages: 4,
};
const contact = { firstName: 'Mia', lastName: 'Clarke', email: 'mia@example.com', telephone: '', comments: 'Hello' };

describe('contact messages and quote requests', () => {
  it.each([
    ['/contact-us', contact, 'contact_messages', 'contact_message'],
    ['/send-instant-email', quote, 'quote_requests', 'quote_request'],
  ] as const)('%s: 5 an hour from one address, the 6th is a 429 and mails nothing; another address goes on', async (path, body, table, kind) => {
    for (let i = 0; i < 5; i++) expect((await t.call('POST', path, body, from('192.0.2.1'))).status).toBe(200);
    const sixth = await t.call('POST', path, body, from('192.0.2.1'));
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/Too many .* from your network in the last hour/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await count(`SELECT count(*)::int AS n FROM ${table}`)).toBe(5);
    expect(await count('SELECT count(*)::int AS n FROM outbound_emails WHERE kind = $1', [kind])).toBe(5);
    expect((await t.call('POST', path, body, from('192.0.2.2'))).status).toBe(200);
  });

  it.each([
    ['/contact-us', contact, 'contact_messages'],
    ['/send-instant-email', quote, 'quote_requests'],
  ] as const)('%s: a filled honeypot is answered as sent, and nothing is stored, mailed or counted', async (path, body, table) => {
    const rows = await count(`SELECT count(*)::int AS n FROM ${table}`);
    const mails = await count('SELECT count(*)::int AS n FROM outbound_emails');
    const res = await t.call('POST', path, { ...body, website: 'http://spam.example' }, from('192.0.2.3'));
    expect([res.status, res.body.success]).toEqual([200, true]);
    expect(await count(`SELECT count(*)::int AS n FROM ${table}`)).toBe(rows);
    expect(await count('SELECT count(*)::int AS n FROM outbound_emails')).toBe(mails);
    for (let i = 0; i < 5; i++) expect((await t.call('POST', path, body, from('192.0.2.3'))).status).toBe(200);
  });
});

const bookingForm = PADDINGTON_TO_HEATHROW;
let saloon: unknown;
beforeAll(async () => {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  saloon = body.price_details.find((p: any) => p.vehicle_type === 'Saloon');
});
const guest = (email: string, extra: Record<string, unknown> = {}) => ({
  selectedVehicleData: saloon, selectedVehicle: 1, bookingType: 'milleage', bookingForm, hourlyRateForm: null, payment_method: 'car',
  selected_passenger: 'guest_login', registrationData: { firstName: 'Gus', surname: 'Guest', number: '+44 791 123 456', email, ...extra },
});

describe('bookings without a corporate sign-in', () => {
  it('confirm to one address 3 times an hour, whoever books; the 4th is a 429 that writes nothing', async () => {
    for (let i = 1; i <= 3; i++) {
      expect((await t.call('POST', '/booking', guest('victim@example.org'), from(`192.0.2.${10 + i}`))).status).toBe(200);
    }
    const before = await count('SELECT count(*)::int AS n FROM bookings');
    const fourth = await t.call('POST', '/booking', guest('VICTIM@example.org'), from('192.0.2.14'));
    expect([fourth.status, fourth.body.field]).toEqual([429, 'registrationData.email']);
    expect(fourth.body.message).toContain('Too many bookings were confirmed to this e-mail address');
    expect(await count('SELECT count(*)::int AS n FROM bookings')).toBe(before);
    // The passenger's own address counts as a recipient too (booking for someone else).
    const forVictim = guest('booker@example.org', {
      passengerDetails: 'yes', passengerName: 'Vic', passengerLastname: 'Tim', passengerEmail: 'victim@example.org', passengerPhone: '',
    });
    expect((await t.call('POST', '/booking', forVictim, from('192.0.2.15'))).status).toBe(429);
  });

  it('are 10 an hour from one address; the 11th is a 429', async () => {
    for (let i = 1; i <= 10; i++) {
      expect((await t.call('POST', '/booking', guest(`traveller${i}@example.org`), from('192.0.2.20'))).status).toBe(200);
    }
    expect((await t.call('POST', '/booking', guest('traveller11@example.org'), from('192.0.2.20'))).status).toBe(429);
  });

  it('leaves signed-in corporate bookings out of every count', async () => {
    const login = await t.call('POST', '/check-passenger-login', { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password }, from('192.0.2.30'));
    const headers = { Authorization: `Bearer ${login.body.access_token}`, ...from('192.0.2.30') };
    for (let i = 0; i < 12; i++) {
      const res = await t.call('POST', '/booking', guest(DEMO_CORPORATE.email, { firstName: 'Charlotte', surname: 'Davies' }), headers);
      expect(res.status).toBe(200);
    }
  });
});
