// Booking confirmations: written with the booking, sent after it, retried when
// the mail server fails, and never able to lose the booking. Plus a real SMTP
// round trip and the outbox folder used when there is no SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { testApp } from './setup';
import { CLAIM_BATCH, CLAIM_SQL, LEASE_SECONDS, MailQueue, RETRY_MINUTES, SEND_TIMEOUT_MS, enqueueEmail, releaseHeldEmails } from '../../src/server/mail/queue';
import { memoryTransport } from './setup';
import { headerValue, outboxMessage, outboxTransport, smtpTransport } from '../../src/server/mail/transport';
import { outboxMails } from '../e2e/outbox';
import { setSetting } from '../../src/server/operator/operator';

let keys = 0;
/** A message's identity as the queue gives it. */
const identity = () => ({ key: `k${++keys}${Date.now()}`, createdAt: new Date() });

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

const bookingForm = {
  pickup: 'Gatwick Airport South Terminal, Crawley RH6 0NP', dropoff: 'Brighton Palace Pier, Madeira Drive, Brighton BN2 1TW',
  pickup_date: '2030-08-09', pickup_hour: '11pm', pickup_min: '40', passengers: 3, luggages: 2, meet_and_greet: 'yes',
  pickup_fight_number: 'EZY8012', select_option: 'return', return_date: '2030-08-16', return_hour: '1pm', return_min: '00',
  stops: [{ street_name: 'Brighton Station, Queens Road', number: '', postcode: 'BN1 3XP' }],
};

async function book(email = 'grace@example.com') {
  const { body } = await t.call('POST', '/calculate-distance-price', bookingForm);
  const vehicle = body.price_details.find((p: any) => p.vehicle_type === 'MPV');
  return t.call('POST', '/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm,
    registrationData: { firstName: 'Grace', surname: 'Okafor', number: '+44 770 090 077', email },
    payment_method: 'car', selected_passenger: 'guest_login',
  });
}

