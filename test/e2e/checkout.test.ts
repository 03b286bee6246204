// Details, payment, confirmation and Quote Now (SPEC 2, 4, 5 and 8) in
// Chromium against the real server.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { outboxMails, type OutboxMail } from './outbox';

const suite = onSharedServer();
const { server, setting } = suite;

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** A fresh visitor at the details step, having chosen a vehicle. */
async function atDetails(opts: { width?: number; ret?: boolean; to?: string } = {}): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 } })).newPage();
  await page.goto(server.url);
  if (opts.ret) await page.getByText('Return', { exact: true }).click();
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', opts.to ?? 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(4));
  if (opts.ret) await page.getByLabel('Return date').fill(ukDateInDays(6));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.getByRole('article', { name: 'Saloon by Metro Cars London' }).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/personalDetailView');
  await page.getByRole('group', { name: 'How would you like to book?' }).waitFor();
  return page;
}

async function fillGuest(page: Page, email: string) {
  await page.getByLabel('First Name').fill('Harriet');
  await page.getByLabel('Last Name').fill('Doyle');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone Number').fill('+44 791 555 010');
}

const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

/** A passenger account made the way the site makes one: a new client's booking. */
async function createAccount(email: string, password: string) {
  const bookingForm = {
    pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Euston Station, Euston Road, London NW1 2RT',
    pickup_date: ukDateInDays(10), pickup_hour: '9am', pickup_min: '00',
  };
  const prices = await fetch(`${server.url}/api/v1/calculate-distance-price`, { method: 'POST', headers: KEYS, body: JSON.stringify(bookingForm) }).then((r) => r.json());
  const res = await fetch(`${server.url}/api/v1/booking`, {
    method: 'POST', headers: KEYS,
    body: JSON.stringify({
      selectedVehicleData: prices.price_details[0], bookingType: 'milleage', bookingForm, payment_method: 'car', selected_passenger: 'new_client',
      registrationData: { firstName: 'Harriet', surname: 'Doyle', number: '+44 791 555 010', email, password, privacyAccepted: true, termsAccepted: true },
    }),
  });
  expect(res.status).toBe(200);
}

const alertText = async (page: Page) => {
  const dialog = page.getByRole('alertdialog');
  const text = await dialog.textContent();
  await dialog.getByRole('button').click();
  return text;
};

