// Issue 43 §4: the register of booking and dispatch staff with each one's DBS certificate number and the date it was
// seen, from the console (Operator data > Staff: adding staff, and the DBS record alone, each audited; a wrong number or
// date is a 422 naming its field and writes nothing; administrators only), as CSV, and from `npm run admin`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_SECURITY } from './setup';
import { signIn, type TestApp } from './privacyHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';
import { runAdmin, UsageError } from '../../src/server/operator/adminCommands';
import { ukToday } from '../../src/domain/ukTime';

let t: TestApp;
let admin: { Cookie: string }, company: { Cookie: string };
beforeAll(async () => {
  t = await testApp();
  admin = await signIn(t, DEMO_STAFF[0].email, DEMO_STAFF[0].password);
  company = await signIn(t, DEMO_STAFF[1].email, DEMO_STAFF[1].password);
});
afterAll(async () => { await t.db.close(); });

const change = (who: { Cookie: string }, c: Record<string, unknown>) => t.call('POST', '/operator/data', { change: c }, who);
const register = async () => (await t.call('GET', '/operator/data/staff', undefined, admin)).body.data as Record<string, unknown>[];
const row = async (email: string) => (await register()).find((s) => s.email === email);
const dbsAudits = () => t.db.query<any>("SELECT subject, before, after FROM audit_log WHERE action = 'Staff DBS record changed' ORDER BY id");