describe('the booking confirmation e-mail', () => {
  it('goes to the passenger with every booking detail in UK formats', async () => {
    const res = await book();
    expect(res.status).toBe(200);
    const ref = res.body.data.booking.booking_number;
    const [queued] = await t.db.query<any>("SELECT status, to_address FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation'", [res.body.data.booking.id]);
    expect(queued).toEqual({ status: 'pending', to_address: 'grace@example.com' });
    await t.mail.deliverDue();
    const m = t.mailbox.sent.find((x) => x.subject === `Booking confirmed: ${ref}`)!;
    expect(m.from).toBe('bookings@albion-executive.co.uk');
    for (const text of [ref, '09-08-2030', '11:40 PM', '16-08-2030', '1:00 PM', 'Gatwick Airport South Terminal', 'Brighton Palace Pier',
      'Brighton Station, Queens Road BN1 3XP', 'U2 8012', 'MPV', 'Meet and Greet', 'Pay in Car', 'Return journey fare',
      `£${res.body.data.booking.total_booking_amount}`, '+44 20 7946 0321']) {
      expect(m.text).toContain(text);
    }
    expect(m.html).toContain(ref);
    const [sent] = await t.db.query<any>("SELECT status, sent_at FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation'", [res.body.data.booking.id]);
    expect(sent.status).toBe('sent');
  });

  it('is written with the booking as what it is made from, and rendered by the sender with the settings of the moment (issue 40)', async () => {
    const res = await book('stored.grace@example.com');
    expect(res.status).toBe(200);
    const id = res.body.data.booking.id;
    const ref = res.body.data.booking.booking_number;
    const rows = await t.db.query<any>(
      `SELECT kind, subject, body_text, body_html, template, template_data IS NOT NULL AS has_data FROM outbound_emails
        WHERE booking_id = $1 ORDER BY kind`, [id]);
    // No rendered body goes into the booking's statement: the template, its data and the subject (the console lists it).
    expect(rows).toEqual([
      { kind: 'booking_confirmation', subject: `Booking confirmed: ${ref}`, body_text: '', body_html: '', template: 'booking_confirmation', has_data: true },
      { kind: 'new_booking_notice', subject: expect.stringMatching(new RegExp(`^New booking ${ref}: 09-08-2030 11:40 PM, Gatwick`)), body_text: '', body_html: '', template: 'new_booking_notice', has_data: true },
    ]);
    const [settings] = await t.db.query<{ setting_value: string }>("SELECT setting_value FROM settings WHERE setting_name = 'Company_Contact_Info'");
    await setSetting(t.db, 'Company_Contact_Info', '+44 20 7946 0999');
    try {
      await t.mail.deliverDue();
    } finally {
      await setSetting(t.db, 'Company_Contact_Info', settings.setting_value);
    }
    const m = t.mailbox.sent.find((x) => x.subject === `Booking confirmed: ${ref}`)!;
    expect(m.text).toContain('+44 20 7946 0999');
    expect(m.html).toContain(`<a href="https://bookings.example.co.uk/manage/${ref}#key=${res.body.data.manage_key}">`);
    // The confirmation's data held its manage link: gone once it is sent; the notice's stays, as a sent body does.
    expect(await t.db.query<any>('SELECT kind, status, template_data IS NULL AS erased FROM outbound_emails WHERE booking_id = $1 ORDER BY kind', [id]))
      .toEqual([{ kind: 'booking_confirmation', status: 'sent', erased: true }, { kind: 'new_booking_notice', status: 'sent', erased: false }]);
  });

  it('renders a stored message in a batch with messages written rendered', async () => {
    await t.mail.deliverDue();
    await enqueueEmail(t.db, { kind: 'contact_message', to: 'office@example.com', subject: 'Written rendered', text: 'Plain', html: '<p>Plain</p>' });
    const res = await book('mixed-batch@example.com');
    const mailbox = memoryTransport();
    expect(await new MailQueue(t.db, mailbox.transport, async () => 'from@example.com', () => {}).deliverDue()).toBe(3);
    expect(mailbox.sent.map((m) => m.subject).sort()).toEqual([`Booking confirmed: ${res.body.data.booking.booking_number}`,
      expect.stringMatching(/^New booking /), 'Written rendered']);
    expect(mailbox.sent.find((m) => m.subject.startsWith('Booking confirmed'))!.text).toContain('Brighton Palace Pier');
  });

  it('tries a stored message that cannot be rendered again later, and sends the rest', async () => {
    await t.mail.deliverDue();
    const res = await book('unrenderable@example.com');
    const id = res.body.data.booking.id;
    await t.db.query("UPDATE outbound_emails SET template_data = '{\"booking\":' WHERE booking_id = $1 AND kind = 'booking_confirmation'", [id]);
    const logged: string[] = [];
    const mailbox = memoryTransport();
    expect(await new MailQueue(t.db, mailbox.transport, async () => 'from@example.com', (l) => logged.push(l)).deliverDue()).toBe(1);
    expect(mailbox.sent.map((m) => m.subject)).toEqual([expect.stringMatching(/^New booking /)]);
    const [row] = await t.db.query<any>("SELECT status, attempts, last_error FROM outbound_emails WHERE booking_id = $1 AND kind = 'booking_confirmation'", [id]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.stringMatching(/JSON/) });
    expect(logged.join('\n')).toMatch(/not sent .*retrying in 1 min/);
  });

  it('keeps the booking when the mail server is down, and retries with growing pauses until it gives up', async () => {
    t.mailbox.fail('connect ECONNREFUSED 127.0.0.1:25');
    const res = await book('retry@example.com');
    expect(res.status).toBe(200);
    const id = res.body.data.booking.id;
    expect(await t.mail.deliverDue()).toBe(0);
    let [row] = await t.db.query<any>(
      `SELECT status, attempts, last_error, round(extract(epoch FROM next_attempt_at - now()) / 60) AS wait
         FROM outbound_emails WHERE booking_id = $1`, [id]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_error: 'connect ECONNREFUSED 127.0.0.1:25' });
    expect(Number(row.wait)).toBe(RETRY_MINUTES[0]);
    for (let i = 1; i <= RETRY_MINUTES.length; i++) {
      await t.db.query('UPDATE outbound_emails SET next_attempt_at = now() WHERE booking_id = $1', [id]);
      await t.mail.deliverDue();
    }
    [row] = await t.db.query<any>('SELECT status, attempts FROM outbound_emails WHERE booking_id = $1', [id]);
    expect(row).toEqual({ status: 'failed', attempts: RETRY_MINUTES.length + 1 });
    const bookings = await t.db.query('SELECT 1 FROM bookings WHERE id = $1', [id]);
    expect(bookings).toHaveLength(1);
    t.mailbox.fail(null);
  });
});

