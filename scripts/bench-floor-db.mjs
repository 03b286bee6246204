// The raw floor of a booking's writes, for `npm run bench:api`: the rows one pay-in-car guest booking leaves in the
// database (its idempotency key, the guest's contact record, the booking, its details, its passenger, its
// confirmation e-mail, and that e-mail marked sent), written in one transaction straight on the database, with no
// HTTP, no validation and no pricing, in a loop for a number of seconds.
//
//   node --import tsx scripts/bench-floor-db.mjs '{"kind":"pglite","sample":{...}}'
//   node --import tsx scripts/bench-floor-db.mjs '{"kind":"postgres","url":"postgres://...","concurrency":10,"sample":{...}}'
//
// `sample` is a real booking answer and the price line it was booked at (bench-api.mjs makes one), so the rows are
// the size the server writes; the confirmation is rendered by the site's own template. Once set up it prints
// "ready", then runs the loop for each line `run <seconds>` read on stdin and prints one line of JSON for it, so
// bench-api.mjs can take turns between the floor and the server (the machine's other load then falls on both).
// `run <seconds> prepared` runs the same statements as named prepared statements: a tighter floor, for information.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDb } from '../src/server/db/index.ts';
import { openPgliteOn } from '../src/server/db/pglite.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { seedIfEmpty } from '../src/server/operator/seed.ts';
import { bookingConfirmation } from '../src/server/mail/templates.ts';
import { settingsFromList } from '../src/domain/settings.ts';

const args = JSON.parse(process.argv[2]);
const { sample } = args;

