// SPEC 7 auth calls and SPEC 8 messages of the forgot-password flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { createPassenger } from '../../src/server/auth/passengers';
import { hashPassword } from '../../src/server/auth/passwords';
import { createHash } from 'node:crypto';

let t: Awaited<ReturnType<typeof testApp>>;
const email = 'reset.me@example.com';
beforeAll(async () => {
  t = await testApp();
  await createPassenger(t.db, { name: 'Reset Me', email, phone: '+44 700 000 002', passwordHash: await hashPassword('old-pass-1', TEST_SECURITY.passwordHashCost) });
});
afterAll(async () => { await t.db.close(); });

async function codeFromMail(): Promise<string> {
  await t.mail.deliverDue();
  const m = t.mailbox.sent.filter((x) => x.to === email).at(-1)!;
  return /reset code is (\d{6})\b/.exec(m.text)![1];
}

const signInCheck = async (password: string) => (await t.call('POST', '/check-passenger-email', { email, password })).body;

describe('forgot password', () => {
  it('says when the e-mail has no account', async () => {
    const res = await t.call('POST', '/auth/forgot-password', { email: 'nobody@example.com', type: 'website' });
    expect([res.status, res.body.message, res.body.field]).toEqual([404, 'Email not found', 'email']);
  });

  it('names the code field when a code is wrong or used up, and sends the code as a password_reset message with the code in bold', async () => {
    await t.call('POST', '/auth/forgot-password', { email });
    const code = await codeFromMail();
    const mail = t.mailbox.sent.filter((x) => x.to === email).at(-1)!;
    expect(mail.html).toContain(`<strong style="font-size:20px">${code}</strong>`);
    const [row] = await t.db.query<any>("SELECT kind FROM outbound_emails WHERE to_address = $1 ORDER BY id DESC LIMIT 1", [email]);
    expect(row.kind).toBe('password_reset');
    const wrong = await t.call('POST', '/auth/verify-code', { email, code: code === '000000' ? '111111' : '000000' });
    expect([wrong.status, wrong.body.field, wrong.body.message]).toEqual([422, 'code', 'Invalid reset code']);
    await t.db.query("UPDATE password_reset_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
    const expired = await t.call('POST', '/auth/verify-code', { email, code });
    expect([expired.status, expired.body.field, expired.body.message]).toEqual([422, 'code', 'Reset code has expired']);
  });

  it('refuses every code, without failing, when the stored code is damaged', async () => {
    for (const damaged of ['no-separator', 'salt$too-short']) {
      await t.call('POST', '/auth/forgot-password', { email });
      const code = await codeFromMail();
      await t.db.query('UPDATE password_reset_codes SET code_hash = $1 WHERE used_at IS NULL AND expires_at > now()', [damaged]);
      const res = await t.call('POST', '/auth/verify-code', { email, code });
      expect([res.status, res.body.message], damaged).toEqual([422, 'Invalid reset code']);
    }
  });

  it('e-mails a code, verifies it, and resets the password with it once', async () => {
    const sent = await t.call('POST', '/auth/forgot-password', { email, type: 'website' });
    expect(sent.body).toEqual({ success: true, message: 'A reset code has been sent to your email.' });
    const code = await codeFromMail();
    const [row] = await t.db.query<any>('SELECT code_hash FROM password_reset_codes ORDER BY id DESC LIMIT 1');
    expect(row.code_hash).not.toContain(code);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await t.call('POST', '/auth/verify-code', { email, code: wrong })).body.message).toBe('Invalid reset code');
    expect((await t.call('POST', '/auth/verify-code', { email, code })).body).toEqual({ success: true, message: 'Code verified successfully' });
    const reset = await t.call('POST', '/auth/reset-password', { email, code, new_password: 'new-pass-2', type: 'website' });
    expect(reset.body).toEqual({ success: true, message: 'Password has been reset successfully' });
    expect((await signInCheck('new-pass-2')).found && (await signInCheck('new-pass-2')).success).toBe(true);
    expect((await signInCheck('old-pass-1')).success).toBe(false);
    const again = await t.call('POST', '/auth/reset-password', { email, code, new_password: 'third-pass-3' });
    expect(again.body.message).toBe('Reset code has expired');
  });

  it('lets a code be tried five times, and expires it after 15 minutes', async () => {
    await t.call('POST', '/auth/forgot-password', { email });
    const code = await codeFromMail();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await t.call('POST', '/auth/verify-code', { email, code: wrong })).body.message).toBe('Invalid reset code');
    expect((await t.call('POST', '/auth/verify-code', { email, code })).body.message).toBe('Reset code has expired');
    await t.call('POST', '/auth/forgot-password', { email });
    const fresh = await codeFromMail();
    await t.db.query("UPDATE password_reset_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL");
    expect((await t.call('POST', '/auth/verify-code', { email, code: fresh })).body.message).toBe('Reset code has expired');
  });

  it('limits codes to five an hour, and checks the new password', async () => {
    const short = await t.call('POST', '/auth/reset-password', { email, code: '123456', new_password: 'abc' });
    expect([short.status, short.body.field]).toEqual([422, 'new_password']);
    let last = { status: 200 };
    for (let i = 0; i < 5 && last.status === 200; i++) last = await t.call('POST', '/auth/forgot-password', { email });
    expect(last.status).toBe(429);
  });
});

