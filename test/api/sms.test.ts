// Issue 41 §4: texts in the one outgoing-message queue. The SMS folder (the default without keys), the real Twilio
// adapter (the official package) against a local stand-in of Twilio's Messages API, a number that opted out, and
// Twilio's signed delivery reports moving a text's status forward only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import twilio from 'twilio';
import { memoryTransport, testApp } from './setup';
import { MailQueue, enqueueSms } from '../../src/server/mail/queue';
import { SmsRefused, smsOutboxTransport, twilioSmsTransport } from '../../src/server/mail/sms';

const AUTH_TOKEN = 'test-twilio-auth-token';
const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;
let t: Awaited<ReturnType<typeof testApp>>;
let dir: string;
beforeAll(async () => {
  t = await testApp({ smsReports: { authToken: AUTH_TOKEN } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'sms-'));
});
afterAll(async () => {
  await t.db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A queue sending e-mail to memory and texts through `sms`. */
const queueWith = (sms: Parameters<typeof twilioSmsTransport>[0] | ReturnType<typeof smsOutboxTransport>) =>
  new MailQueue(t.db, memoryTransport().transport, async () => 'bookings@albion-executive.co.uk', () => {},
    { sms: 'send' in sms ? sms : twilioSmsTransport(sms) });

const row = async (id: number) => (await t.db.query<{
  status: string; attempts: number; last_error: string | null; provider_id: string | null; body_text: string;
  delivery_status: string | null; delivered_at: Date | null; delivery_error: string | null;
}>('SELECT status, attempts, last_error, provider_id, body_text, delivery_status, delivered_at, delivery_error FROM outbound_emails WHERE id = $1', [id]))[0];

describe('the SMS folder, where texts go without Twilio', () => {
  it('writes each text once, as a file with its number and words, and a repeat after a crash replaces it', async () => {
    const folder = path.join(dir, 'folder');
    const queue = queueWith(smsOutboxTransport(folder, () => {}));
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_job', to: '+447700900101', label: 'New job BK-TEST0001', text: 'New job BK-TEST0001: Sat 12 Dec 07:15' }));
    expect(await queue.deliverDue()).toBe(1);
    const files = readdirSync(folder).filter((f) => f.endsWith('.txt'));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(folder, files[0]), 'utf8')).toMatch(/^To: \+447700900101\nDate: \d{4}-\d\d-\d\dT.*Z\n\nNew job BK-TEST0001: Sat 12 Dec 07:15\n$/);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1 });
    // The process died after the file and before the mark: the text is claimed again and rewrites the same file.
    await t.db.query("UPDATE outbound_emails SET status = 'pending', sent_at = NULL WHERE id = $1", [id]);
    await queue.deliverDue();
    expect(readdirSync(folder).filter((f) => f.endsWith('.txt'))).toEqual(files);
  });

  it('refuses a number that is not E.164, for good', async () => {
    await expect(smsOutboxTransport(path.join(dir, 'x'), () => {}).send({ key: 'k1234567', createdAt: new Date(), to: '07700 900101', text: 'x' }))
      .rejects.toBeInstanceOf(SmsRefused);
  });

  it('never texts a number that opted out: failed at once, not retried, nothing written', async () => {
    const folder = path.join(dir, 'stopped');
    await t.db.query("INSERT INTO sms_opt_outs (phone, source) VALUES ('+447700900102', 'test')");
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_job', to: '+447700900102', label: 'New job', text: 'New job' }));
    await queueWith(smsOutboxTransport(folder, () => {})).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('opted out') });
    expect(readdirSync(dir)).not.toContain('stopped');
  });

  it('erases a sign-in code once it is sent', async () => {
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_sign_in_code', to: '+447700900103', label: 'Sign-in code', text: 'Your code is 123456', eraseAfterSend: true }));
    await queueWith(smsOutboxTransport(path.join(dir, 'codes'), () => {})).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'sent', body_text: '' });
  });
});