describe('a sender that dies while sending', () => {
  const FROM = async () => 'bookings@albion-executive.co.uk';
  async function queued(to: string) {
    return enqueueEmail(t.db, { kind: 'booking_confirmation', to, subject: `Booking confirmed for ${to}`, text: 'Confirmed', html: '<p>Confirmed</p>' });
  }
  const statusOf = async (id: number) => (await t.db.query<any>('SELECT status, attempts FROM outbound_emails WHERE id = $1', [id]))[0];

  it('claims each message with a lease that ends before the send could', () => {
    expect(SEND_TIMEOUT_MS).toBeLessThan(LEASE_SECONDS * 1000);
    // Leases ran out plus one queue tick (15 s) is well within two minutes.
    expect(LEASE_SECONDS + 15).toBeLessThanOrEqual(120);
  });

  it('leaves a message alone while its lease runs, and sends it once the lease has run out', async () => {
    await t.mail.deliverDue();
    const id = await queued('stranded@example.com');
    // A sender claims it and hangs (as if its process were killed); it would give up only after ten minutes.
    let wakeHung: () => void = () => {};
    const hung = new MailQueue(t.db, { description: 'hangs', send: () => new Promise<void>((_, reject) => { wakeHung = () => reject(new Error('woke up late')); }) },
      FROM, () => {}, { sendTimeoutMs: 600_000 });
    const hungRun = hung.deliverDue();
    await expect.poll(async () => (await statusOf(id)).status).toBe('sending');
    // Another sender (or this one after a restart on PostgreSQL) does not take it while the lease runs...
    const second = memoryTransport();
    const survivor = new MailQueue(t.db, second.transport, FROM, () => {});
    expect(await survivor.deliverDue()).toBe(0);
    expect(second.sent).toHaveLength(0);
    // ...and sends it as soon as the lease has run out, without waiting for a restart.
    await t.db.query("UPDATE outbound_emails SET lease_until = now() - interval '1 second' WHERE id = $1", [id]);
    expect(await survivor.deliverDue()).toBe(1);
    expect(second.sent.map((m) => m.to)).toEqual(['stranded@example.com']);
    expect(await statusOf(id)).toEqual({ status: 'sent', attempts: 2 });
    // The first sender coming back to life late cannot undo that.
    wakeHung();
    await hungRun;
    expect(await statusOf(id)).toEqual({ status: 'sent', attempts: 2 });
  });

  it('sends what a crash left behind as soon as the embedded database reopens', async () => {
    const id = await queued('after-crash@example.com');
    await t.db.query("UPDATE outbound_emails SET status = 'sending', attempts = 1, lease_until = now() + interval '1 minute' WHERE id = $1", [id]);
    const box = memoryTransport();
    const restarted = new MailQueue(t.db, box.transport, FROM, () => {});
    await restarted.start(60_000);
    await restarted.stop();
    if (t.db.kind === 'pglite') {
      // One process owns the embedded database, so 'sending' can only be a crash's leftover.
      expect(await statusOf(id)).toEqual({ status: 'sent', attempts: 2 });
    } else {
      // On PostgreSQL another server may be sending it: the lease is waited out.
      expect((await statusOf(id)).status).toBe('sending');
      await t.db.query("UPDATE outbound_emails SET lease_until = now() - interval '1 second' WHERE id = $1", [id]);
      await restarted.deliverDue();
      expect(await statusOf(id)).toEqual({ status: 'sent', attempts: 2 });
    }
    expect(box.sent.map((m) => m.to)).toEqual(['after-crash@example.com']);
  });

  it('gives up on a send that hangs, and tries again later', async () => {
    const id = await queued('slow-server@example.com');
    const lines: string[] = [];
    const queue = new MailQueue(t.db, { description: 'hangs', send: () => new Promise(() => {}) }, FROM, (l) => lines.push(l),
      { sendTimeoutMs: 50 });
    expect(await queue.deliverDue()).toBe(0);
    const [row] = await t.db.query<any>(
      'SELECT status, last_error, lease_until, next_attempt_at > now() AS later FROM outbound_emails WHERE id = $1', [id]);
    expect(row).toMatchObject({ status: 'pending', lease_until: null, later: true });
    expect(row.last_error).toBe('no answer from the mail server within 0.05 s');
    expect(lines.join('\n')).toContain('retrying in 1 min');
  });
});

