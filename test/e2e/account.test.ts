// The corporate account area (SPEC 2 'Login', 'Bookings (corporate)',
// 'Profile', 'Route guard'; SPEC 4 'Sign-in'; SPEC 8 'Sign-in', 'Profile') in
// Chromium against the real server, as the demo corporate passenger of the
// seed. Tests that change the passenger's profile run on a server of their own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { onSharedServer, removeDir, startServer, ukDateInDays, type RunningServer } from './harness';
import { violations } from './axe';
import { DEMO_CORPORATE } from '../../src/server/operator/seedCorporate';
import {
  CURRENT_PASSWORD_NEEDED, CURRENT_PASSWORD_WRONG, EMAIL_TAKEN, INVALID_CREDENTIALS, LOGIN_OK, PROFILE_UPDATED, SIGN_IN_FAILED,
} from '../../src/domain/messages';
import { formatDateUK } from '../../src/domain/ukTime';

const suite = onSharedServer();
const shared = suite.server;

const DEMO = { email: DEMO_CORPORATE.email, password: DEMO_CORPORATE.password };
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
/** The seeded bookings (src/server/operator/seedCorporate.ts), by pickup, newest first. */
const SEEDED = {
  kingsCross: "King's Cross Station, Euston Road, London N1 9AL",
  paddington: 'Paddington Station, Praed Street, London W2 1HQ',
  heathrow: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA',
  canaryWharf: 'Canary Wharf, One Canada Square, London E14 5AB',
};