/** The statements of one booking, on a client that runs `query(sql, params)`. */
function bookingWrites(settings) {
  const b = sample.data.booking;
  const d = sample.data.bookingDetail;
  const p = sample.data.passengerDetails;
  const mail = bookingConfirmation(sample.data, settings, sample.vehicle.breakdown.lines);
  const breakdown = JSON.stringify(sample.vehicle.breakdown);
  let n = 0;
  return async (q) => {
    const key = randomUUID();
    const number = `FL-${process.pid}-${++n}-${key.slice(0, 8)}`;
    await q.query('INSERT INTO idempotency_keys (key, request_hash) VALUES ($1, $2)', [key, 'x'.repeat(43)]);
    const [passenger] = await q.query('INSERT INTO passengers (name, email, phone, password_hash) VALUES ($1, $2, $3, NULL) RETURNING id',
      [p.passenger_name, p.passenger_email, p.passenger_contact_no]);
    const [booking] = await q.query(
      `INSERT INTO bookings (booking_number, idempotency_key, ride_type, booking_type, company_id, vehicle_type_id,
         passenger_id, registration_mode, pick_up_address, drop_off_address, pick_up_date, pick_up_time, return_date,
         return_time, hourly_duration, flight_no, return_flight_no, via_miles, return_via_miles, time_duration,
         vehicle_qty, unit_price_pence, total_booking_amount_pence, price_breakdown, payment_method, payment_status, pickup_at, status)
       VALUES ($1, $2, 'Q', 'milleage', $3, $4, $5, 'guest_login', $6, $7, $8, $9, NULL, NULL, NULL, NULL, NULL, 20.4, 0, 3000,
         1, 6200, 6200, $10, 'car', 'due_in_car', now() + interval '30 days', 'confirmed') RETURNING id`,
      [number, key, sample.vehicle.company_id, sample.vehicle.vehicle_id, passenger.id, b.pick_up_address, b.drop_off_address,
        b.pick_up_date, b.pick_up_time, breakdown]);
    await q.query(
      `INSERT INTO booking_details (booking_id, meet_and_greet, baby_seat, booster_seat, wheel_chair, special_luggages,
         waiting_minutes, luggages, hand_luggages, vehicle_qty, return_options) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL)`,
      [booking.id, d.meet_and_greet, d.baby_seat, d.booster_seat, d.wheel_chair, d.special_luggages, d.waiting_minutes, d.luggages,
        d.hand_luggages, d.vehicle_qty]);
    await q.query(
      `INSERT INTO booking_passengers (booking_id, passenger_id, passenger_name, passenger_email, passenger_contact_no,
         total_passengers, additional_info) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [booking.id, passenger.id, p.passenger_name, p.passenger_email, p.passenger_contact_no, p.total_passengers, p.additional_info]);
    const [email] = await q.query(
      `INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html, booking_id, status)
       VALUES ('booking_confirmation', $1, $2, $3, $4, $5, 'pending') RETURNING id`,
      [p.passenger_email, mail.subject, mail.text, mail.html, booking.id]);
    await q.query("UPDATE outbound_emails SET status = 'sent', attempts = 1, sent_at = now() WHERE id = $1", [email.id]);
  };
}
const STATEMENTS_PER_TX = 9; // BEGIN, 7 writes, COMMIT

async function settingsOf(q) {
  const res = await q.query('SELECT setting_name, setting_value FROM settings');
  return settingsFromList(res.rows);
}

async function loop(seconds, workers, once) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: workers }, async (_, i) => {
    while (performance.now() < until) { await once(i); done++; }
  }));
  const elapsed = (performance.now() - started) / 1000;
  return { transactions: done, seconds: Math.round(elapsed * 100) / 100, tx_per_second: Math.round(done / elapsed) };
}

/** Runs `loop` for each `run <seconds>` line on stdin, until stdin ends. */
async function serve(runFor) {
  console.log('ready');
  let buffered = '';
  for await (const chunk of process.stdin) {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      const m = /^run ([\d.]+)( prepared)?$/.exec(line);
      if (m) console.log(JSON.stringify({ ...(await runFor(Number(m[1]), Boolean(m[2]))), statements_per_tx: STATEMENTS_PER_TX, prepared: Boolean(m[2]) }));
    }
  }
}

if (args.kind === 'pglite') {
  // A data folder made as the server makes one (the migrated template or initdb, then the migrations and the seed).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-floor-'));
  try {
    const setup = await openDb({ dataDir: path.join(dir, 'pglite') });
    await migrate(setup);
    await seedIfEmpty(setup, 10);
    await setup.close();
    const db = await PGlite.create(path.join(dir, 'pglite'));
    const write = bookingWrites(await settingsOf(db));
    // `prepared`: the same statements as named prepared statements, through the site's own PGlite wrapper (no queue
    // waits: the loop is alone), so parsing and planning are not counted: a tighter floor, for information.
    const site = openPgliteOn(db);
    await serve((seconds, prepared) => loop(seconds, 1, () => (prepared
      ? site.transaction((tx) => write({ query: (sql, params) => tx.query(sql, params, { prepare: true }) }))
      : db.transaction((tx) => write({ query: async (sql, params) => (await tx.query(sql, params)).rows })))));
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const setup = await openDb({ databaseUrl: args.url });
  await migrate(setup);
  await seedIfEmpty(setup, 10);
  await setup.close();
  const concurrency = Number(args.concurrency) || 10;
  const pool = new pg.Pool({ connectionString: args.url, max: concurrency });
  const clients = await Promise.all(Array.from({ length: concurrency }, () => pool.connect()));
  const write = bookingWrites(await settingsOf(clients[0]));
  const names = new Map();
  const named = (sql) => names.get(sql) ?? names.set(sql, `f${names.size + 1}`).get(sql);
  const on = (c, prepared) => ({
    query: async (sql, params) => (await (prepared ? c.query({ name: named(sql), text: sql, values: params }) : c.query(sql, params))).rows,
  });
  await serve((seconds, prepared) => loop(seconds, concurrency, async (i) => {
    const c = clients[i];
    await c.query('BEGIN');
    try { await write(on(c, prepared)); await c.query('COMMIT'); } catch (err) { await c.query('ROLLBACK'); throw err; }
  }));
  clients.forEach((c) => c.release());
  await pool.end();
}