describe('what the queue keeps and hands over', () => {
  const FROM = async () => 'bookings@albion-executive.co.uk';
  /** A queue of its own on the test's database, with its own mailbox and log. */
  const ownQueue = (db = t.db) => {
    const box = memoryTransport();
    const lines: string[] = [];
    return { box, lines, queue: new MailQueue(db, box.transport, FROM, (l) => lines.push(l)) };
  };
  const settle = () => t.mail.deliverDue();

  it('hands over Cc and Reply-To as written, keeps an ordinary body after sending, and ties the message to its booking', async () => {
    await settle();
    const booked = await book('kept.whole@example.com');
    const bookingId = booked.body.data.booking.id;
    await settle();
    const id = await enqueueEmail(t.db, {
      kind: 'contact_message', to: 'office@example.com', cc: 'company@example.com', replyTo: 'visitor@example.com', bookingId,
      subject: 'A message', text: 'Body kept', html: '<p>Body kept</p>',
    });
    const { box, queue } = ownQueue();
    expect(await queue.deliverDue()).toBe(1);
    expect(box.sent).toEqual([expect.objectContaining({ to: 'office@example.com', cc: 'company@example.com', replyTo: 'visitor@example.com' })]);
    const [row] = await t.db.query<any>('SELECT status, body_text, booking_id, cc_address, reply_to FROM outbound_emails WHERE id = $1', [id]);
    expect(row).toEqual({ status: 'sent', body_text: 'Body kept', booking_id: bookingId, cc_address: 'company@example.com', reply_to: 'visitor@example.com' });
    const plain = await enqueueEmail(t.db, { kind: 'contact_message', to: 'plain@example.com', subject: 'Plain', text: 'x', html: '<p>x</p>' });
    await queue.deliverDue();
    expect(box.sent.at(-1)).toMatchObject({ to: 'plain@example.com', cc: undefined, replyTo: undefined });
    expect((await t.db.query<any>('SELECT booking_id FROM outbound_emails WHERE id = $1', [plain]))[0].booking_id).toBeNull();
  });

  it('holds a held message until it is released, once', async () => {
    await settle();
    const booked = await book('held.until.paid@example.com');
    await settle();
    const bookingId = booked.body.data.booking.id;
    await enqueueEmail(t.db, { kind: 'booking_confirmation', to: 'held@example.com', subject: 'Held', text: 'x', html: '<p>x</p>', bookingId, held: true });
    const { box, queue } = ownQueue();
    expect(await queue.deliverDue()).toBe(0);
    expect(await releaseHeldEmails(t.db, bookingId)).toBe(1);
    expect(await releaseHeldEmails(t.db, bookingId)).toBe(0);
    expect(await queue.deliverDue()).toBe(1);
    expect(box.sent.map((m) => m.to)).toEqual(['held@example.com']);
  });

  it('sends a batch oldest first, in whatever order the database returns the claim', async () => {
    await settle();
    for (const to of ['first@example.com', 'second@example.com', 'third@example.com']) {
      await enqueueEmail(t.db, { kind: 'contact_message', to, subject: to, text: 'x', html: '<p>x</p>' });
    }
    const db = Object.create(t.db);
    db.query = async (sql: string, ...rest: unknown[]) => {
      const rows = await t.db.query(sql, ...(rest as []));
      return /SET status = 'sending'/.test(sql) ? [...rows].reverse() : rows;
    };
    const { box, queue } = ownQueue(db);
    await queue.deliverDue();
    expect(box.sent.map((m) => m.to)).toEqual(['first@example.com', 'second@example.com', 'third@example.com']);
  });

  it('logs a message given up for good with its number, recipient, subject and attempts', async () => {
    await settle();
    const id = await enqueueEmail(t.db, { kind: 'contact_message', to: 'never@example.com', subject: 'Undeliverable', text: 'x', html: '<p>x</p>' });
    await t.db.query('UPDATE outbound_emails SET attempts = $2 WHERE id = $1', [id, RETRY_MINUTES.length]);
    const { box, lines, queue } = ownQueue();
    box.fail('mailbox unavailable');
    await queue.deliverDue();
    expect(lines).toEqual([`MAIL FAILED for good: #${id} to never@example.com "Undeliverable" after ${RETRY_MINUTES.length + 1} attempts: mailbox unavailable`]);
  });

  it('sends at start and then on every interval until stopped, and logs a run that fails', async () => {
    await settle();
    const { box, lines, queue } = ownQueue();
    expect(queue.describe()).toBe('memory');
    await enqueueEmail(t.db, { kind: 'contact_message', to: 'at.start@example.com', subject: 'At start', text: 'x', html: '<p>x</p>' });
    await queue.start(25);
    await queue.deliverDue(); // joins the run start() began
    expect(box.sent.map((m) => m.to)).toEqual(['at.start@example.com']);
    // Nothing asks it to send this one: the interval does.
    await enqueueEmail(t.db, { kind: 'contact_message', to: 'on.interval@example.com', subject: 'On interval', text: 'x', html: '<p>x</p>' });
    await expect.poll(() => box.sent.map((m) => m.to), { timeout: 10_000 }).toEqual(['at.start@example.com', 'on.interval@example.com']);
    await queue.stop();
    const broken = Object.create(t.db);
    broken.query = async () => { throw new Error('database gone'); };
    const failing = new MailQueue(broken, box.transport, FROM, (l) => lines.push(l));
    failing.kick();
    await expect.poll(() => lines).toEqual(['Mail delivery run failed: database gone']);
  });
});