async function newPage(width = 1280): Promise<Page> {
  return (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
}

async function signIn(page: Page, who: { email: string; password: string } = DEMO) {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** A fresh visitor signed in as the demo passenger, on /bookings. */
async function signedIn(url: string, width = 1280): Promise<Page> {
  const page = await newPage(width);
  await page.goto(`${url}/login`);
  await signIn(page);
  await page.waitForURL((u) => u.pathname === '/bookings');
  await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
  return page;
}

const at = (page: Page) => { const u = new URL(page.url()); return u.pathname + u.search; };
const stored = (page: Page) => page.evaluate(() => [localStorage.getItem('passenger_token'), localStorage.getItem('passenger_corporate_details')]);
/** The token as the site stores it (base64 of JSON, SPEC 3). */
const storedToken = async (page: Page) => {
  const [raw] = await stored(page);
  return JSON.parse(Buffer.from(raw!, 'base64').toString('utf8')) as string;
};
/** The table row of a booking, by its number. */
const rowOf = (page: Page, reference: string) => page.getByRole('row').filter({ hasText: reference });
/** A row's text starts with the booking number, then the pickup (another booking's destination may hold the same address). */
const pickupPattern = (pickup: string) => new RegExp(`^\\s*BK-[A-Z2-9]{8}\\s*${pickup.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
/** The table row of a seeded booking, by its pickup: the oldest row with that pickup, since other files on the shared server
 * (manage.test.ts) book for the same account from the same places, and the list is newest first. */
const rowFrom = (page: Page, pickup: string) => page.getByRole('row').filter({ hasText: pickupPattern(pickup) }).last();
/** A value of the Details window, by its label. */
const detail = (page: Page, label: string) =>
  page.getByRole('alertdialog').getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]').textContent();

async function choose(page: Page, label: string, typed: string) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('listbox').getByRole('option').first().click();
}

/** From the home form to the details step with a Saloon, as a visitor does. */
async function toDetails(page: Page, days: number) {
  await page.getByRole('button', { name: 'Get prices' }).waitFor();
  await choose(page, 'Pickup address', 'Paddington');
  await choose(page, 'Drop-off address', 'Canary Wharf');
  await page.getByLabel('Pickup date').fill(ukDateInDays(days));
  await page.getByRole('button', { name: 'Get prices' }).click();
  await page.waitForURL('**/quotationview');
  await page.getByRole('article', { name: 'Saloon by Metro Cars London' }).getByRole('button', { name: 'Book Now' }).click();
  await page.waitForURL('**/personalDetailView');
}

/** Pays in the car on the payment step and answers the booking reference of the confirmation. */
async function payInCar(page: Page): Promise<string> {
  await page.waitForURL('**/paymentview');
  await page.getByRole('button', { name: 'Pay In Car' }).click();
  await page.waitForURL('**/paymentSuccessView');
  await page.getByRole('heading', { name: 'Thank You' }).waitFor();
  return /BK-[A-Z2-9]{8}/.exec((await page.locator('main').textContent())!)![0];
}

describe('signing in and the bookings list', () => {
  it('signs in after a wrong password, lists the seeded bookings newest first, and logs out', async () => {
    const page = await newPage();
    await page.goto(shared.url);
    await page.getByRole('link', { name: 'Corporate Account' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign In to Corporate Account' }).waitFor();
    // SPEC 2: the navbar is hidden on /login.
    expect(await page.getByRole('link', { name: 'Corporate Account' }).count()).toBe(0);

    // Client-side checks first, then the server's answer.
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Email is required').waitFor();
    await expect.poll(() => page.getByText('Password is required').isVisible()).toBe(true);
    await page.getByLabel('Email').fill('charlotte@');
    await page.getByLabel('Email').blur();
    await page.getByText('Please enter a valid email address').waitFor();
    await signIn(page, { ...DEMO, password: 'not-her-password' });
    await page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS }).waitFor();
    expect(at(page)).toBe('/login');

    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/bookings' && u.search === '');
    await page.getByRole('status').filter({ hasText: LOGIN_OK }).waitFor();
    expect((await stored(page)).every((v) => v !== null)).toBe(true);
    expect(await page.getByRole('link', { name: 'Bookings', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('complementary').textContent()).toContain(DEMO_CORPORATE.name);

    await rowFrom(page, SEEDED.canaryWharf).waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual([
      'Booking Number', 'Pickup', 'Destination', 'Pickup Date', 'Pickup Time', 'Vehicle', 'Payment Method', 'Booking Amount',
      'Booking Type', 'Details',
    ]);
    // Newest first, as the server sends them.
    const rows = await page.getByRole('row').allTextContents();
    const lastRow = (pickup: string) => rows.reduce((found, r, i) => (pickupPattern(pickup).test(r) ? i : found), -1);
    const order = Object.values(SEEDED).map(lastRow);
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const kingsCross = (await rowFrom(page, SEEDED.kingsCross).textContent())!;
    for (const text of [formatDateUK(ukDateInDays(14)), '1:45 PM', 'Saloon', 'Pay to driver', '£128', 'Hourly Booking']) expect(kingsCross).toContain(text);
    const paddington = (await rowFrom(page, SEEDED.paddington).textContent())!;
    for (const text of ['Reading Station, Station Approach, Reading RG1 1LZ', formatDateUK(ukDateInDays(6)), '9:00 AM', 'Pay to driver', '£185', 'Quotation']) {
      expect(paddington).toContain(text);
    }
    const canaryWharf = (await rowFrom(page, SEEDED.canaryWharf).textContent())!;
    for (const text of ['Executive MPV', 'Pay by Card', '£390', 'Hourly Booking']) expect(canaryWharf).toContain(text);

    // The Details window of the return booking, with its stop.
    await rowFrom(page, SEEDED.paddington).getByRole('button', { name: /Details/ }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    expect(await detail(page, 'Pickup address')).toBe(SEEDED.paddington);
    expect(await detail(page, 'Drop-off address')).toBe('Reading Station, Station Approach, Reading RG1 1LZ');
    expect(await detail(page, 'Return date')).toBe(formatDateUK(ukDateInDays(7)));
    expect(await detail(page, 'Return time')).toBe('5:30 PM');
    expect(await detail(page, 'Vehicle')).toBe('Saloon');
    expect(await detail(page, 'Payment method')).toBe('Pay to driver');
    expect(await detail(page, 'Booking type')).toBe('Quotation');
    expect(await detail(page, 'Total passengers')).toBe('2');
    expect(await detail(page, 'Baby seats')).toBe('No');
    const stop = await detail(page, 'Stop 1');
    expect(stop).toContain('Slough Station, Brunel Way, Slough');
    expect(stop).toContain('SL1 1XW');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    // The Heathrow transfer: its flight and meet and greet.
    await rowFrom(page, SEEDED.heathrow).getByRole('button', { name: /Details/ }).click();
    expect(await detail(page, 'Flight / train')).toBe('BA 0283');
    expect(await detail(page, 'Meet and Greet')).toBe('Yes');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('alertdialog').count()).toBe(0);

    // SPEC 4: logout removes the token and details and goes to /.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    expect(await stored(page)).toEqual([null, null]);
    await page.goto(`${shared.url}/bookings`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(at(page)).toBe('/login?redirect=%2Fbookings');
    await page.context().close();
  });

  it('sends a signed-out visitor to /login?redirect= and back after signing in, for both protected pages', async () => {
    for (const [path, heading, link] of [['/bookings', 'Bookings', 'Bookings'], ['/my-account', 'My Account', 'My Account']] as const) {
      const page = await newPage();
      await page.goto(shared.url + path);
      await page.waitForURL((u) => u.pathname === '/login');
      expect(at(page)).toBe(`/login?redirect=${encodeURIComponent(path)}`);
      await signIn(page);
      await page.waitForURL((u) => u.pathname === path && u.search === '');
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      expect(await page.getByRole('link', { name: link, exact: true }).getAttribute('aria-current')).toBe('page');
      await page.context().close();
    }
  });

  it('ends a session the server no longer accepts: the next protected page asks to sign in again', async () => {
    const page = await signedIn(shared.url);
    const revoke = async () => {
      const res = await fetch(`${shared.url}/api/v1/passenger/logout`, {
        method: 'POST', headers: { ...KEYS, Authorization: `Bearer ${await storedToken(page)}` },
      });
      expect(res.ok).toBe(true);
    };
    // A link inside the area: the token is checked for the navigation.
    await revoke();
    await page.getByRole('link', { name: 'My Account', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(at(page)).toBe('/login?redirect=%2Fmy-account');
    expect(await stored(page)).toEqual([null, null]);

    // A typed URL.
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/my-account');
    await revoke();
    await page.goto(`${shared.url}/bookings`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(at(page)).toBe('/login?redirect=%2Fbookings');
    expect(await stored(page)).toEqual([null, null]);
    await page.context().close();
  });

  it('collapses the sidebar behind its toggle at 768 px and shows it from 769 px', async () => {
    const page = await signedIn(shared.url, 768);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const myAccount = page.getByRole('link', { name: 'My Account', exact: true });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.getAttribute('aria-controls')).toBe('account-sidebar');
    expect(await myAccount.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await myAccount.waitFor();
    expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    // Each link closes it.
    await myAccount.click();
    await page.waitForURL((u) => u.pathname === '/my-account');
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await myAccount.isVisible()).toBe(false);

    await page.setViewportSize({ width: 769, height: 900 });
    await myAccount.waitFor();
    expect(await toggle.isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => myAccount.isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('link', { name: 'Book Now', exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('shows a failed list with Try again, and a friendly empty list with Book Now', async () => {
    const page = await newPage();
    let answer: 'fail' | 'empty' = 'fail';
    await page.route('**/api/v1/get_booking/**', (route) => (answer === 'fail'
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'boom' }) })
      : route.fulfill({ status: 200, contentType: 'application/json', body: '[]' })));
    await page.goto(`${shared.url}/login`);
    await signIn(page);
    await page.getByRole('alert').filter({ hasText: SIGN_IN_FAILED }).waitFor();
    answer = 'empty';
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No bookings yet' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    await page.getByRole('main').getByRole('link', { name: 'Book Now', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Get prices' }).waitFor();
    await page.context().close();
  });
});

describe.each([375, 1280])('accessibility of the account area at %i px', (width) => {
  it('finds no WCAG 2.2 AA violations on sign-in and the bookings list', async () => {
    const page = await newPage(width);
    await page.goto(`${shared.url}/login`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Email is required').waitFor();
    expect(await violations(page), 'sign-in with errors').toEqual([]);
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/bookings');
    await rowFrom(page, SEEDED.paddington).waitFor();
    expect(await violations(page), 'bookings').toEqual([]);
    await page.context().close();
  });

  it('finds no WCAG 2.2 AA violations in the details window, the menu and the profile', async () => {
    const page = await signedIn(shared.url, width);
    await rowFrom(page, SEEDED.paddington).waitFor();
    await rowFrom(page, SEEDED.paddington).getByRole('button', { name: /Details/ }).click();
    await page.getByRole('alertdialog').waitFor();
    expect(await violations(page), 'details').toEqual([]);
    await page.getByRole('button', { name: 'Close' }).click();
    if (width < 769) {
      await page.getByRole('button', { name: 'Menu' }).click();
      await page.getByRole('link', { name: 'My Account', exact: true }).waitFor();
      expect(await violations(page), 'open menu').toEqual([]);
    }
    await page.getByRole('link', { name: 'My Account', exact: true }).click();
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    expect(await violations(page), 'my account').toEqual([]);
    await page.context().close();
  });
});

describe('bookings made for the account', () => {
  it('lists a booking made through the wizard as an existing client with the passenger\'s e-mail and password', async () => {
    const page = await newPage();
    await page.goto(shared.url);
    await toDetails(page, 9);
    await page.getByText('Existing client').click();
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password *', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Next' }).click();
    const reference = await payInCar(page);

    await page.goto(`${shared.url}/login`);
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/bookings');
    await rowOf(page, reference).waitFor();
    // Newest first: the booking just made heads the list.
    expect(await page.getByRole('rowheader').first().textContent()).toBe(reference);
    const row = (await rowOf(page, reference).textContent())!;
    for (const text of [SEEDED.paddington, formatDateUK(ukDateInDays(9)), 'Saloon', 'Pay to driver', 'Quotation']) expect(row).toContain(text);
    await page.context().close();
  });

  it('books for the account from Book Now in the sidebar, and the booking joins the list', async () => {
    const page = await signedIn(shared.url);
    await page.getByRole('link', { name: 'Book Now', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await toDetails(page, 11);
    // SPEC 6 / decision 18: the details say whose account it is, and offer no guest / new / existing choice.
    const note = page.getByRole('note');
    await note.waitFor();
    expect(await note.textContent()).toContain('Booking for your corporate account');
    expect(await note.textContent()).toContain(DEMO_CORPORATE.name);
    expect(await page.getByText('Existing client').isVisible()).toBe(false);
    expect(await page.getByRole('group', { name: 'How would you like to book?' }).isVisible(),
      'decision 18: a signed-in passenger is offered no guest / new / existing choice').toBe(false);
    // The details are the passenger's own: nothing to retype.
    expect(await page.getByLabel('Email').inputValue()).toBe(DEMO_CORPORATE.email);
    await page.getByRole('button', { name: 'Next' }).click();
    const phoneRefused = page.getByText('Please enter a valid phone number (e.g., +xxx xxx xxx xxx)');
    await Promise.race([page.waitForURL('**/paymentview'), phoneRefused.waitFor()].map((p) => p.catch(() => {})));
    expect(await phoneRefused.count(), `the account's own phone (${DEMO_CORPORATE.phone}) is refused on the details step`).toBe(0);
    const reference = await payInCar(page);

    // Still signed in after the confirmation: the site bar leads straight to the bookings.
    await page.getByRole('link', { name: 'Book another journey' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: 'Corporate Account' }).click();
    await page.waitForURL((u) => u.pathname === '/bookings');
    await rowOf(page, reference).waitFor();
    expect(await page.getByRole('rowheader').first().textContent()).toBe(reference);
    expect(await rowOf(page, reference).textContent()).toContain(formatDateUK(ukDateInDays(11)));
    await page.context().close();
  });
});

