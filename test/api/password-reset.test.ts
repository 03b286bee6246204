// SPEC 7 auth calls and SPEC 8 messages of the forgot-password flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { createPassenger } from '../../src/server/passengers';
import { hashPassword } from '../../src/server/auth/passwords';

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
    expect([res.status, res.body.message]).toEqual([404, 'Email not found']);
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
