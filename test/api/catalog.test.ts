import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from './setup';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

describe('API keys (SPEC 6)', () => {
  it('refuses a call without both key headers with 401', async () => {
    const attempts: Record<string, string>[] = [{}, { 'API-PUBLIC-KEY': 'test-public' }, { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'wrong' }];
    for (const headers of attempts) {
      const res = await t.app.request('/api/v1/setting', { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, message: 'Missing or invalid API keys' });
    }
  });
});

describe('operator data', () => {
  it('lists the settings as setting_name and setting_value', async () => {
    const { status, body } = await t.call('GET', '/setting');
    expect(status).toBe(200);
    const settings = Object.fromEntries(body.map((s: { setting_name: string; setting_value: string }) => [s.setting_name, s.setting_value]));
    expect(settings).toMatchObject({ Company_Name: 'Albion Executive Cars', CURRENCY: '£', GRACE_TIME: '120' });
    expect(settings.Company_Contact_Info).toMatch(/^\+44/);
    expect(settings.Company_Address).toMatch(/London/);
  });

  it('lists at least two operator companies as id and company.company_name', async () => {
    const { body } = await t.call('GET', '/fetch_companies');
    expect(body.length).toBeGreaterThanOrEqual(2);
    expect(body[0]).toEqual({ id: expect.any(Number), company: { company_name: expect.any(String) } });
  });

  it('lists at least five vehicle types with seats and luggage', async () => {
    const { body } = await t.call('GET', '/fetch_vehicles');
    expect(body.length).toBeGreaterThanOrEqual(5);
    expect(body[0]).toEqual({
      tbms_vid: expect.any(Number), vehicle_img: expect.stringMatching(/^\/storage\//), category_name: 'Saloon',
      seats: 4, hand_luggage: 2, luggage: 2,
    });
  });

  it('lists thirty or more known addresses', async () => {
    const { body } = await t.call('GET', '/ai-addresses');
    expect(body.length).toBeGreaterThanOrEqual(30);
    expect(body.some((a: { address: string }) => /Heathrow Airport Terminal 5/.test(a.address))).toBe(true);
  });

  it('answers an unknown call with a JSON 404', async () => {
    const { status, body } = await t.call('GET', '/nothing-here');
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });
});
