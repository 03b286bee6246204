// Issue 43 §4, the export and the erase reach the address asked about alone: "o…@example.com" is not found inside
// "bruno…@example.com", whose messages, timeline and allowances an erase must leave as they are.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testApp } from './setup';
import { signIn, type TestApp } from './privacyHelpers';
import { DEMO_STAFF } from '../../src/server/operator/seed';

let t: TestApp;
let admin: { Cookie: string };
const O = `o${process.pid}@example.com`;
const BRUNO = `brun${O}`;

beforeAll(async () => {
  t = await testApp();
  admin = await signIn(t, DEMO_STAFF[0].email, DEMO_STAFF[0].password);
  for (const [email, name] of [[O, 'Olu'], [BRUNO, 'Bruno']]) {
    expect((await t.call('POST', '/contact-us', {
      firstName: name, lastName: 'Test', email, telephone: '', queryReason: 'Other', bookingNumber: '', comments: `Please write to ${email}.`,
    })).status).toBe(200);
  }
});
afterAll(async () => { await t.db.close(); });

const held = async (email: string) => (await t.db.query<{ n: number }>(
  `SELECT ((SELECT count(*) FROM contact_messages WHERE email = $1) + (SELECT count(*) FROM outbound_emails WHERE reply_to = $1 OR body_text LIKE '%' || $1 || '%')
          + (SELECT count(*) FROM rate_limits WHERE key LIKE '%' || $1))::int AS n`, [email]))[0].n;

it("exports and erases the address's own data, never another's that contains it", async () => {
  const before = await held(BRUNO);
  expect(before).toBeGreaterThan(1);
  const exported = await t.call('POST', '/operator/privacy/export', { email: O }, admin);
  expect(exported.status, JSON.stringify(exported.body)).toBe(200);
  expect(JSON.stringify(exported.body)).toContain(O);
  expect(JSON.stringify(exported.body).toLowerCase()).not.toContain(BRUNO);
  const erased = await t.call('POST', '/operator/privacy/erase', { email: O }, admin);
  expect(erased.status, JSON.stringify(erased.body)).toBe(200);
  expect(await held(BRUNO)).toBe(before);
  expect(await t.db.query('SELECT 1 FROM contact_messages WHERE email = $1', [O])).toEqual([]);
});
