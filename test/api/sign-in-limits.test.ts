// Password checks (check-passenger-email and existing-client bookings): limits
// counted before the password is looked at, per e-mail and client address, a
// reset that lifts them, the same work for unknown e-mails, and hashes that
// grow stronger at the next sign-in.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_SECURITY, testApp } from './setup';
import { createPassenger, signIn } from '../../src/server/auth/passengers';
import { hashPassword, verifyPassword } from '../../src/server/auth/passwords';
import * as passwords from '../../src/server/auth/passwords';
import { normaliseAddress } from '../../src/server/http/clientAddress';
import { DEFAULT_PASSWORD_HASH_COST, loadConfig } from '../../src/server/config';

// The README's promise (Allowances: 'password checks'), written here as numbers, not read from the code.
const PER_EMAIL_AND_ADDRESS = 10;
const PER_ADDRESS = 50;

vi.mock('../../src/server/auth/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/auth/passwords')>();
  return { ...real, verifyAgainstDecoy: vi.fn(real.verifyAgainstDecoy) };
});

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => { t = await testApp(); });
afterAll(async () => { await t.db.close(); });

async function account(email: string, password: string, cost = TEST_SECURITY.passwordHashCost) {
  await createPassenger(t.db, { name: 'Test Client', email, phone: '+44 770 090 000', passwordHash: await hashPassword(password, cost) });
}
const check = (email: string, password: string, from = '203.0.113.7') =>
  t.call('POST', '/check-passenger-email', { email, password }, { 'X-Forwarded-For': from });

describe('the ten-wrong-passwords limit', () => {
  it('holds under 60 concurrent wrong passwords: exactly ten are checked, the rest get 429', async () => {
    const email = 'raced@example.com';
    await account(email, 'right-pass-1');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => check(email, `guess-${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PER_EMAIL_AND_ADDRESS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - PER_EMAIL_AND_ADDRESS);
    expect((await check(email, 'right-pass-1')).status).toBe(429);
  });

  it('is kept per client address: a stranger elsewhere cannot lock the owner out', async () => {
    const email = 'owner@example.com';
    await account(email, 'owner-pass-1');
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS; i++) await check(email, `stranger-${i}`, '198.51.100.66');
    const stranger = await check(email, 'owner-pass-1', '198.51.100.66');
    expect([stranger.status, stranger.body.message, stranger.body.field]).toEqual([429, expect.stringContaining('Too many wrong passwords'), 'password']);
    const owner = await check(email, 'owner-pass-1', '203.0.113.20');
    expect(owner.body).toMatchObject({ success: true, found: true });
  });

  it('stops one address trying many e-mails', async () => {
    const from = '192.0.2.99';
    for (let i = 0; i < PER_ADDRESS; i++) expect((await check(`nobody-${i}@example.com`, 'x', from)).status).toBe(200);
    const refused = await check('someone-else@example.com', 'x', from);
    expect([refused.status, refused.body.message]).toEqual([429, expect.stringContaining('from your network')]);
  });

  it('counts a right password as no failure', async () => {
    const email = 'steady@example.com';
    await account(email, 'steady-pass-1');
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS - 1; i++) await check(email, `typo-${i}`);
    expect((await check(email, 'steady-pass-1')).body.success).toBe(true);
    // The failures before the right password are forgotten: ten more tries are allowed.
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS - 1; i++) expect((await check(email, `typo-again-${i}`)).status).toBe(200);
  });

  it('is lifted by a password reset, as the message says', async () => {
    const email = 'locked.out@example.com';
    await account(email, 'old-pass-1');
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS; i++) await check(email, `guess-${i}`);
    const locked = await check(email, 'old-pass-1');
    expect([locked.status, locked.body.message]).toEqual([429, expect.stringContaining('or reset your password')]);
    await t.call('POST', '/auth/forgot-password', { email });
    await t.mail.deliverDue();
    const code = /reset code is (\d{6})/.exec(t.mailbox.sent.filter((m) => m.to === email).at(-1)!.text)![1];
    expect((await t.call('POST', '/auth/reset-password', { email, code, new_password: 'new-pass-2' })).status).toBe(200);
    expect((await check(email, 'new-pass-2')).body).toMatchObject({ success: true, found: true });
  });

  it('applies to existing-client bookings too', async () => {
    const email = 'booker@example.com';
    await account(email, 'booker-pass-1');
    for (let i = 0; i < PER_EMAIL_AND_ADDRESS; i++) await check(email, `guess-${i}`, '198.51.100.5');
    const { body } = await t.call('POST', '/calculate-distance-price', {
      pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
      pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 1,
    });
    const res = await t.call('POST', '/booking', {
      selectedVehicleData: body.price_details[0], bookingType: 'milleage', payment_method: 'car', selected_passenger: 'existing_client',
      bookingForm: { pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
        pickup_date: '2030-06-01', pickup_hour: '3pm', pickup_min: '05', passengers: 1 },
      registrationData: { email, password: 'booker-pass-1' },
    }, { 'X-Forwarded-For': '198.51.100.5' });
    expect(res.status).toBe(429);
  });
});

describe('what the answer time can tell', () => {
  it('hashes for an unknown e-mail as for a known one', async () => {
    const decoy = vi.mocked(passwords.verifyAgainstDecoy);
    decoy.mockClear();
    await check('never-registered@example.com', 'some-pass');
    expect(decoy).toHaveBeenCalledWith('some-pass', TEST_SECURITY.passwordHashCost);
    decoy.mockClear();
    await account('known@example.com', 'known-pass-1');
    await check('known@example.com', 'wrong-pass');
    expect(decoy).not.toHaveBeenCalled();
  });
});

describe('password hashes', () => {
  it('default to scrypt N = 2^17, r = 8, p = 1 in production, which Node computes with maxmem raised', async () => {
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({}).passwordHashCost).toBe(17);
    expect(loadConfig({ PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '4' })).toThrow(/PASSWORD_HASH_COST/);
    const strong = await hashPassword('correct horse', 17);
    expect(strong).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse', strong, 17)).toEqual({ ok: true, needsRehash: false });
  });

  it('are replaced by a stronger one at the next successful sign-in', async () => {
    const email = 'old.hash@example.com';
    await account(email, 'legacy-pass-1', 10);
    const stronger = TEST_SECURITY.passwordHashCost + 1;
    const ok = await signIn(t.db, { email, password: 'legacy-pass-1', client: 'test', hashCost: stronger });
    expect(ok.ok).toBe(true);
    const [row] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM passengers WHERE email = $1', [email]);
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${2 ** stronger}\\$`));
    expect((await verifyPassword('legacy-pass-1', row.password_hash, stronger)).ok).toBe(true);
    // A wrong password changes nothing.
    await signIn(t.db, { email, password: 'wrong', client: 'test', hashCost: stronger + 1 });
    const [after] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM passengers WHERE email = $1', [email]);
    expect(after.password_hash).toBe(row.password_hash);
  });
});

describe('client addresses', () => {
  it('are grouped by IPv6 /64 and read without the IPv4-mapped prefix', () => {
    expect(normaliseAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normaliseAddress('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(normaliseAddress('2001:db8:0:1:bbbb:cccc:dddd:eeee')).toBe('2001:db8:0:1::/64');
    expect(normaliseAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});