/** A stand-in of Twilio's Messages API: what it was sent, and its answers by number. */
function twilioStandIn() {
  const received: { to: string; body: string; from: string; statusCallback: string; auth: string }[] = [];
  let failOnce = true;
  const read = (req: IncomingMessage) => new Promise<string>((resolve) => { let b = ''; req.on('data', (d) => { b += d; }); req.on('end', () => resolve(b)); });
  const server: Server = createServer(async (req, res) => {
    const body = new URLSearchParams(await read(req));
    const json = (status: number, value: unknown) => { res.writeHead(status, { 'Content-Type': 'application/json' }); res.end(JSON.stringify(value)); };
    if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${ACCOUNT}/Messages.json`) return json(404, { code: 20404, message: 'not found', status: 404 });
    const to = body.get('To') ?? '';
    received.push({ to, body: body.get('Body') ?? '', from: body.get('From') ?? '', statusCallback: body.get('StatusCallback') ?? '', auth: req.headers.authorization ?? '' });
    if (to === '+447700900199') return json(400, { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 });
    if (to === '+447700900198' && failOnce) { failOnce = false; return json(503, { code: 20503, message: 'Service unavailable', status: 503 }); }
    return json(201, { sid: `SM${String(received.length).padStart(32, '0')}`, status: 'queued', to, body: body.get('Body') });
  });
  return {
    received, server,
    start: () => new Promise<string>((resolve) => { server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)); }),
  };
}

describe('Twilio, through its official package, against a stand-in of its API', () => {
  const standIn = twilioStandIn();
  let settings: Parameters<typeof twilioSmsTransport>[0];
  beforeAll(async () => {
    settings = { accountSid: ACCOUNT, authToken: AUTH_TOKEN, from: '+447700900000', statusCallback: 'https://bookings.example.co.uk/api/v1/sms/status', apiUrl: await standIn.start() };
  });
  afterAll(() => { standIn.server.close(); });

  it("hands a text over with the account's credentials and the delivery report's address, and keeps Twilio's id of it", async () => {
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_assigned_sms', to: '+447700900111', label: 'Your driver', text: 'Your driver is Dan' }));
    await queueWith(settings).deliverDue();
    const sent = standIn.received.find((r) => r.to === '+447700900111')!;
    expect(sent).toMatchObject({ body: 'Your driver is Dan', from: '+447700900000', statusCallback: settings.statusCallback });
    expect(sent.auth).toBe(`Basic ${Buffer.from(`${ACCOUNT}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(await row(id)).toMatchObject({ status: 'sent', provider_id: expect.stringMatching(/^SM\d{32}$/) });
  });

  it('records a number Twilio says opted out (21610), fails that text for good, and never sends it another', async () => {
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_job', to: '+447700900199', label: 'New job', text: 'New job' }));
    await queueWith(settings).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringContaining('21610') });
    expect(await t.db.query("SELECT source FROM sms_opt_outs WHERE phone = '+447700900199'")).toEqual([{ source: 'provider' }]);
    const asked = standIn.received.filter((r) => r.to === '+447700900199').length;
    const next = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_job', to: '+447700900199', label: 'New job', text: 'Another job' }));
    await queueWith(settings).deliverDue();
    expect(standIn.received.filter((r) => r.to === '+447700900199')).toHaveLength(asked);
    expect((await row(next)).status).toBe('failed');
  });

  it('tries again later when Twilio is down, as for any message', async () => {
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_job', to: '+447700900198', label: 'New job', text: 'New job' }));
    await queueWith(settings).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, last_error: expect.any(String) });
    await t.db.query('UPDATE outbound_emails SET next_attempt_at = now() WHERE id = $1', [id]);
    await queueWith(settings).deliverDue();
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe("Twilio's delivery reports", () => {
  const url = 'https://bookings.example.co.uk/api/v1/sms/status';
  const report = async (params: Record<string, string>, signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, params)) => {
    const res = await t.app.request('/api/v1/sms/status', {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature }, body: new URLSearchParams(params).toString(),
    });
    return res.status;
  };
  const sentText = async (sid: string, to = '+447700900121') => {
    const id = await t.db.transaction((tx) => enqueueSms(tx, { kind: 'driver_on_way', to, label: 'On my way', text: 'Your driver is on the way' }));
    await t.db.query("UPDATE outbound_emails SET status = 'sent', provider_id = $2 WHERE id = $1", [id, sid]);
    return id;
  };

  it('moves a text to delivered, and a late report of an earlier step does not move it back', async () => {
    const id = await sentText('SM00000000000000000000000000000aa1');
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa1', MessageStatus: 'sent', To: '+447700900121' })).toBe(204);
    expect((await row(id)).delivery_status).toBe('sent');
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa1', MessageStatus: 'delivered', To: '+447700900121' })).toBe(204);
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa1', MessageStatus: 'sent', To: '+447700900121' })).toBe(204);
    expect(await row(id)).toMatchObject({ delivery_status: 'delivered', delivered_at: expect.any(Date) });
    // A final report replayed later (another final one) changes nothing, nor opts the number out.
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa1', MessageStatus: 'failed', ErrorCode: '21610', To: '+447700900121' })).toBe(204);
    expect(await row(id)).toMatchObject({ delivery_status: 'delivered', delivery_error: null });
    expect(await t.db.query("SELECT 1 FROM sms_opt_outs WHERE phone = '+447700900121'")).toEqual([]);
  });

  it('keeps why a text was not delivered, and records a number that opted out', async () => {
    const id = await sentText('SM00000000000000000000000000000aa2', '+447700900122');
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa2', MessageStatus: 'undelivered', ErrorCode: '21610', To: '+447700900122' })).toBe(204);
    expect(await row(id)).toMatchObject({ delivery_status: 'undelivered', delivery_error: 'Twilio 21610', delivered_at: null });
    expect(await t.db.query("SELECT source FROM sms_opt_outs WHERE phone = '+447700900122'")).toEqual([{ source: 'delivery report' }]);
  });

  it('refuses a report not signed by the account, or not a report, and changes nothing', async () => {
    const id = await sentText('SM00000000000000000000000000000aa3', '+447700900123');
    const params = { MessageSid: 'SM00000000000000000000000000000aa3', MessageStatus: 'delivered' };
    expect(await report(params, twilio.getExpectedTwilioSignature('another-token', url, params))).toBe(403);
    expect(await report(params, '')).toBe(403);
    expect(await report({ MessageSid: 'SM00000000000000000000000000000aa3', MessageStatus: 'exploded' })).toBe(422);
    expect((await row(id)).delivery_status).toBeNull();
  });

  it('is not found on a site without Twilio', async () => {
    const plain = await testApp({ db: t.db });
    const res = await plain.app.request('/api/v1/sms/status', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'MessageSid=x' });
    expect(res.status).toBe(404);
  });
});