describe('reset codes under concurrent tries', () => {
  const racer = 'raced.reset@example.com';
  beforeAll(async () => {
    await createPassenger(t.db, { name: 'Raced', email: racer, phone: '+44 700 000 003', passwordHash: await hashPassword('first-pass-1', TEST_SECURITY.passwordHashCost) });
  });
  const lastCode = async () => {
    await t.mail.deliverDue();
    return /reset code is (\d{6})/.exec(t.mailbox.sent.filter((x) => x.to === racer).at(-1)!.text)![1];
  };
  const signsIn = async (password: string) =>
    (await t.call('POST', '/check-passenger-email', { email: racer, password }, { 'X-Forwarded-For': '192.0.2.200' })).body.success;

  it('compares only five of 100 concurrent tries, so the right code sent 80th changes nothing', async () => {
    await t.call('POST', '/auth/forgot-password', { email: racer });
    const code = await lastCode();
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      t.call('POST', '/auth/reset-password', { email: racer, code: i === 79 ? code : wrong(i), new_password: `taken-over-${i}` })));
    const messages = answers.map((a) => a.body.message);
    expect(messages.filter((m) => m === 'Invalid reset code').length + messages.filter((m) => m === 'Password has been reset successfully').length)
      .toBe(5);
    expect(messages.filter((m) => m === 'Reset code has expired')).toHaveLength(95);
    const [row] = await t.db.query<{ attempts: number }>(
      'SELECT attempts FROM password_reset_codes WHERE passenger_id = (SELECT id FROM passengers WHERE email = $1) ORDER BY id DESC LIMIT 1', [racer]);
    expect(row.attempts).toBe(5);
    // The 80th try came too late to be compared.
    expect(messages[79]).toBe('Reset code has expired');
    expect(await signsIn('first-pass-1')).toBe(true);
  });

  it('lets one of two concurrent resets with the right code change the password, once', async () => {
    await t.db.query('DELETE FROM password_reset_codes');
    await t.call('POST', '/auth/forgot-password', { email: racer });
    const code = await lastCode();
    const [a, b] = await Promise.all(['second-pass-a', 'second-pass-b'].map((new_password) =>
      t.call('POST', '/auth/reset-password', { email: racer, code, new_password })));
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    const winner = a.status === 200 ? 'second-pass-a' : 'second-pass-b';
    expect([a, b].find((x) => x.status === 422)!.body).toMatchObject({ message: 'Reset code has expired', field: 'code' });
    expect(await signsIn(winner)).toBe(true);
  });

  it('sends at most five codes an hour however many are asked for at once', async () => {
    await t.db.query('DELETE FROM password_reset_codes');
    const answers = await Promise.all(Array.from({ length: 12 }, () => t.call('POST', '/auth/forgot-password', { email: racer })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM password_reset_codes');
    expect(n).toBe(5);
  });
});

describe('what is kept of a reset code', () => {
  const quiet = 'quiet.reset@example.com';
  beforeAll(async () => {
    await createPassenger(t.db, { name: 'Quiet', email: quiet, phone: '+44 700 000 004', passwordHash: await hashPassword('quiet-pass-1', TEST_SECURITY.passwordHashCost) });
  });

  it('keeps the code out of the subject, erases the sent body, and stores only a salted HMAC', async () => {
    await t.call('POST', '/auth/forgot-password', { email: quiet });
    const [queued] = await t.db.query<any>("SELECT id, subject, body_text FROM outbound_emails WHERE to_address = $1 ORDER BY id DESC LIMIT 1", [quiet]);
    const code = /reset code is (\d{6})/.exec(queued.body_text)![1];
    expect(queued.subject).toBe('Your password reset code');
    await t.mail.deliverDue();
    const sent = t.mailbox.sent.filter((m) => m.to === quiet).at(-1)!;
    expect(sent.subject).not.toContain(code);
    expect(sent.text).toContain(code);
    const [row] = await t.db.query<any>('SELECT status, subject, body_text, body_html FROM outbound_emails WHERE id = $1', [queued.id]);
    expect(row).toEqual({ status: 'sent', subject: 'Your password reset code', body_text: '', body_html: '' });
    const everything = JSON.stringify(await t.db.query("SELECT * FROM outbound_emails WHERE kind = 'password_reset'"));
    expect(everything).not.toContain(code);
    const [stored] = await t.db.query<any>(
      'SELECT passenger_id, code_hash FROM password_reset_codes WHERE passenger_id = (SELECT id FROM passengers WHERE email = $1) ORDER BY id DESC LIMIT 1', [quiet]);
    expect(stored.code_hash).toMatch(/^[\w-]{16}\$[\w-]{43}$/);
    // Not the old unsalted, secret-less digest, which anyone holding the table could search in a million tries.
    expect(stored.code_hash).not.toContain(createHash('sha256').update(`${stored.passenger_id}:${code}`).digest('hex'));
    expect((await t.call('POST', '/auth/verify-code', { email: quiet, code })).status).toBe(200);
  });

  it('keeps booking confirmations whole after sending', async () => {
    const [{ id }] = await t.db.query<any>(
      "INSERT INTO outbound_emails (kind, to_address, subject, body_text, body_html) VALUES ('contact_message', 'office@example.com', 'Hello', 'Body', '<p>Body</p>') RETURNING id");
    await t.mail.deliverDue();
    const [row] = await t.db.query<any>('SELECT status, body_text FROM outbound_emails WHERE id = $1', [id]);
    expect(row).toEqual({ status: 'sent', body_text: 'Body' });
  });
});