describe('registration modes', () => {
  it('asks a new client for a password and both agreements, then books and creates the account', async () => {
    const page = await atDetails();
    await page.getByText('New client').click();
    await fillGuest(page, 'harriet.doyle@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('Enter Password for booking');
    await page.getByLabel('Password *', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('Please Accept Our Privacy Policies');
    await expect.poll(() => page.getByText('Password must be at least 6 characters long').isVisible()).toBe(true);
    await page.getByLabel('I accept the Privacy Policy').check();
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('Please Accept Our Term and Conditions');
    await page.getByLabel('I accept the Terms and Conditions').check();
    await page.getByLabel('Password *', { exact: true }).fill('harriet-1');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    expect(await page.getByRole('region', { name: 'Personal details' }).textContent()).toContain('New client');
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
  });

  it('checks an existing client with the server: not found, wrong password, then found (SPEC 8)', async () => {
    await createAccount('harriet.existing@example.com', 'harriet-1');
    const page = await atDetails();
    await page.getByText('Existing client').click();
    expect(await page.getByLabel('First Name').count()).toBe(0);
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password *', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('Email not found in the system, Enter new email inside new client or try with another email');
    expect(new URL(page.url()).pathname).toBe('/personalDetailView');
    await page.getByLabel('Email').fill('harriet.existing@example.com');
    await page.getByLabel('Password *', { exact: true }).fill('wrong-one');
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await alertText(page)).toContain('The password is not correct');
    await page.getByLabel('Password *', { exact: true }).fill('harriet-1');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await page.getByText('Email found. Proceeding to payment.').waitFor();
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('Harriet Doyle');
  });

  it('refuses a list of addresses for the other passenger\'s e-mail, under the field', async () => {
    const page = await atDetails();
    await fillGuest(page, 'booker@example.com');
    await page.getByText('I am booking for someone else').click();
    const other = page.getByLabel('Passenger email');
    await other.fill('tom@example.com, eve@example.com');
    await other.blur();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    expect(new URL(page.url()).pathname).toBe('/personalDetailView');
    await other.fill('tom@example.com');
    expect(await page.getByText('Please enter a valid email address').count()).toBe(0);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
  });

  it('saves the mode and details on every change, never the password, and restores them on reload', async () => {
    const page = await atDetails();
    await page.getByText('New client').click();
    await fillGuest(page, 'kept@example.com');
    await page.getByLabel('Password *', { exact: true }).fill('top-secret-9');
    await page.reload();
    await page.getByRole('group', { name: 'How would you like to book?' }).waitFor();
    expect(await page.getByRole('radio', { name: /New client/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Email').inputValue()).toBe('kept@example.com');
    expect(await page.getByLabel('Password *', { exact: true }).inputValue()).toBe('');
    const stored = await page.evaluate(() => Object.values(localStorage).map((v) => { try { return atob(v); } catch { return v; } }).join(' '));
    expect(stored).toContain('kept@example.com');
    expect(stored).not.toContain('top-secret-9');
  });
});

describe('payment', () => {
  it('hides Pay In Car unless SHOWPAYINCAR is yes, and shows a booking failure in an Error dialog', async () => {
    const page = await atDetails();
    await fillGuest(page, 'guest@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await server.admin('ban-address', 'Canary Wharf');
    try {
      await page.getByRole('button', { name: 'Pay In Car' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Error' });
      expect(await dialog.textContent()).toContain('Address is banned');
      await dialog.getByRole('button', { name: 'OK' }).click();
      expect(new URL(page.url()).pathname).toBe('/paymentview');
    } finally {
      await server.admin('unban-address', 'Canary Wharf');
    }
    await setting('SHOWPAYINCAR', 'no');
    await page.reload();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    expect(await page.getByRole('button', { name: 'Pay In Car' }).count()).toBe(0);
  });

  it('folds the booking details behind a toggle on a phone', async () => {
    const page = await atDetails({ width: 375 });
    await fillGuest(page, 'phone@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    const toggle = page.getByRole('button', { name: 'Show booking details' });
    await toggle.waitFor();
    expect(await page.getByRole('region', { name: 'Personal details' }).count()).toBe(0);
    await toggle.click();
    await expect.poll(() => page.getByRole('region', { name: 'Personal details' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Hide booking details' }).isVisible()).toBe(true);
  });
});

describe('confirmation', () => {
  it('shows return times, exact pence without ROUND_OFF, and extras only when offered', async () => {
    await setting('ROUND_OFF', 'no');
    await setting('WHEEL_CHAIR', '0');
    const page = await atDetails({ ret: true });
    await fillGuest(page, 'return@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    const main = page.locator('main');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    const text = (await main.textContent())!;
    const [y, m, d] = ukDateInDays(6).split('-');
    expect(text).toContain(`Return date${d}-${m}-${y}`);
    expect(text).toMatch(/Total amount£\d+\.\d{2}/);
    expect(text).toContain('Meet and GreetNo');
    expect(text).not.toContain('Wheelchair');
    expect(text).toContain('Drop-off address');
  });

  it('shows the duration and no drop-off for an hourly booking', async () => {
    await setting('HOURLY_RATE_STATUS', 'enable');
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(server.url);
    await choose(page, 'Pickup address', 'Canary Wharf');
    await page.getByLabel('Duration').selectOption('5hour');
    await page.getByLabel('Pickup date').fill(ukDateInDays(5));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.getByRole('button', { name: 'Book Now' }).nth(1).click();
    await page.waitForURL('**/personalDetailView');
    await fillGuest(page, 'hourly@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
    await page.getByRole('button', { name: 'Pay In Car' }).click();
    await page.waitForURL('**/paymentSuccessView');
    await page.getByRole('heading', { name: 'Thank You' }).waitFor();
    const text = (await page.locator('main').textContent())!;
    expect(text).toContain('Booking typeHourly Booking');
    expect(text).toContain('Duration5 hours');
    expect(text).not.toContain('Drop-off address');
  });
});

describe('Quote Now', () => {
  it('sends the quote, says so, clears the contact fields and forgets the saved booking form', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await page.goto(server.url);
    await choose(page, 'Pickup address', 'Bath');
    await choose(page, 'Drop-off address', 'Bristol Airport');
    await page.getByLabel('Passengers').selectOption('3');
    await page.getByLabel('Pickup date').fill(ukDateInDays(9));
    await page.getByRole('button', { name: 'Get prices' }).click();
    await page.waitForURL('**/quotationview');
    await page.goto(`${server.url}/quoteView`);
    await page.getByRole('heading', { name: 'Quote Now' }).waitFor();
    expect(await page.getByLabel('Drop-off address').inputValue()).toBe('Bristol Airport, Lulsgate Bottom, Bristol BS48 3DY');
    expect(await page.getByLabel('Passengers').inputValue()).toBe('3');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByText('Email is required').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Telephone is required').isVisible()).toBe(true);
    await page.getByLabel('Email').fill('quote@example.com');
    await page.getByLabel('Telephone').fill('447700900999');
    await page.getByLabel('Name').fill('Quinn');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await alertText(page)).toContain('Your booking has been sent!');
    expect(await page.getByLabel('Email').inputValue()).toBe('');
    expect(await page.getByLabel('Telephone').inputValue()).toBe('');
    expect(await page.getByLabel('Passengers').inputValue()).toBe('1');
    expect(await page.getByLabel('Luggages').inputValue()).toBe('0');
    expect(await page.evaluate(() => localStorage.getItem('BookingForm'))).toBeNull();
  });

  it('says when the quote could not be sent, keeping what was typed', async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await page.route('**/api/v1/send-instant-email', (route) => route.fulfill({ status: 503, body: '{"success":false}' }));
    await page.goto(`${server.url}/quoteView`);
    await page.getByRole('heading', { name: 'Quote Now' }).waitFor();
    await page.getByLabel('Time').fill('09:30');
    await page.getByLabel('Email').fill('kept@example.com');
    await page.getByLabel('Telephone').fill('447700900111');
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await alertText(page)).toContain('There was a problem sending your booking.');
    expect(await page.getByLabel('Email').inputValue()).toBe('kept@example.com');
  });
});

/** The password reset e-mails to this address in the outbox, oldest first. */
const resetMails = (to: string): OutboxMail[] =>
  outboxMails(server.dataDir).filter((m) => (m.headers.to ?? '').toLowerCase().includes(to.toLowerCase()) && /password reset code/i.test(m.headers.subject ?? ''));

/**
 * Waits for a reset e-mail to this address that is not one of `before` (the
 * outbox files there were before the click that sends it), and reads the code
 * from its body. Mail is written after the page answers, so the newest file
 * may still be the previous code.
 */
async function newResetCode(to: string, before: string[]): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const newest = resetMails(to).filter((m) => !before.includes(m.file)).at(-1);
    // A file still being written may have no whole code yet: then look again.
    const code = newest?.texts.map((t) => /password reset code is\s*(\d{6})\b/i.exec(t)?.[1]).find(Boolean);
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No new reset code e-mail to ${to} (outbox had ${before.length} before)`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The names of the reset e-mails to this address in the outbox now. */
const resetMailFiles = (to: string) => resetMails(to).map((m) => m.file);

describe('forgot password', () => {
  it('resets a client\'s password with the e-mailed code and returns to the details step', async () => {
    await createAccount('forgetful@example.com', 'first-pass-1');
    const page = await atDetails();
    await page.getByText('Existing client').click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot_password');
    await page.getByLabel('Email *', { exact: true }).fill('nobody@example.com');
    await page.getByRole('button', { name: 'Send code' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Email not found');
    await page.getByLabel('Email *', { exact: true }).fill('forgetful@example.com');
    let before = resetMailFiles('forgetful@example.com');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('A reset code has been sent to your email.').waitFor();
    await newResetCode('forgetful@example.com', before); // the first code's e-mail is in the outbox
    // Back on step 2 returns to step 1; sending again e-mails a new code.
    await page.getByRole('button', { name: 'Back' }).click();
    before = resetMailFiles('forgetful@example.com');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByLabel('Code *', { exact: true }).waitFor();
    const code = await newResetCode('forgetful@example.com', before);
    await page.getByLabel('Code *', { exact: true }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify code' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Invalid reset code');
    await page.getByLabel('Code *', { exact: true }).fill(code);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByText('Code verified successfully').waitFor();
    await page.getByLabel('New password *', { exact: true }).fill('second-pass-2');
    await page.getByLabel('Confirm new password').fill('second-pass-3');
    await page.getByRole('button', { name: 'Reset password' }).click();
    expect(await page.getByRole('alert').textContent()).toBe('Passwords do not match');
    await page.getByLabel('Confirm new password').fill('second-pass-2');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/personalDetailView');
    await page.getByText('Password has been reset successfully').waitFor();
    expect(await page.getByLabel('Email *', { exact: true }).inputValue()).toBe('forgetful@example.com');
    await page.getByLabel('Password *', { exact: true }).fill('second-pass-2');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/paymentview');
  });
});