// Changes the demo passenger's profile: a server of its own, so other files see the seed as it is.
describe('the profile, on a server of its own', () => {
  let own: RunningServer;
  beforeAll(async () => { own = await startServer(); });
  afterAll(async () => {
    await own?.stop();
    if (own) removeDir(own.dataDir);
  });

  it('checks the fields, saves name, e-mail and phone, and keeps them across a reload and a new sign-in', async () => {
    const page = await signedIn(own.url);
    await page.getByRole('link', { name: 'My Account', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/my-account');
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    const name = page.getByLabel('Name');
    const email = page.getByLabel('Email');
    const phone = page.getByLabel('Phone');
    const current = page.getByLabel('Current password');
    expect(await current.count()).toBe(0);
    expect([await name.inputValue(), await email.inputValue(), await phone.inputValue()])
      .toEqual([DEMO_CORPORATE.name, DEMO_CORPORATE.email, '+44 20 7946 0018']); // stored E.164, shown formatted (decision 20)

    // SPEC 5: name and e-mail required.
    await name.fill('');
    await email.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Name is required').waitFor();
    await expect.poll(() => page.getByText('Email is required').isVisible()).toBe(true);
    await email.fill('charlotte@northbridge');
    await email.blur();
    await page.getByText('Please enter a valid email address').waitFor();

    // Issue 24: a new e-mail asks for the current password, under the e-mail, only while the e-mail differs.
    await name.fill('Charlotte Davies-Hart');
    await email.fill('c.davies@example.com');
    await current.waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(CURRENT_PASSWORD_NEEDED).waitFor();
    await current.fill('not-my-password');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: CURRENT_PASSWORD_WRONG }).waitFor();
    await email.fill(DEMO_CORPORATE.email.toUpperCase());
    await expect.poll(() => current.count()).toBe(0);

    // An e-mail another account uses: the server's message.
    const other = 'oliver.grant@example.com';
    await createAccount(own.url, other, 'oliver-pass-1');
    await email.fill(other);
    await current.fill(DEMO.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').filter({ hasText: EMAIL_TAKEN }).waitFor();

    const changed = { name: 'Charlotte Davies-Hart', email: 'c.davies-hart@northbridge-consulting.co.uk', phone: '+44 20 7946 0999' };
    await email.fill(changed.email);
    await current.fill(DEMO.password);
    await phone.fill(changed.phone);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: PROFILE_UPDATED }).waitFor();
    expect(await current.count()).toBe(0);
    expect(await page.getByRole('complementary').textContent()).toContain(changed.name);

    await page.reload();
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe(changed.name);
    expect(await page.getByLabel('Email').inputValue()).toBe(changed.email);
    expect(await page.getByLabel('Phone').inputValue()).toBe(changed.phone);

    // The server kept them: signing out and in again (with the new e-mail) shows them too.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(`${own.url}/my-account`);
    await page.waitForURL((u) => u.pathname === '/login');
    await signIn(page, { email: DEMO.email, password: DEMO.password });
    await page.getByRole('alert').filter({ hasText: INVALID_CREDENTIALS }).waitFor();
    await signIn(page, { email: changed.email, password: DEMO.password });
    await page.waitForURL((u) => u.pathname === '/my-account');
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe(changed.name);
    expect(await page.getByLabel('Phone').inputValue()).toBe(changed.phone);
    await page.context().close();
  });
});

/** A passenger account made the way the site makes one: a new client's booking. */
async function createAccount(url: string, email: string, password: string) {
  const bookingForm = {
    pickup: 'Paddington Station, Praed Street, London W2 1HQ', dropoff: 'Euston Station, Euston Road, London NW1 2RT',
    pickup_date: ukDateInDays(10), pickup_hour: '9am', pickup_min: '00',
  };
  const prices = await fetch(`${url}/api/v1/calculate-distance-price`, { method: 'POST', headers: KEYS, body: JSON.stringify(bookingForm) }).then((r) => r.json());
  const res = await fetch(`${url}/api/v1/booking`, {
    method: 'POST', headers: KEYS,
    body: JSON.stringify({
      selectedVehicleData: prices.price_details[0], bookingType: 'milleage', bookingForm, payment_method: 'car', selected_passenger: 'new_client',
      registrationData: { firstName: 'Oliver', surname: 'Grant', number: '+44 791 555 011', email, password, privacyAccepted: true, termsAccepted: true },
    }),
  });
  expect(res.status).toBe(200);
}
