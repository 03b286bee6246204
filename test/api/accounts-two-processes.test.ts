// Issue 44 §5 (decision 62): the accounts' invoice run on two server processes at once issues each invoice once. On
// PostgreSQL (npm run test:pg) each "process" has its own pool of connections to the same database, as two processes
// have; on PGlite (one database in this process) the runs share it. The account's row is locked first and the
// (account, month) index is unique, so the second run finds the month issued; the number is drawn in the same
// transaction, so none is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, TEST_SITE_URL, closeSecond, secondProcessDb } from './setup';
import type { Db } from '../../src/server/db/index';
import { loadSettings } from '../../src/server/deps';
import { issueAccountInvoices } from '../../src/server/accounts/invoiceRun';
import { saveAccount } from '../../src/server/accounts/store';

const POSTGRES = process.env.API_TEST_DATABASE_URL;
const RUN = Math.random().toString(36).slice(2, 8);

let t: Awaited<ReturnType<typeof testApp>>;
let second: Db;
beforeAll(async () => {
  t = await testApp();
  second = await secondProcessDb(t.db);
});
afterAll(async () => {
  await closeSecond(second, t.db);
  await t.db.close();
});

/** A finished journey on the account, as the office leaves it once driven: a copy of a seeded booking's trip. */
async function finishedJourney(accountId: number, date: string, pence: number) {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO bookings (booking_number, ride_type, booking_type, company_id, vehicle_type_id, passenger_id, registration_mode, pick_up_address,
       drop_off_address, pick_up_date, pick_up_time, vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method,
       payment_status, pickup_at, status, account_id, account_fields)
     SELECT 'BK-' || upper(substr(md5(random()::text), 1, 8)), 'Q', 'milleage', company_id, vehicle_type_id, passenger_id, 'existing_client',
       pick_up_address, drop_off_address, $2::date, '09:00', 1, $3, $3, price_breakdown, 'account', 'on_account', ($2::text || ' 09:00')::timestamp,
       'completed', $1, '[{"label":"PO number","value":"PO-2P"}]'::jsonb
       FROM bookings ORDER BY id LIMIT 1 RETURNING id`, [accountId, date, pence]);
  await t.db.query(
    `INSERT INTO booking_passengers (booking_id, passenger_name, passenger_email, passenger_contact_no, total_passengers, additional_info)
     VALUES ($1, 'Twofold Traveller', 'twofold@example.com', '+447700900777', 1, '')`, [row.id]);
  return row.id;
}

describe(`the invoice run on two processes at once (${POSTGRES ? 'PostgreSQL: two pools' : 'PGlite: one database'})`, () => {
  it("issues each account's month once, numbered once, its journeys on it once, e-mailed once", async () => {
    const ids: number[] = [];
    for (const name of ['Twin Alpha', 'Twin Beta', 'Twin Gamma']) {
      const saved = await saveAccount(t.db, null, null, { name: `${name} ${RUN}`, billing_email: `ap.${RUN}@twin.example`, terms_days: '30', credit_limit: '1000' });
      ids.push(saved.id);
      await finishedJourney(saved.id, '2031-05-06', 4200);
      await finishedJourney(saved.id, '2031-05-20', 5150);
    }
    const [{ last }] = await t.db.query<{ last: number }>('SELECT last FROM invoice_counter');
    const settings = await loadSettings(t.db);
    const run = (db: Db) => issueAccountInvoices(db, { periodStart: '2031-05-01', now: new Date('2031-06-01T07:00:00Z'), settings, siteUrl: TEST_SITE_URL });
    const runs = await Promise.all([run(t.db), run(second), run(second), run(t.db)]);
    const mine = await t.db.query<{ number: number; account_id: number; gross_pence: number }>(
      'SELECT number, account_id, gross_pence FROM invoices WHERE account_id = ANY($1) ORDER BY number', [ids]);
    expect(mine.map((i) => [i.account_id, i.gross_pence]).sort()).toEqual(ids.map((id) => [id, 9350]).sort());
    // Each number issued by exactly one run, and no number lost: the counter moved by as many as were issued.
    const issued = runs.flat().filter((n) => mine.some((i) => i.number === n));
    expect(issued.sort()).toEqual(mine.map((i) => i.number).sort());
    const [{ now }] = await t.db.query<{ now: number }>('SELECT last AS now FROM invoice_counter');
    expect(now - last).toBe(runs.flat().length);
    const [{ lines }] = await t.db.query<{ lines: number }>(
      'SELECT count(*)::int AS lines FROM invoice_bookings WHERE invoice_number = ANY($1)', [mine.map((i) => i.number)]);
    expect(lines).toBe(6);
    const [{ mails }] = await t.db.query<{ mails: number }>(
      "SELECT count(*)::int AS mails FROM outbound_emails WHERE kind = 'account_invoice' AND to_address = $1", [`ap.${RUN}@twin.example`]);
    expect(mails).toBe(3);
    // Again, at once: nothing is left to issue.
    expect((await Promise.all([run(t.db), run(second)])).flat().filter((n) => mine.some((i) => i.number === n))).toEqual([]);
  });
});
