// The office's console (issue 26) in Chromium against the real server, as its staff use it: sign in, the board
// (tabs, search, new bookings arriving without a reload), a booking's page, assigning a driver and car from the record
// (issue 41: an expired licence refused; the drivers and vehicles on record, a company's own), cancelling a card
// booking with its refund, a company member's cancel left for the office to refund (marked "Refund due" on the board
// and beside the Refund button), a session that ends as a cancel is sent, the mail queue, the export, a company
// member's narrower view, sign-out; at 1280 and 375 px, with axe, and by keyboard alone. Bookings are made through the API, as the website makes them.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { onSharedServer, removeDir, startServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { outboxMails } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN, METRO] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };

const api = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${path}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any };
};

let counter = 0;
/** A booking made as the website makes it: paid in the car, or by card through the local test gateway. */
async function book(company: string, opts: { card?: boolean; days?: number; surname?: string } = {}) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: ukDateInDays(opts.days ?? 20), pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
  const request = {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Eleanor', surname: opts.surname ?? `Whitfield${++counter}`, number: '07700 900321', email: `eleanor.${counter}@example.com`, additionalInfo: '' },
    payment_method: opts.card ? 'card' : 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  };
  if (!opts.card) {
    const res = await api('/booking', request);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.booking as { booking_number: string; total_booking_amount: string };
  }
  const { publishableKey } = (await api('/secret_key')).body;
  const pm = await (await fetch(`${shared.url}/test-gateway/v1/payment_methods`, {
    method: 'POST', headers: { Authorization: `Bearer ${publishableKey}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'card', 'card[number]': '4242424242424242', 'card[exp_month]': '12', 'card[exp_year]': '2034', 'card[cvc]': '123' }),
  })).json() as { id: string };
  const key = `op-e2e-${Date.now()}-${counter}`;
  const created = await api('/create-payment-intent', { ...request, paymentMethodId: pm.id, amount: Math.round(Number(vehicle.price) * 100) }, { 'Idempotency-Key': key });
  const confirmed = await api('/confirm-payment-intent', { paymentIntentId: created.body.paymentIntentId });
  const done = await api('/booking', { ...request, stripe_session_id: confirmed.body.sessionId, paymentId: confirmed.body.paymentId }, { 'Idempotency-Key': key });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body.data.booking as { booking_number: string; total_booking_amount: string };
}

async function signedIn(who: { email: string; password: string } = ADMIN, width = 1280, path = '/operator'): Promise<Page> {
  const page = await (await suite.browser.newContext({ viewport: { width, height: 900 } })).newPage();
  await page.goto(`${shared.url}${path}`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}
const at = (page: Page) => { const u = new URL(page.url()); return u.pathname + u.search; };
const board = (page: Page) => page.getByRole('table');

describe('staff sign-in', () => {
  it('keeps the console behind a sign-in, says when the password is wrong, and opens the page asked for', async () => {
    const b = await book('Metro Cars London');
    const page = await (await suite.browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${shared.url}/operator/bookings/${b.booking_number}`);
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    expect(at(page)).toBe('/operator/login');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or password is not correct.');
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Booking ${b.booking_number}` }).waitFor();
    expect(at(page)).toBe(`/operator/bookings/${b.booking_number}`);
    // The session is a cookie the page's scripts cannot read.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    await page.goto(`${shared.url}/operator`);
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    await page.context().close();
  });
});

describe('the bookings board', () => {
  it('lists, finds and filters bookings, and shows a new booking within seconds without a reload', async () => {
    const first = await book('Metro Cars London', { surname: 'Pemberton' });
    const page = await signedIn();
    await page.getByRole('button', { name: 'Upcoming' }).click();
    await expect.poll(() => at(page)).toBe('/operator?tab=upcoming');
    await board(page).getByRole('link', { name: first.booking_number }).waitFor();
    expect(await violations(page)).toEqual([]);

    await page.getByLabel('Search').fill('pemberton');
    await page.getByLabel('Search').press('Enter');
    await expect.poll(() => at(page)).toBe('/operator?tab=upcoming&q=pemberton');
    await expect.poll(() => board(page).getByRole('link').allTextContents()).toEqual([first.booking_number]);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Search').press('Enter');
    await page.getByLabel('Company').selectOption({ label: 'Albion Executive Cars' });
    await expect.poll(async () => (await board(page).getByRole('link').allTextContents()).includes(first.booking_number)).toBe(false);
    await page.getByLabel('Company').selectOption({ label: 'All' });
    await board(page).getByRole('link', { name: first.booking_number }).waitFor();

    // Made elsewhere (the website) while the board is open: it appears, marked new, with the count in the header.
    const second = await book('Albion Executive Cars');
    const link = board(page).getByRole('link', { name: second.booking_number });
    await link.waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Bookings (1 new)' }).waitFor();
    await page.getByRole('row').filter({ hasText: second.booking_number }).getByText('New', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show 1 new booking' }).click();
    await page.getByRole('button', { name: /^Show \d+ new/ }).waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('gives a company member only its own company\'s bookings', async () => {
    const metro = await book('Metro Cars London');
    const albion = await book('Albion Executive Cars');
    const page = await signedIn(METRO);
    await page.getByRole('button', { name: 'Upcoming' }).click();
    await board(page).getByRole('link', { name: metro.booking_number }).waitFor();
    expect(await board(page).getByRole('link', { name: albion.booking_number }).count()).toBe(0);
    expect(await page.getByLabel('Company').locator('option').allTextContents()).toEqual(['All', 'Metro Cars London']);
    await page.goto(`${shared.url}/operator/bookings/${albion.booking_number}`);
    await page.getByRole('heading', { name: `No booking ${albion.booking_number}` }).waitFor();
    await page.context().close();
  });
});

describe("a booking's page", () => {
  it('assigns a driver and car from the record, e-mails the passenger, and shows it on the timeline', async () => {
    const b = await book('Metro Cars London');
    const page = await signedIn(ADMIN, 1280, `/operator/bookings/${b.booking_number}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Assign driver' }).click();
    const dialog = page.getByRole('dialog', { name: `Assign a driver to ${b.booking_number}` });
    await dialog.waitFor();
    // Nothing chosen: each list says what is missing.
    await dialog.getByRole('button', { name: 'Save driver and car' }).click();
    await dialog.getByText('Choose a driver from the record.').waitFor();
    await dialog.getByText('Choose a car from the record.').waitFor();
    expect(await violations(page)).toEqual([]);
    // Only Metro's records are offered for Metro's booking; a search finds by name and by registration.
    await dialog.getByLabel('Find a driver (name or mobile)').fill('daniel');
    await dialog.getByText('Nothing on record matches.').waitFor();
    await dialog.getByLabel('Find a driver (name or mobile)').fill('samir');
    await dialog.getByRole('radio', { name: /Samir Haddad/ }).check();
    await dialog.getByLabel('Find a car (registration, make or model)').fill('lf68');
    await dialog.getByRole('radio', { name: /LF68 TXI/ }).check();
    await dialog.getByRole('button', { name: 'Save driver and car' }).click();
    await page.getByText('Driver and car saved. The passenger has been e-mailed the details.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const driver = page.getByRole('region', { name: 'Driver', exact: true });
    await expect.poll(() => driver.textContent()).toContain('LF68 TXI');
    await expect.poll(() => driver.textContent()).toContain('Samir Haddad');
    await page.getByRole('listitem').filter({ hasText: 'Driver assigned' }).filter({ hasText: ADMIN.name }).waitFor();
    await page.getByRole('button', { name: 'Change driver' }).waitFor();
    await expect.poll(() => outboxMails(shared.dataDir).filter((m) => m.headers.subject === `Your driver for ${b.booking_number}`).length, { timeout: 10_000 }).toBe(1);
    const told = outboxMails(shared.dataDir).find((m) => m.headers.subject === `Your driver for ${b.booking_number}`)!;
    for (const text of ['Samir Haddad', 'White Toyota Prius', 'LF68 TXI']) expect(told.texts[0]).toContain(text);
    // And by text, a file in the SMS folder the local default writes (issue 41 §3).
    const texts = () => (existsSync(path.join(shared.dataDir, 'sms')) ? readdirSync(path.join(shared.dataDir, 'sms')) : [])
      .filter((f) => f.endsWith('.txt')).map((f) => readFileSync(path.join(shared.dataDir, 'sms', f), 'utf8')).filter((t) => t.includes(b.booking_number));
    const to = (phone: string) => texts().filter((t) => t.startsWith(`To: ${phone}\n`));
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(2);
    expect(to('+447700900321')).toEqual([expect.stringContaining('your driver is Samir Haddad, White Toyota Prius, reg LF68 TXI.')]);
    // And the driver: the job, with the link to their page (issue 41 §2).
    expect(to('+447700900201')).toEqual([expect.stringMatching(new RegExp(`New job ${b.booking_number}: .*Open it: http://.*/driver\\n$`))]);
    // The office heard of the booking, and of its driver, with the company that drives it in copy (each message in the
    // outbox once the queue has sent it: waited for, not assumed).
    const officeMails = () => outboxMails(shared.dataDir).filter((m) => m.headers.subject.includes(b.booking_number) && m.headers.to === 'bookings@albion-executive.co.uk');
    await expect.poll(() => officeMails().length, { timeout: 10_000 }).toBe(2);
    const office = officeMails();
    expect(office.map((m) => [m.headers.subject.split(':')[0], m.headers.cc]).sort()).toEqual([
      ['Driver assigned', 'dispatch@metrocars.london'], [`New booking ${b.booking_number}`, 'dispatch@metrocars.london'],
    ]);
    expect(office.find((m) => m.headers.subject.startsWith('New booking'))!.texts[0]).toContain(`/operator/bookings/${b.booking_number}`);
    await page.context().close();
  });

  it("will not dispatch a driver whose licence has expired, and says why before anything is sent", async () => {
    const b = await book('Albion Executive Cars');
    const page = await signedIn(ADMIN, 375, `/operator/bookings/${b.booking_number}`);
    await page.getByRole('button', { name: 'Assign driver' }).click();
    const dialog = page.getByRole('dialog', { name: `Assign a driver to ${b.booking_number}` });
    await dialog.getByRole('radio', { name: /Marek Nowak/ }).check();
    await dialog.getByRole('radio', { name: /LB19 XKE/ }).check();
    await dialog.getByRole('button', { name: 'Save driver and car' }).click();
    await dialog.getByText(/Marek Nowak's PHV driver licence expired on .*, before the pickup on/).waitFor();
    expect(await violations(page)).toEqual([]);
    // The server holds the same rule: asked directly, it refuses and changes nothing.
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const records = (await api('/operator/data/drivers', undefined, { Cookie: cookie })).body.data.drivers as { id: number; name: string }[];
    const cars = (await api('/operator/data/cars', undefined, { Cookie: cookie })).body.data.cars as { id: number; registration: string }[];
    const marek = records.find((d) => d.name === 'Marek Nowak')!.id;
    const car = cars.find((c) => c.registration === 'LB19 XKE')!.id;
    const refused = await api(`/operator/bookings/${b.booking_number}/driver`, { driver_id: marek, car_id: car }, { Cookie: cookie });
    expect([refused.status, refused.body.field]).toEqual([422, 'driver_id']);
    await dialog.getByRole('radio', { name: /Daniel Price/ }).check();
    await dialog.getByRole('button', { name: 'Save driver and car' }).click();
    await page.getByText('Driver and car saved. The passenger has been e-mailed the details.').waitFor();
    await page.context().close();
  });

  it('cancels a card booking with its reason and refunds it once, whoever presses twice', async () => {
    const b = await book('Albion Executive Cars', { card: true });
    const page = await signedIn(ADMIN, 375, `/operator/bookings/${b.booking_number}`);
    await page.getByText('Test payment: no real money was taken').waitFor();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel ${b.booking_number}?` });
    await dialog.getByLabel('Reason').fill('Duplicate booking made by mistake');
    expect(await dialog.getByRole('radio', { name: 'Refund it' }).isChecked()).toBe(true);
    await dialog.getByLabel('Amount to refund (£)').fill('99999');
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await dialog.getByText(`The refund cannot be more than the £${b.total_booking_amount} paid.`).waitFor();
    await dialog.getByLabel('Amount to refund (£)').fill('');
    await dialog.getByRole('button', { name: 'Cancel booking' }).dblclick();
    await page.getByText('Booking cancelled. The passenger, the office and the company have been told.').waitFor();
    await page.getByText('Cancelled', { exact: true }).first().waitFor();
    const payment = page.getByRole('region', { name: 'Payment', exact: true });
    await expect.poll(() => payment.textContent()).toContain(`£${b.total_booking_amount}, succeeded`);
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await expect.poll(() => outboxMails(shared.dataDir).filter((m) => m.headers.subject === `Booking cancelled: ${b.booking_number}`).length, { timeout: 10_000 }).toBe(1);
    await page.context().close();
  });

  it("offers a company member no refund: the office is told, and refunds it once from the booking's page (decision 50)", async () => {
    const b = await book('Metro Cars London', { card: true });
    const amount = `£${b.total_booking_amount}`;
    const company = await signedIn(METRO, 1280, `/operator/bookings/${b.booking_number}`);
    await company.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = company.getByRole('dialog', { name: `Cancel ${b.booking_number}?` });
    // The sentence that matters most is a notice, the amount in bold, not the faintest text of the window.
    const notice = dialog.getByText(`The ${amount} paid by card is not refunded here: the office is told, and refunds it.`);
    await notice.waitFor();
    expect(await notice.evaluate((el) => [el.classList.contains('notice'), el.querySelector('strong')?.textContent])).toEqual([true, amount]);
    expect(await dialog.getByRole('radio').count()).toBe(0);
    expect(await dialog.getByLabel('Amount to refund (£)').count()).toBe(0);
    // Cancelling is red in the window as on the page, never the yellow of a main action.
    const red = (el: Element) => getComputedStyle(el).backgroundColor;
    expect(await dialog.getByRole('button', { name: 'Cancel booking' }).evaluate(red)).toBe('rgb(180, 35, 24)');
    expect(await violations(company)).toEqual([]);
    await dialog.getByLabel('Reason').fill('Vehicle off the road');
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await company.getByText('Booking cancelled. The passenger, the office and the company have been told.').waitFor();
    await company.getByText(`Refund due: ${amount} was not refunded when the booking was cancelled. The office refunds it.`).waitFor();
    expect(await company.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    // The company's board marks it too.
    await company.getByRole('link', { name: /^Bookings/ }).click();
    await company.getByRole('button', { name: 'Cancelled', exact: true }).click();
    await board(company).getByRole('row').filter({ hasText: b.booking_number }).getByText('Refund due', { exact: true }).waitFor();
    await company.context().close();
    const subjects = (subject: string) => outboxMails(shared.dataDir).filter((m) => m.headers.subject === subject);
    await expect.poll(() => subjects(`Refund due: ${b.booking_number}`).map((m) => [m.headers.to, m.headers.cc ?? null]), { timeout: 10_000 })
      .toEqual([['bookings@albion-executive.co.uk', null]]);

    // The office's board at 1280 px: the row marked, its status and total each on one line.
    const desk = await signedIn(ADMIN, 1280, `/operator?tab=cancelled&q=${b.booking_number}`);
    const row = board(desk).getByRole('row').filter({ hasText: b.booking_number });
    await row.getByText('Refund due', { exact: true }).waitFor();
    const lines = (el: Element) => { const r = document.createRange(); r.selectNodeContents(el); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
    for (const text of ['Cancelled', 'Refund due', amount]) expect(await row.getByText(text, { exact: true }).evaluate(lines), text).toBe(1);
    expect(await violations(desk)).toEqual([]);
    await desk.context().close();

    // On a phone, the warning is beside the button that refunds, which says how much.
    const office = await signedIn(ADMIN, 375, `/operator/bookings/${b.booking_number}`);
    const payment = office.getByRole('region', { name: 'Payment', exact: true });
    await expect.poll(() => payment.textContent()).toContain(`Not refunded${amount}`);
    const warning = office.getByText(`Refund due: ${amount} was not refunded when the booking was cancelled.`, { exact: true });
    const refund = office.getByRole('button', { name: `Refund ${amount}`, exact: true });
    const [w, r] = [(await warning.boundingBox())!, (await refund.boundingBox())!];
    expect(r.y - (w.y + w.height)).toBeGreaterThanOrEqual(0);
    expect(r.y - (w.y + w.height)).toBeLessThan(40);
    expect(r.y + r.height).toBeLessThan(900);
    await refund.click();
    const confirm = office.getByRole('dialog', { name: `Refund ${amount} to the card?` });
    await confirm.getByText('The passenger is e-mailed.', { exact: false }).waitFor();
    expect(await violations(office)).toEqual([]);
    await confirm.getByRole('button', { name: 'Refund', exact: true }).dblclick();
    await office.getByText('Refund made. The passenger has been e-mailed.').waitFor();
    await expect.poll(() => payment.textContent()).toContain(`${amount}, succeeded`);
    expect(await payment.textContent()).not.toContain('Not refunded');
    expect(await office.getByText(/^Refund due/).count()).toBe(0);
    expect(await office.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    await expect.poll(() => subjects(`Refund: ${b.booking_number}`).length, { timeout: 10_000 }).toBe(1);
    await office.context().close();
  });

  it('says nothing was saved when the session ended while a cancellation was sent, and the booking stands', async () => {
    const b = await book('Metro Cars London');
    const email = `late.desk.${Date.now()}@albion-executive.co.uk`;
    await shared.admin('add-staff', '--email', email, '--name', 'Kit Moss', '--role', 'dispatcher', '--password', 'Late-Desk-password-1');
    const page = await signedIn({ email, password: 'Late-Desk-password-1' }, 375, `/operator/bookings/${b.booking_number}`);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel ${b.booking_number}?` });
    await dialog.getByLabel('Reason').fill('Passenger asked by phone');
    // The session ends on the server (a new password ends it, as its hours running out do) before Cancel is pressed.
    await shared.admin('add-staff', '--email', email, '--name', 'Kit Moss', '--role', 'dispatcher', '--password', 'Late-Desk-password-2');
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('heading', { name: 'Staff sign-in' }).waitFor();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Your session ended, so nothing was saved. Please sign in again.');
    expect(await violations(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('Late-Desk-password-2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Booking ${b.booking_number}` }).waitFor();
    await page.getByRole('button', { name: 'Cancel booking' }).waitFor();
    expect(await page.getByText('Confirmed', { exact: true }).count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('can be run by keyboard alone: tab to a booking, open it, confirm an action, close a window with Escape', async () => {
    const b = await book('Metro Cars London', { surname: 'Keyboard' });
    const page = await signedIn();
    await page.getByLabel('Search').focus();
    await page.keyboard.type(b.booking_number);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Upcoming' }).focus();
    await page.keyboard.press('Enter');
    const link = board(page).getByRole('link', { name: b.booking_number });
    await link.waitFor();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Booking ${b.booking_number}` }).waitFor();
    await page.getByRole('button', { name: 'Cancel booking' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('id'))).toBe('reason');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel booking');
    await page.context().close();
  });
});

describe('mail and export', () => {
  it('shows the messages sent, and downloads the bookings of a range as CSV', async () => {
    const b = await book('Metro Cars London', { days: 25 });
    const page = await signedIn();
    await page.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('heading', { name: 'Mail' }).waitFor();
    await expect.poll(() => outboxMails(shared.dataDir).some((m) => m.headers.subject === `Booking confirmed: ${b.booking_number}`), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Sent' }).click();
    await expect.poll(() => at(page)).toBe('/operator/mail?status=sent');
    await page.getByRole('cell', { name: `Booking confirmed: ${b.booking_number}` }).waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Export' }).click();
    await page.getByLabel('First day').fill(ukDateInDays(25));
    await page.getByLabel('Last day').fill(ukDateInDays(25));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`bookings-${ukDateInDays(25)}-to-${ukDateInDays(25)}.csv`);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
    expect(text).toContain(b.booking_number);
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('operator data', () => {
  it('is an administrator\'s: a setting switched, a place banned, staff added with a password shown once', async () => {
    const page = await signedIn(ADMIN, 1280, '/operator/data');
    await page.getByRole('heading', { name: 'Operator data' }).waitFor();
    const hourly = page.getByRole('form', { name: 'Hourly hire' });
    await hourly.getByText('Off').waitFor();
    expect(await violations(page)).toEqual([]);
    await hourly.getByRole('button', { name: 'Turn on: Hourly hire' }).click();
    await page.getByText('Hourly hire saved.').waitFor();
    await hourly.getByText('On', { exact: true }).waitFor();
    const site = await api('/setting');
    expect(site.body.find((s: any) => s.setting_name === 'HOURLY_RATE_STATUS').setting_value).toBe('enable');
    await suite.setting('HOURLY_RATE_STATUS', 'disable');

    const grace = page.getByRole('form', { name: 'Book at least this long ahead' });
    await grace.getByLabel('Book at least this long ahead', { exact: true }).fill('two hours');
    await grace.getByRole('button', { name: 'Save: Book at least this long ahead' }).click();
    await grace.getByText('Book at least this long ahead: enter a whole number of minutes, like 120.').waitFor();

    await page.getByRole('button', { name: 'Places', exact: true }).click();
    await expect.poll(() => at(page)).toBe('/operator/data?section=places');
    await page.getByLabel('Text to refuse').fill('Wembley Stadium');
    await page.getByLabel('Reason (for the office)').fill('Event day');
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByRole('button', { name: 'Allow Wembley Stadium again' }).click();
    await page.getByText('"Wembley Stadium" is no longer refused.').waitFor();

    await page.getByRole('button', { name: 'Staff', exact: true }).click();
    await page.getByLabel('Name').fill('Sam Lee');
    await page.getByLabel('E-mail').fill(`sam.${Date.now()}@albion-executive.co.uk`);
    await page.getByLabel('Role').selectOption({ label: 'Dispatcher' });
    await page.getByRole('button', { name: 'Add staff' }).click();
    const password = (await page.getByText(/One-time password/).locator('strong').textContent())!;
    expect(password).toMatch(/^[\w-]{16}$/);
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  it("opens a company member on their own drivers and vehicles only, where they add a driver after a check of the form", async () => {
    const page = await signedIn(METRO, 375, '/operator/data?section=settings');
    await page.getByRole('heading', { name: 'Drivers and vehicles' }).waitFor();
    await expect.poll(() => at(page)).toBe('/operator/data?section=drivers');
    expect(await page.getByRole('button', { name: 'Settings', exact: true }).count()).toBe(0);
    const drivers = page.getByRole('table', { name: 'Drivers on record' });
    await drivers.getByText('Samir Haddad').waitFor();
    expect(await drivers.getByText('Daniel Price').count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    const form = page.getByRole('form', { name: 'Add a driver' });
    await form.getByLabel('Name').fill('Leah Morgan');
    await form.getByLabel('Mobile').fill('020 7946 0321');
    await form.getByLabel('PHV driver licence number').fill('245116');
    await form.getByLabel('Licence expiry').fill('2031-04-30');
    await form.getByRole('button', { name: 'Add driver' }).click();
    await form.getByText(/This is not a UK mobile number/).waitFor();
    expect(await violations(page)).toEqual([]);
    await form.getByLabel('Mobile').fill('07700 900444');
    await form.getByRole('button', { name: 'Add driver' }).click();
    await page.getByText('Leah Morgan saved.').waitFor();
    await drivers.getByText('Leah Morgan').waitFor();
    await page.getByRole('button', { name: 'Vehicles', exact: true }).click();
    await page.getByRole('table', { name: 'Vehicles on record' }).getByText('LF68 TXI').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  it("flags an administrator's records whose documents have expired or expire within 30 days", async () => {
    const page = await signedIn(ADMIN, 1280, '/operator/data?section=drivers');
    const drivers = page.getByRole('table', { name: 'Drivers on record' });
    await drivers.getByRole('row').filter({ hasText: 'Marek Nowak' }).getByText(/Expired: PHV driver licence expired/).waitFor();
    await drivers.getByRole('row').filter({ hasText: 'Ana Costa' }).getByText(/Due: PHV driver licence expires in \d+ days/).waitFor();
    await drivers.getByRole('row').filter({ hasText: 'Daniel Price' }).getByText('In date').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('a journey that has taken place', () => {
  it('is marked completed, or a no-show, once its pickup time has come, and nothing more can be done to it', async () => {
    // A server of its own: the demo's past bookings are changed.
    const own = await startServer();
    try {
      const page = await (await suite.browser.newContext({ viewport: { width: 375, height: 900 } })).newPage();
      await page.goto(`${own.url}/operator?tab=past`);
      await page.getByLabel('E-mail').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // The demo's two past journeys still to be marked (its journey on account of last month, issue 44, is completed).
      await expect.poll(() => board(page).getByRole('link').count()).toBe(3);
      const links = board(page).getByRole('row').filter({ hasNotText: 'Completed' }).getByRole('link');
      await expect.poll(() => links.count()).toBe(2);
      const [first, second] = await links.allTextContents();
      for (const [reference, button, label] of [[first, 'Mark completed', 'Completed'], [second, 'Mark no-show', 'No-show']]) {
        await page.goto(`${own.url}/operator/bookings/${reference}`);
        await page.getByRole('button', { name: button }).click();
        const confirm = page.getByRole('dialog');
        await confirm.getByText('This cannot be undone.').waitFor();
        await confirm.getByRole('button', { name: button }).click();
        await page.getByText(button === 'Mark completed' ? 'Marked as completed.' : 'Marked as a no-show.').waitFor();
        await page.getByText(label, { exact: true }).first().waitFor();
        await expect.poll(() => page.getByRole('group', { name: 'Actions' }).count()).toBe(0);
        await page.getByRole('listitem').filter({ hasText: button === 'Mark completed' ? 'Marked completed' : 'Marked no-show' }).filter({ hasText: ADMIN.name }).waitFor();
        expect(await violations(page)).toEqual([]);
      }
      await page.context().close();
    } finally {
      await own.stop();
      removeDir(own.dataDir);
    }
  });
});
