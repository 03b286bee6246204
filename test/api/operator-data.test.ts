// Issue 26 'Operator data', through the API: administrators change settings (typed), companies, the fleet and
// its rates, places and staff from the console, through the same functions as `npm run admin`, each change audited;
// nobody else can.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';
import { DEMO_STAFF, DEMO_SETTINGS } from '../../src/server/operator/seed';
import { setSetting } from '../../src/server/operator/operator';

let t: Awaited<ReturnType<typeof testApp>>;
let admin: string;
let metro: string;
const [ADMIN, METRO] = DEMO_STAFF;

async function signIn(email: string, password: string) {
  const res = await t.call('POST', '/operator/session', { email, password });
  expect(res.status).toBe(200);
  return res.headers['set-cookie'].split(';')[0];
}
beforeAll(async () => {
  t = await testApp();
  admin = await signIn(ADMIN.email, ADMIN.password);
  metro = await signIn(METRO.email, METRO.password);
});
afterAll(async () => { await t.db.close(); });

const as = (cookie: string) => ({ Cookie: cookie });
const change = (cookie: string, c: Record<string, unknown>) => t.call('POST', '/operator/data', { change: c }, as(cookie));
const section = async (name: string) => (await t.call('GET', `/operator/data/${name}`, undefined, as(admin))).body.data;
const audited = (action: string) => t.db.query<{ staff_name: string; subject: string; before: unknown; after: unknown }>(
  'SELECT staff_name, subject, before, after FROM audit_log WHERE action = $1 ORDER BY id', [action]);