describe('the staff register from the console', () => {
  it('adds a member of staff with the DBS certificate seen, and lists it', async () => {
    const added = await change(admin, {
      kind: 'addStaff', email: 'sam.dispatch@albion-executive.co.uk', name: 'Sam Reyes', role: 'dispatcher', dbs_number: '0012 3456 7890', dbs_seen_on: '2026-10-01',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(await row('sam.dispatch@albion-executive.co.uk')).toMatchObject({ name: 'Sam Reyes', role: 'dispatcher', dbs_number: '001234567890', dbs_seen_on: '2026-10-01' });
    const [audit] = await t.db.query<any>("SELECT after FROM audit_log WHERE action = 'Staff added' AND subject = $1", ['sam.dispatch@albion-executive.co.uk']);
    expect(audit.after).toMatchObject({ dbs_number: '0012 3456 7890', dbs_seen_on: '2026-10-01' });
  });

  it('refuses a wrong number or date with a 422 naming the field, writing nothing', async () => {
    const before = await register();
    const cases: [Record<string, string>, string][] = [
      [{ dbs_number: '12345', dbs_seen_on: '2026-10-01' }, 'dbs_number'],
      [{ dbs_number: '001234567890', dbs_seen_on: '2099-01-01' }, 'dbs_seen_on'],
      [{ dbs_number: '001234567890', dbs_seen_on: '' }, 'dbs_seen_on'],
      [{ dbs_number: '', dbs_seen_on: '2026-10-01' }, 'dbs_number'],
    ];
    for (const [dbs, field] of cases) {
      const res = await change(admin, { kind: 'addStaff', email: 'kim@albion-executive.co.uk', name: 'Kim Lo', role: 'dispatcher', ...dbs });
      expect([res.status, res.body.field], JSON.stringify(dbs)).toEqual([422, field]);
      const only = await change(admin, { kind: 'staffDbs', email: 'sam.dispatch@albion-executive.co.uk', ...dbs });
      expect([only.status, only.body.field], JSON.stringify(dbs)).toEqual([422, field]);
    }
    expect(await register()).toEqual(before);
    expect(await dbsAudits()).toEqual([]);
    expect((await change(admin, { kind: 'staffDbs', email: 'nobody@albion-executive.co.uk', dbs_number: '001234567890', dbs_seen_on: '2026-10-01' })).body.field).toBe('email');
    expect((await change(admin, { kind: 'staffDbs', email: 'sam.dispatch@albion-executive.co.uk', dbs_number: 42 })).body.field).toBe('dbs_number');
  });

  it('records the DBS certificate alone, audited, the password and sessions untouched; both empty clears it', async () => {
    const sam = await change(admin, { kind: 'addStaff', email: 'sam.dispatch@albion-executive.co.uk', name: 'Sam Reyes', role: 'dispatcher' });
    const session = await signIn(t, 'sam.dispatch@albion-executive.co.uk', sam.body.password);
    // Added again without DBS fields: the record stays.
    expect(await row('sam.dispatch@albion-executive.co.uk')).toMatchObject({ dbs_number: '001234567890', dbs_seen_on: '2026-10-01' });
    const today = ukToday();
    const res = await change(admin, { kind: 'staffDbs', email: 'SAM.DISPATCH@albion-executive.co.uk', dbs_number: '998877665544', dbs_seen_on: today });
    expect(res.body).toEqual({ done: "Sam Reyes's DBS certificate is on the register." });
    expect(await row('sam.dispatch@albion-executive.co.uk')).toMatchObject({ dbs_number: '998877665544', dbs_seen_on: today, active: true });
    expect((await t.call('GET', '/operator/session', undefined, session)).body.staff).toMatchObject({ email: 'sam.dispatch@albion-executive.co.uk' });
    expect((await dbsAudits()).at(-1)).toEqual({
      subject: 'sam.dispatch@albion-executive.co.uk', before: { dbs_number: '001234567890', dbs_seen_on: '2026-10-01' }, after: { dbs_number: '998877665544', dbs_seen_on: today },
    });
    expect((await change(admin, { kind: 'staffDbs', email: 'sam.dispatch@albion-executive.co.uk', dbs_number: '', dbs_seen_on: '' })).body.done).toBe("Sam Reyes's DBS record is cleared.");
    expect(await row('sam.dispatch@albion-executive.co.uk')).toMatchObject({ dbs_number: null, dbs_seen_on: null });
  });

  it("is an administrator's: a company's staff can neither change nor download it, nobody without a session", async () => {
    expect((await change(company, { kind: 'staffDbs', email: DEMO_STAFF[1].email, dbs_number: '001234567890', dbs_seen_on: '2026-10-01' })).status).toBe(403);
    expect((await t.call('GET', '/operator/staff-register.csv', undefined, company)).status).toBe(403);
    expect((await t.call('GET', '/operator/staff-register.csv')).status).toBe(401);
  });

  it('downloads as CSV, one line a member of staff with the DBS certificate', async () => {
    await change(admin, { kind: 'staffDbs', email: DEMO_STAFF[0].email, dbs_number: '001234567890', dbs_seen_on: '2026-10-01' });
    const res = await t.app.request('/api/v1/operator/staff-register.csv', { headers: { 'API-PUBLIC-KEY': 'test-public', 'API-SECRET-KEY': 'test-secret', ...admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="staff-register-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await res.text()).replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Name,E-mail,Role,Company,Can sign in,Added,DBS certificate number,DBS certificate seen on');
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${DEMO_STAFF[0].name},${DEMO_STAFF[0].email},Administrator,,Yes,[0-9: -]+,0012 3456 7890,2026-10-01$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${DEMO_STAFF[1].name},${DEMO_STAFF[1].email},Company,Metro Cars London,Yes,[0-9: -]+,,$`)));
  });
});

describe('the staff register from npm run admin', () => {
  it('add-staff takes --dbs and --dbs-seen, staff lists them, staff --csv prints the register', async () => {
    const out = await runAdmin(t.db, ['add-staff', '--email', 'lee@albion-executive.co.uk', '--name', 'Lee Park', '--role', 'dispatcher',
      '--password', 'Lee-Desk-2026-x', '--dbs', '1111 2222 3333', '--dbs-seen', '2026-09-30'], TEST_SECURITY.passwordHashCost);
    expect(out).toBe('Staff lee@albion-executive.co.uk (dispatcher) can sign in at /operator');
    const list = await runAdmin(t.db, ['staff']);
    expect(list.split('\n')[0]).toMatch(/dbs\s+dbs_seen$/);
    expect(list).toMatch(/lee@albion-executive\.co\.uk\s+Lee Park\s+dispatcher\s+.*1111 2222 3333\s+2026-09-30/);
    const csv = await runAdmin(t.db, ['staff', '--csv']);
    expect(csv.split('\r\n')[0]).toBe('Name,E-mail,Role,Company,Can sign in,Added,DBS certificate number,DBS certificate seen on');
    expect(csv).toContain('Lee Park,lee@albion-executive.co.uk,Dispatcher,,Yes,');
  });

  it('staff-dbs records or clears it alone; a wrong value names its option', async () => {
    expect(await runAdmin(t.db, ['staff-dbs', '--email', 'lee@albion-executive.co.uk', '--dbs', '444455556666', '--dbs-seen', '2026-10-02']))
      .toBe('Lee Park: DBS certificate 4444 5555 6666 seen on 2026-10-02');
    await expect(runAdmin(t.db, ['staff-dbs', '--email', 'lee@albion-executive.co.uk', '--dbs', '4444', '--dbs-seen', '2026-10-02']))
      .rejects.toThrow(new UsageError('--dbs: A DBS certificate number is 12 digits, as printed on the certificate.'));
    await expect(runAdmin(t.db, ['add-staff', '--email', 'mo@albion-executive.co.uk', '--name', 'Mo', '--role', 'dispatcher', '--dbs', '444455556666'], TEST_SECURITY.passwordHashCost))
      .rejects.toThrow(new UsageError('--dbs-seen: Enter the date the certificate was seen.'));
    await expect(runAdmin(t.db, ['staff-dbs', '--email', 'nobody@albion-executive.co.uk'])).rejects.toThrow(UsageError);
    expect(await runAdmin(t.db, ['staff-dbs', '--email', 'lee@albion-executive.co.uk'])).toBe('Lee Park: DBS record cleared');
    // Lee still signs in with the password given.
    await signIn(t, 'lee@albion-executive.co.uk', 'Lee-Desk-2026-x');
  });
});