describe('a batch of messages claimed at once (decision 29)', () => {
  const FROM = async () => 'bookings@albion-executive.co.uk';

  it('starts every send with at least a send timeout of its lease left, giving back what cannot be sent in time unspent', async () => {
    await t.mail.deliverDue();
    const ids = [];
    for (const to of ['one@example.com', 'two@example.com', 'three@example.com']) {
      ids.push(await enqueueEmail(t.db, { kind: 'booking_confirmation', to, subject: `Batch for ${to}`, text: 'x', html: '<p>x</p>' }));
    }
    // The queue's clock is the test's: each send takes 400 ms of it, so after one send a second would start with
    // 400 + 600 = 1,000 ms of a 1 s lease gone by its timeout, which is not "inside the lease".
    let now = 0;
    const timing = { leaseSeconds: 1, sendTimeoutMs: 600, clock: () => now };
    const claimedAt: number[] = [];
    const sendsAt: number[] = [];
    const db = Object.create(t.db);
    db.query = (sql: string, ...rest: unknown[]) => {
      if (/SET status = 'sending'/.test(sql)) claimedAt.push(now);
      return t.db.query(sql, ...(rest as []));
    };
    const slow = {
      description: 'slow',
      async send() {
        sendsAt.push(now);
        now += 400;
      },
    };
    const queue = new MailQueue(db, slow, FROM, () => {}, timing);
    expect(await queue.deliverDue()).toBe(3);
    // One message per claim: each send starts as its claim is made, and the two behind it are given back.
    expect(sendsAt).toEqual([0, 400, 800]);
    expect(claimedAt.slice(0, 3)).toEqual([0, 400, 800]);
    const rows = await t.db.query<any>('SELECT status, attempts, lease_until FROM outbound_emails WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
    // Given back, a message was not charged an attempt.
    expect(rows).toEqual(ids.map(() => ({ status: 'sent', attempts: 1, lease_until: null })));
  });

  it('sends a whole batch under one claim while each send still has its timeout left in the lease', async () => {
    await t.mail.deliverDue();
    for (const to of ['four@example.com', 'five@example.com', 'six@example.com']) {
      await enqueueEmail(t.db, { kind: 'booking_confirmation', to, subject: `Batch for ${to}`, text: 'x', html: '<p>x</p>' });
    }
    let now = 0;
    let claims = 0;
    const db = Object.create(t.db);
    db.query = (sql: string, ...rest: unknown[]) => {
      if (/SET status = 'sending'/.test(sql)) claims++;
      return t.db.query(sql, ...(rest as []));
    };
    // 3 sends of 100 ms: the third starts at 200 ms, with 800 ms of the lease left for its 600 ms timeout.
    const queue = new MailQueue(db, { description: 'quick', async send() { now += 100; } }, FROM, () => {},
      { leaseSeconds: 1, sendTimeoutMs: 600, clock: () => now });
    expect(await queue.deliverDue()).toBe(3);
    expect(claims).toBe(2); // the batch, then the claim that finds nothing more
  });
});

describe('a backlog (issue 40)', () => {
  it('is claimed a batch at a time, each claim reading about a batch of rows however long the backlog', async () => {
    await t.mail.deliverDue();
    await t.db.query(
      `INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html)
       SELECT 'contact_message', 'backlog-' || i || '@example.com', 'Backlog ' || i, 'x', 'x' FROM generate_series(1, 3000) i`);
    try {
      // The statement as the queue sends it, its plan read without changing anything.
      const plan = await t.db.transaction(async (tx) => {
        const [row] = await tx.query<Record<string, any>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_SQL}`, [LEASE_SECONDS, CLAIM_BATCH]);
        throw Object.assign(new Error('rolled back'), { plan: row['QUERY PLAN'] });
      }).catch((err) => err.plan);
      const scans: { rows: number; relation: string }[] = [];
      const walk = (node: any) => {
        if (node['Relation Name'] === 'outbound_emails' && node['Node Type'] !== 'ModifyTable') scans.push({ rows: node['Actual Rows'] * (node['Actual Loops'] ?? 1), relation: node['Node Type'] });
        for (const child of node.Plans ?? []) walk(child);
      };
      walk((Array.isArray(plan) ? plan[0] : JSON.parse(plan)[0]).Plan);
      expect(scans.length).toBeGreaterThan(0);
      for (const scan of scans) expect(scan.rows, JSON.stringify(scans)).toBeLessThanOrEqual(2 * CLAIM_BATCH);
    } finally {
      await t.db.query("DELETE FROM outbound_emails WHERE subject LIKE 'Backlog %'");
    }
  });
});

describe('a sender that yields to the site\'s requests under load (issue 40)', () => {
  const FROM = async () => 'bookings@albion-executive.co.uk';
  const queued = (to: string) => enqueueEmail(t.db, { kind: 'booking_confirmation', to, subject: `Yield to ${to}`, text: 'Confirmed', html: '<p>Confirmed</p>' });

  it('claims nothing while the site is busy, and sends as soon as it is quiet', async () => {
    await t.mail.deliverDue();
    const id = await queued('after-the-rush@example.com');
    let busy = true;
    let clock = 0;
    const pauses: number[] = [];
    const mailbox = memoryTransport();
    const queue = new MailQueue(t.db, mailbox.transport, FROM, () => {}, {
      busy: () => busy, clock: () => clock, maxYieldMs: 30_000,
      pause: async (ms) => {
        pauses.push(ms);
        clock += ms;
        const [row] = await t.db.query<{ status: string }>('SELECT status FROM outbound_emails WHERE id = $1', [id]);
        expect(row.status).toBe('pending'); // nothing claimed, nothing under a lease while it waits
        if (pauses.length === 5) busy = false;
      },
    });
    expect(await queue.deliverDue()).toBe(1);
    expect(pauses).toEqual([20, 20, 20, 20, 20]);
    expect(mailbox.sent.map((m) => m.to)).toEqual(['after-the-rush@example.com']);
  });

  it('waits 30 s at most: under a load that does not let up, it sends in its turn', async () => {
    await t.mail.deliverDue();
    await queued('still-busy-1@example.com');
    await queued('still-busy-2@example.com');
    let clock = 1_000_000; // a clock that does not start at 0: the wait is counted from when it began
    const mailbox = memoryTransport();
    const queue = new MailQueue(t.db, mailbox.transport, FROM, () => {}, {
      busy: () => true, clock: () => clock, maxYieldMs: 30_000, pause: async (ms) => { clock += ms; },
    });
    expect(await queue.deliverDue()).toBe(2);
    expect(clock).toBe(1_030_000);
    // Still busy: the next run has yielded long enough already and sends at once.
    await queued('still-busy-3@example.com');
    expect(await queue.deliverDue()).toBe(1);
    expect(clock).toBe(1_030_000);
  });

  it('stops yielding when the server stops, so its last run ends', async () => {
    await t.mail.deliverDue();
    await queued('at-the-stop@example.com');
    const mailbox = memoryTransport();
    let stopped: Promise<void> | null = null;
    const queue: MailQueue = new MailQueue(t.db, mailbox.transport, FROM, () => {}, {
      busy: () => true, maxYieldMs: 3_600_000, pause: async () => { stopped ??= queue.stop(); },
    });
    expect(await queue.deliverDue()).toBe(1);
    await stopped;
    expect(mailbox.sent.map((m) => m.to)).toEqual(['at-the-stop@example.com']);
  });
});

describe('one message, one identity, whatever happens to the sender (issue 24)', () => {
  const FROM = async () => 'bookings@albion-executive.co.uk';
  const queued = (to: string) => enqueueEmail(t.db, { kind: 'booking_confirmation', to, subject: `Booking confirmed for ${to}`, text: 'Confirmed', html: '<p>Confirmed</p>' });
  /** What a crash between the hand-over and the mark leaves: the message due again, as a lease running out makes it. */
  const crashedAfterHandOver = (id: number) => t.db.query(
    "UPDATE outbound_emails SET status = 'sending', lease_until = now() - interval '1 second', sent_at = NULL WHERE id = $1", [id]);

  it('marks each message sent as soon as it is handed over, not after the rest of its batch', async () => {
    await t.mail.deliverDue();
    const first = await queued('first-of-two@example.com');
    await queued('second-of-two@example.com');
    const statusOfFirstWhenSecondWent: string[] = [];
    let sends = 0;
    const watching = {
      description: 'watching',
      async send() {
        if (++sends === 2) statusOfFirstWhenSecondWent.push((await t.db.query<any>('SELECT status FROM outbound_emails WHERE id = $1', [first]))[0].status);
      },
    };
    expect(await new MailQueue(t.db, watching, FROM, () => {}).deliverDue()).toBe(2);
    expect(statusOfFirstWhenSecondWent).toEqual(['sent']);
  });

  it('marks a batch handed to the outbox sent together, once all of it is handed over (issue 40)', async () => {
    await t.mail.deliverDue();
    const ids = [await queued('first-of-three@example.com'), await queued('second-of-three@example.com'), await queued('third-of-three@example.com')];
    const statusesWhileSending: string[] = [];
    const outboxLike = {
      description: 'outbox-like', repeatSafe: true,
      async send() {
        statusesWhileSending.push((await t.db.query<any>('SELECT status FROM outbound_emails WHERE id = $1', [ids[0]]))[0].status);
      },
    };
    expect(await new MailQueue(t.db, outboxLike, FROM, () => {}).deliverDue()).toBe(3);
    expect(statusesWhileSending).toEqual(['sending', 'sending', 'sending']);
    const rows = await t.db.query<any>('SELECT status, attempts, lease_until FROM outbound_emails WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
    expect(rows).toEqual(ids.map(() => ({ status: 'sent', attempts: 1, lease_until: null })));
  });

  it('hands a batch to the outbox all at once; one that fails is tried again later and the rest are marked sent', async () => {
    await t.mail.deliverDue();
    const ids = [await queued('together-a@example.com'), await queued('together-b@example.com'), await queued('together-c@example.com')];
    let inFlight = 0;
    let most = 0;
    const outboxLike = {
      description: 'outbox-like', repeatSafe: true,
      async send(m: { to: string }) {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => { setTimeout(resolve, 20); });
        inFlight--;
        if (m.to === 'together-b@example.com') throw new Error('disk full');
      },
    };
    expect(await new MailQueue(t.db, outboxLike, FROM, () => {}).deliverDue()).toBe(2);
    expect(most).toBe(3);
    const rows = await t.db.query<any>('SELECT to_address, status, last_error FROM outbound_emails WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
    expect(rows).toEqual([
      { to_address: 'together-a@example.com', status: 'sent', last_error: null },
      { to_address: 'together-b@example.com', status: 'pending', last_error: 'disk full' },
      { to_address: 'together-c@example.com', status: 'sent', last_error: null },
    ]);
    await t.db.query("UPDATE outbound_emails SET status = 'failed' WHERE id = $1", [ids[1]]);
  });

  it('hands a whole batch to the outbox again after a crash before its mark: one file per message, as before', async () => {
    await t.mail.deliverDue();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-batch-again-'));
    try {
      const outbox = outboxTransport(path.join(dir, 'outbox'), () => {});
      const ids = [await queued('batch-a@example.com'), await queued('batch-b@example.com'), await queued('batch-c@example.com')];
      // The process dies once the batch is handed over, before its mark reaches the database.
      const dying = { ...t.db, query: (sql: string, params?: unknown[], o?: { prepare?: boolean }) => (sql.includes("SET status = 'sent'")
        ? Promise.reject(new Error('killed')) : t.db.query(sql, params, o)) } as typeof t.db;
      await expect(new MailQueue(dying, outbox, FROM, () => {}).deliverDue()).rejects.toThrow('killed');
      const written = readdirSync(path.join(dir, 'outbox')).sort();
      expect(written).toHaveLength(3);
      // What a kill leaves: the batch still claimed; its lease runs out.
      await t.db.query("UPDATE outbound_emails SET lease_until = now() - interval '1 second' WHERE id = ANY($1::int[]) AND status = 'sending'", [ids]);
      expect(await new MailQueue(t.db, outbox, FROM, () => {}).deliverDue()).toBe(3);
      expect(readdirSync(path.join(dir, 'outbox')).sort()).toEqual(written);
      expect(outboxMails(dir).map((m) => m.headers.to).sort()).toEqual(['batch-a@example.com', 'batch-b@example.com', 'batch-c@example.com']);
      const rows = await t.db.query<any>('SELECT status, attempts FROM outbound_emails WHERE id = ANY($1::int[]) ORDER BY id', [ids]);
      expect(rows).toEqual(ids.map(() => ({ status: 'sent', attempts: 2 })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes a message sent again after a crash over its own outbox file: one file, one Message-ID', async () => {
    await t.mail.deliverDue();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-again-'));
    try {
      const queue = new MailQueue(t.db, outboxTransport(path.join(dir, 'outbox'), () => {}), FROM, () => {});
      const id = await queued('twice@example.com');
      expect(await queue.deliverDue()).toBe(1);
      const [before] = outboxMails(dir);
      await crashedAfterHandOver(id);
      expect(await queue.deliverDue()).toBe(1);
      const after = outboxMails(dir);
      expect(after).toHaveLength(1);
      expect(after[0].file).toBe(before.file);
      expect(after[0].headers['message-id']).toBe(before.headers['message-id']);
      expect(before.headers['message-id']).toMatch(/^<[0-9a-f]{32}@albion-executive\.co\.uk>$/);
      expect(readdirSync(path.join(dir, 'outbox'))).toEqual([before.file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every attempt through SMTP the same Message-ID, and two messages different ones', async () => {
    await t.mail.deliverDue();
    const received: string[] = [];
    let refuseNext = true;
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let data = '';
        stream.on('data', (c) => { data += c; });
        stream.on('end', () => {
          received.push(data);
          if (refuseNext) { refuseNext = false; done(Object.assign(new Error('Try again later'), { responseCode: 451 })); } else done();
        });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const queue = new MailQueue(t.db, smtpTransport(`smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`), FROM, () => {});
      const id = await queued('refused-once@example.com');
      expect(await queue.deliverDue()).toBe(0);
      await t.db.query('UPDATE outbound_emails SET next_attempt_at = now() WHERE id = $1', [id]);
      expect(await queue.deliverDue()).toBe(1);
      await queued('another@example.com');
      expect(await queue.deliverDue()).toBe(1);
      const ids = received.map((raw) => /^Message-ID: (.*)$/im.exec(raw)?.[1].trim());
      expect(ids).toHaveLength(3);
      expect(ids[0]).toMatch(/^<[0-9a-f]{32}@albion-executive\.co\.uk>$/);
      expect(ids[1]).toBe(ids[0]);
      expect(ids[2]).not.toBe(ids[0]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('never leaves half a message under an .eml name: a write that dies part way is invisible, and the next attempt completes it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-torn-'));
    const outbox = path.join(dir, 'outbox');
    const msg = { ...identity(), from: 'a@example.com', to: 'b@example.com', subject: 'Torn', text: 'x'.repeat(5000), html: '<p>x</p>' };
    try {
      const dying = {
        writeFile: async (file: string, data: string) => { writeFileSync(file, data.slice(0, 100)); throw new Error('killed while writing'); },
        rename: async () => { throw new Error('never reached'); },
      };
      await expect(outboxTransport(outbox, () => {}, dying).send(msg)).rejects.toThrow('killed while writing');
      expect(outboxMails(dir)).toEqual([]);
      await outboxTransport(outbox, () => {}).send(msg);
      const mails = outboxMails(dir);
      expect(mails).toHaveLength(1);
      expect(mails[0].texts[0]).toBe(msg.text);
      expect(readdirSync(outbox)).toEqual([mails[0].file]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('mail transports', () => {
  it('delivers through a real SMTP server', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let data = '';
        stream.on('data', (c) => { data += c; });
        stream.on('end', () => { received.push(data); done(); });
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.server.address() as { port: number }).port;
    try {
      await smtpTransport(`smtp://127.0.0.1:${port}`).send({
        ...identity(), from: 'bookings@albion-executive.co.uk', to: 'grace@example.com', subject: 'Booking confirmed: BK-TEST2345',
        text: 'Your booking is confirmed.', html: '<p>Your booking is confirmed.</p>',
      });
      expect(received).toHaveLength(1);
      expect(received[0]).toContain('Subject: Booking confirmed: BK-TEST2345');
      expect(received[0]).toContain('To: grace@example.com');
      expect(received[0]).toContain('Your booking is confirmed.');
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('writes outbox messages a mail reader decodes: text and HTML in UTF-8, headers on their own lines', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    try {
      const text = 'Total  £62.00\nPassenger  Zoë Brontë, +44 7700 900123\n'.repeat(20);
      await outboxTransport(path.join(dir, 'outbox'), () => {}).send({
        ...identity(), from: 'bookings@example.com', to: 'zoe@example.com', replyTo: 'desk@example.com', subject: 'Booking confirmed: BK-ABCDEFGH',
        text, html: '<p>Total <b>£62.00</b></p>',
      });
      const [mail] = outboxMails(dir);
      expect(mail.headers).toMatchObject({ from: 'bookings@example.com', to: 'zoe@example.com', 'reply-to': 'desk@example.com', subject: 'Booking confirmed: BK-ABCDEFGH', 'mime-version': '1.0' });
      expect(mail.texts[0]).toBe(text);
      expect(mail.texts[1]).toContain('£62.00');
      const raw = readFileSync(path.join(dir, 'outbox', mail.file), 'utf8');
      for (const line of raw.split('\n')) expect(line.length).toBeLessThanOrEqual(900);
      // A header cannot be injected through the subject.
      expect(outboxMessage({ ...identity(), from: 'a@example.com', to: 'b@example.com', subject: 'Hi\r\nBcc: x@example.com', text: '', html: '' }))
        .not.toMatch(/^Bcc:/m);
      expect(() => outboxMessage({ ...identity(), from: 'a@example.com', to: 'b@example.com, c@example.com', subject: 's', text: '', html: '' }))
        .toThrow(/not one valid e-mail address/);
      // A copy is one more checked address, in a Cc header of its own.
      expect(outboxMessage({ ...identity(), from: 'a@example.com', to: 'b@example.com', cc: 'c@example.com', subject: 's', text: '', html: '' }))
        .toMatch(/^To: b@example.com\nCc: c@example.com\n/m);
      expect(() => outboxMessage({ ...identity(), from: 'a@example.com', to: 'b@example.com', cc: 'c@example.com, d@example.com', subject: 's', text: '', html: '' }))
        .toThrow(/copy address/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('encodes a subject that is not plain ASCII, or too long for a line, as UTF-8 words folded onto lines', () => {
    const decode = (v: string) => v.split(/\n /).map((w) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(w)![1], 'base64').toString('utf8')).join('');
    expect(headerValue('Quote request #7: Heathrow to Zoë’s café')).toMatch(/^=\?UTF-8\?B\?/);
    expect(decode(headerValue('Quote request #7: Heathrow to Zoë’s café'))).toBe('Quote request #7: Heathrow to Zoë’s café');
    const long = `Quote request #8: ${'Terminal 5, '.repeat(120)}`;
    const encoded = headerValue(long);
    for (const line of encoded.split('\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(decode(encoded)).toBe(long);
    expect(headerValue('Booking confirmed: BK-ABCDEFGH')).toBe('Booking confirmed: BK-ABCDEFGH');
  });

  it('writes .eml files to the outbox folder and logs each subject when there is no SMTP server', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    const lines: string[] = [];
    try {
      await outboxTransport(dir, (l) => lines.push(l)).send({
        ...identity(), from: 'a@example.com', to: 'b@example.com', subject: 'Hello outbox', text: 'Plain body', html: '<b>Plain body</b>',
      });
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      expect(readFileSync(path.join(dir, files[0]), 'utf8')).toContain('Subject: Hello outbox');
      expect(lines[0]).toContain('"Hello outbox"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
