// Issue 39 item 7 in Chromium: the board's poll for new bookings is a background call (X-Background-Poll: 1, no use
// of the session), and when the session ends while the board is open, the console shows the sign-in page with its
// message by itself, instead of a board that silently stops. A member of staff of the test's own is used, whose
// password is changed through `npm run admin` (which ends their sessions, as a session's hours running out does).
import { describe, expect, it } from 'vitest';
import { onSharedServer } from './harness';

const suite = onSharedServer();
const shared = suite.server;

describe('a console session that ends while the board is open', () => {
  it('polls in the background, then shows the sign-in page with the reason, and signs in again to the board', async () => {
    const email = `night.desk.${Date.now()}@albion-executive.co.uk`;
    const password = 'Night-Desk-password-1';
    await shared.admin('add-staff', '--email', email, '--name', 'Sam Lee', '--role', 'dispatcher', '--password', password);
    const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${shared.url}/operator`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();

    const poll = await page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/operator/latest', { timeout: 60_000 });
    expect(poll.headers()['x-background-poll']).toBe('1');

    // The session ends on the server; nobody touches the page.
    const renewed = 'Night-Desk-password-2';
    await shared.admin('add-staff', '--email', email, '--name', 'Sam Lee', '--role', 'dispatcher', '--password', renewed);
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Please sign in again: your session has ended.');
    expect(await page.getByRole('heading', { name: 'Bookings', level: 1 }).count()).toBe(0);

    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(renewed);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/operator');
    await page.context().close();
  }, 120_000);
});