describe('operator data', () => {
  it('is for administrators only: a company member or a dispatcher is refused', async () => {
    expect((await t.call('GET', '/operator/data/settings', undefined, as(metro))).status).toBe(403);
    const refused = await change(metro, { kind: 'setting', name: 'GRACE_TIME', value: '5' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only an administrator can do this.');
    const night = await change(admin, { kind: 'addStaff', email: 'night@albion-executive.co.uk', name: 'Sam Lee', role: 'dispatcher' });
    const dispatcher = await signIn('night@albion-executive.co.uk', night.body.password);
    expect((await t.call('GET', '/operator/data/staff', undefined, as(dispatcher))).status).toBe(403);
    expect((await change(dispatcher, { kind: 'addStaff', email: 'me@x.uk', name: 'Me', role: 'admin' })).status).toBe(403);
    expect((await t.call('GET', '/operator/data/settings')).status).toBe(401);
    expect((await t.call('GET', '/operator/data/secrets', undefined, as(admin))).status).toBe(404);
  });

  it('lists the settings by kind with their values, and refuses a value of the wrong kind naming the setting', async () => {
    const settings = await section('settings') as { name: string; kind: string; value: string }[];
    expect(settings.find((s) => s.name === 'GRACE_TIME')).toMatchObject({ kind: 'minutes', value: DEMO_SETTINGS.GRACE_TIME });
    expect(settings.find((s) => s.name === 'SHOWCARD')).toMatchObject({ kind: 'yesNo', value: 'yes' });
    expect(settings.find((s) => s.name === 'HOURLY_RATE_STATUS')).toMatchObject({ kind: 'toggle', value: 'disable' });
    for (const [name, value] of [['GRACE_TIME', 'two hours'], ['HOURLY_RATE_STATUS', 'yes'], ['SHOWCARD', 'enable'], ['MEET_AND_GREET', '£15'], ['FROM_EMAIL', 'office'],
      ['CANCELLATION_WINDOW_HOURS', 'a day'], ['VAT_RATE', '20%']]) {
      const res = await change(admin, { kind: 'setting', name, value });
      expect(res.status, `${name}=${value}`).toBe(422);
      expect(res.body.field).toBe(name);
    }
    expect((await change(admin, { kind: 'setting', name: 'API_SECRET', value: 'x' })).body.field).toBe('name');
  });

  it('changes a setting at once for the site, audited with its value before and after', async () => {
    try {
      expect((await change(admin, { kind: 'setting', name: 'HOURLY_RATE_STATUS', value: 'enable' })).body.done).toBe('Hourly hire saved.');
      const site = (await t.call('GET', '/setting')).body as { setting_name: string; setting_value: string }[];
      expect(site.find((s) => s.setting_name === 'HOURLY_RATE_STATUS')?.setting_value).toBe('enable');
      expect((await audited('Setting changed')).at(-1)).toEqual({ staff_name: `${ADMIN.name} (${ADMIN.email})`, subject: 'HOURLY_RATE_STATUS', before: 'disable', after: 'enable' });
    } finally {
      await setSetting(t.db, 'HOURLY_RATE_STATUS', 'disable');
    }
  });

  it('adds a company, takes it off the quotes and back', async () => {
    const bad = await change(admin, { kind: 'company', company_name: 'Cotswold Cars', contact_email: 'not-an-address' });
    expect(bad.body.field).toBe('contact_email');
    expect((await change(admin, { kind: 'company', company_name: 'Cotswold Cars', contact_phone: '+44 1285 000000', contact_email: 'office@cotswoldcars.co.uk' })).status).toBe(200);
    expect((await section('companies') as { company_name: string }[]).map((c) => c.company_name)).toContain('Cotswold Cars');
    const form = { pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN', pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 1, luggages: 0 };
    const companies = async () => new Set(((await t.call('POST', '/calculate-distance-price', form)).body.price_details as { company_name: string }[]).map((p) => p.company_name));
    expect((await companies()).has('Metro Cars London')).toBe(true);
    await change(admin, { kind: 'companyActive', company_name: 'Metro Cars London', active: false });
    try {
      expect((await companies()).has('Metro Cars London')).toBe(false);
    } finally {
      await change(admin, { kind: 'companyActive', company_name: 'Metro Cars London', active: true });
    }
    expect((await companies()).has('Metro Cars London')).toBe(true);
    expect((await audited('Company disabled')).at(-1)?.subject).toBe('Metro Cars London');
  });

  it('sets a rate with its per-mile bands in pounds, refusing bands that do not start at mile 0', async () => {
    const fleet = await section('fleet') as { rates: { company_id: number; vehicle_type_id: number; company_name: string; category_name: string; bands: unknown[] }[] };
    const saloon = fleet.rates.find((r) => r.company_name === 'Metro Cars London' && r.category_name === 'Saloon')!;
    const ids = { company_id: saloon.company_id, vehicle_type_id: saloon.vehicle_type_id };
    const noZero = await change(admin, { kind: 'rate', ...ids, base: '4.00', minimum: '22.00', hourly: '35.00', bands: [{ from_miles: '5', per_mile: '2.60' }] });
    expect(noZero.body).toMatchObject({ field: 'bands.0.from_miles', message: 'The first per-mile rate starts at mile 0.' });
    expect((await change(admin, { kind: 'rate', ...ids, base: 'four', minimum: '22', hourly: '35', bands: [{ from_miles: '0', per_mile: '2.60' }] })).body.field).toBe('base');
    const ok = await change(admin, { kind: 'rate', ...ids, base: '4.50', minimum: '25.00', hourly: '38.00', bands: [{ from_miles: '0', per_mile: '2.70' }, { from_miles: '12', per_mile: '1.90' }, { from_miles: '', per_mile: '' }] });
    expect(ok.body.done).toBe('Rate saved: Metro Cars London, Saloon.');
    const after = (await section('fleet') as typeof fleet).rates.find((r) => r.company_name === 'Metro Cars London' && r.category_name === 'Saloon');
    expect(after).toMatchObject({ base: '4.50', minimum: '25.00', hourly: '38.00', bands: [{ from_miles: 0, per_mile: '2.70' }, { from_miles: 12, per_mile: '1.90' }] });
  });

  it('bans and unbans a place for every booking form', async () => {
    expect((await change(admin, { kind: 'ban', pattern: 'Trafalgar Square', reason: 'Road closed for the event' })).status).toBe(200);
    const form = { pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN', pickup_date: '2030-09-12', pickup_hour: '7am', pickup_min: '15', passengers: 1, luggages: 0 };
    expect((await t.call('POST', '/calculate-distance-price', form)).status).toBe(422);
    expect((await section('places') as { banned: { pattern: string }[] }).banned.map((b) => b.pattern)).toContain('Trafalgar Square');
    expect((await change(admin, { kind: 'unban', pattern: 'Trafalgar Square' })).status).toBe(200);
    expect((await t.call('POST', '/calculate-distance-price', form)).status).toBe(200);
    expect((await change(admin, { kind: 'unban', pattern: 'Trafalgar Square' })).body.field).toBe('pattern');
    const lat = await change(admin, { kind: 'address', address: 'Cheltenham Racecourse, Cheltenham GL50 4SH', lat: '48.1', lon: '-2.06' });
    expect(lat.body.field).toBe('lat');
  });

  it('adds staff with a password shown once, and removes them; an administrator cannot remove themselves', async () => {
    const added = await change(admin, { kind: 'addStaff', email: 'jo@cotswoldcars.co.uk', name: 'Jo Hart', role: 'company', company: 'Metro Cars London' });
    expect(added.status).toBe(200);
    expect(added.body.password).toMatch(/^[\w-]{16}$/);
    const jo = await signIn('jo@cotswoldcars.co.uk', added.body.password);
    expect((await t.call('GET', '/operator/session', undefined, as(jo))).body.staff).toMatchObject({ role: 'company', company_name: 'Metro Cars London' });
    expect((await section('staff') as { email: string }[]).map((s) => s.email)).toContain('jo@cotswoldcars.co.uk');
    expect((await change(admin, { kind: 'addStaff', email: 'x@y.uk', name: 'X', role: 'owner' })).body.field).toBe('role');
    expect((await change(admin, { kind: 'removeStaff', email: ADMIN.email })).body).toMatchObject({ field: 'email', message: 'You cannot remove yourself.' });
    expect((await change(admin, { kind: 'removeStaff', email: 'jo@cotswoldcars.co.uk' })).status).toBe(200);
    expect((await t.call('GET', '/operator/bookings', undefined, as(jo))).status).toBe(401);
    expect((await audited('Staff removed')).at(-1)?.subject).toBe('jo@cotswoldcars.co.uk');
  });

  it('changes a vehicle type, and shows every change in the audit log, newest first', async () => {
    expect((await change(admin, { kind: 'vehicle', category_name: 'Estate', seats: '0', luggage: '3', hand_luggage: '3' })).body.field).toBe('seats');
    expect((await change(admin, { kind: 'vehicle', category_name: 'Estate', seats: '4', luggage: '4', hand_luggage: '3', sort_order: '2' })).body.done).toBe('Estate saved.');
    const fleet = await section('fleet') as { vehicles: { category_name: string; luggage: number }[] };
    expect(fleet.vehicles.find((v) => v.category_name === 'Estate')?.luggage).toBe(4);
    const log = await section('audit') as { action: string; staff_name: string; subject: string }[];
    expect(log[0]).toMatchObject({ action: 'Vehicle type changed', staff_name: `${ADMIN.name} (${ADMIN.email})`, subject: 'Estate' });
    expect(log.map((a) => a.action)).toContain('Setting changed');
  });
});
