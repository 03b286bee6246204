// A driver's page (issue 41 §2) in Chromium against the real server, as a driver uses it on a phone: the office gives
// Daniel Price and LB19 XKE a new Albion booking; at 375 px he signs in with his mobile and the code texted to it (a
// wrong code says so), sees the job, and takes it through the day: Accept, On my way, Arrived, Passenger on board,
// Completed (confirmed first), each shown as it is saved; the passenger is texted at On my way, Arrived and Completed.
// Another driver's job typed in the address is not found. Every new screen is checked with axe at 375 px, and the page
// works at 320 px without scrolling sideways. Bookings are made through the API, as the website makes them.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { onSharedServer, ukDateInDays } from './harness';
import { violations } from './axe';
import { smsTexts } from './outbox';
import { DEMO_STAFF } from '../../src/server/operator/seed';

const suite = onSharedServer();
const shared = suite.server;
const [ADMIN] = DEMO_STAFF;
const KEYS = { 'content-type': 'application/json', 'API-PUBLIC-KEY': 'local-public-key', 'API-SECRET-KEY': 'local-secret-key' };
const DANIEL = { name: 'Daniel Price', mobile: '07700 900101', e164: '+447700900101' };
const PASSENGER_PHONE = '+447700900321';

const api = async (at: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(`${shared.url}/api/v1${at}`, { method: body ? 'POST' : 'GET', headers: { ...KEYS, ...headers }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() as any, headers: res.headers };
};

let counter = 0;
/** A booking made as the website makes it, paid in the car: 20 days ahead, 2 passengers. */
async function book(company: string) {
  const form = {
    pickup: 'Heathrow Airport Terminal 5, Hounslow TW6 2GA', dropoff: 'Trafalgar Square, London WC2N 5DN',
    pickup_date: ukDateInDays(20), pickup_hour: '7am', pickup_min: '15', passengers: 2, luggages: 1,
  };
  const prices = await api('/calculate-distance-price', form);
  const vehicle = prices.body.price_details.find((p: any) => p.vehicle_type === 'Saloon' && p.company_name === company);
  const res = await api('/booking', {
    selectedVehicleData: vehicle, selectedVehicle: 1, bookingType: 'milleage', bookingForm: form, hourlyRateForm: null,
    registrationData: { firstName: 'Eleanor', surname: `Whitfield${++counter}`, number: '07700 900321', email: `eleanor.driver.${Date.now()}.${counter}@example.com`, additionalInfo: 'Flight lands at 06:40.' },
    payment_method: 'car', selected_passenger: 'guest_login', stripe_session_id: null, paymentId: null,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.booking as { booking_number: string; total_booking_amount: string };
}

/** The office gives a booking to a driver and a car of the record, as the console does, with the staff cookie. */
async function dispatch(reference: string, driverName: string, registration: string) {
  const signedIn = await api('/operator/session', ADMIN);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0];
  const drivers = (await api('/operator/data/drivers', undefined, { cookie })).body.data.drivers as { id: number; name: string }[];
  const cars = (await api('/operator/data/cars', undefined, { cookie })).body.data.cars as { id: number; registration: string }[];
  const res = await api(`/operator/bookings/${reference}/driver`, {
    driver_id: String(drivers.find((d) => d.name === driverName)!.id), car_id: String(cars.find((c) => c.registration === registration)!.id),
  }, { cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const texts = () => smsTexts(shared.dataDir);
/** The newest sign-in code texted to a mobile: "NNNNNN is your ... driver code". */
const newestCode = (e164: string) => texts().filter((t) => t.to === e164).map((t) => /^(\d{6}) is your .* driver code/.exec(t.text)?.[1]).filter(Boolean).at(-1);

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
const steps = (page: Page) => page.getByRole('group', { name: 'Job steps' });
const status = (page: Page) => page.locator('.drv-status-row .drv-pill');

describe("a driver's day", () => {
  it('signs in with the texted code, and takes a job from Accept to Completed, the passenger texted on the way', async () => {
    const booking = await book('Albion Executive Cars');
    const ref = booking.booking_number;
    await dispatch(ref, DANIEL.name, 'LB19 XKE');
    // Another driver's job (Metro Cars London's Samir Haddad): not Daniel's to see.
    const other = await book('Metro Cars London');
    await dispatch(other.booking_number, 'Samir Haddad', 'LF68 TXI');

    const context: BrowserContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const before = texts().filter((t) => t.to === DANIEL.e164 && /driver code/.test(t.text)).length;
    await page.goto(`${shared.url}/driver`);
    await page.getByRole('heading', { name: 'Driver sign-in' }).waitFor();
    // Installable while the driver's page is open: its manifest, and the phone's bar colour.
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/storage/driver.webmanifest');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#0f2a47');
    const manifest = await (await fetch(`${shared.url}/storage/driver.webmanifest`)).json() as { start_url: string; display: string; icons: unknown[] };
    expect([manifest.start_url, manifest.display, manifest.icons.length > 0]).toEqual(['/driver', 'standalone', true]);
    expect(await violations(page)).toEqual([]);
    expect(await noSideScroll(page)).toBe(true);

    await page.getByLabel('Mobile number').fill(DANIEL.mobile);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await page.getByRole('status').filter({ hasText: 'a 6-digit code is on its way by text' }).waitFor();
    await expect.poll(() => texts().filter((t) => t.to === DANIEL.e164 && /driver code/.test(t.text)).length, { timeout: 30_000 }).toBeGreaterThan(before);
    const code = newestCode(DANIEL.e164)!;
    expect(await violations(page)).toEqual([]);

    // A wrong code says so, under the field.
    await page.getByLabel('Code').fill(code.slice(0, 5) + String((Number(code[5]) + 1) % 10));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('That code is not right or has expired. Check the text, or ask for a new code.').waitFor();
    expect(await page.getByLabel('Code').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    // The list: the job, upcoming, with its time, its route and where it stands.
    await page.getByRole('heading', { name: 'Your jobs' }).waitFor();
    const card = page.getByRole('link', { name: new RegExp(ref) });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/07:15.*Heathrow Airport Terminal 5.*Trafalgar Square.*New: accept or decline/);
    expect(await page.getByRole('banner').textContent()).toContain(DANIEL.name);
    expect(await violations(page)).toEqual([]);
    expect(await noSideScroll(page)).toBe(true);
    // The session is a cookie the page's scripts cannot read.
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await card.click();
    await page.getByRole('heading', { name: `Job ${ref}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/driver/jobs/${ref}`);
    // The heading shows while the job loads: its buttons come with it.
    await page.getByRole('button', { name: 'Accept', exact: true }).waitFor();
    const text = (await page.locator('main').textContent())!;
    for (const shown of ['Heathrow Airport Terminal 5', 'Trafalgar Square', 'Eleanor Whitfield', 'Passengers2', 'Collect in the car', `£${booking.total_booking_amount}`, 'Flight lands at 06:40.']) {
      expect(text.replace(/\s+/g, ''), shown).toContain(shown.replace(/\s+/g, ''));
    }
    expect(await page.getByRole('link', { name: 'Call 07700 900321' }).getAttribute('href')).toBe(`tel:${PASSENGER_PHONE}`);
    expect(await steps(page).getByRole('button').allTextContents()).toEqual(['Accept', 'Decline']);
    expect(await violations(page)).toEqual([]);
    expect(await noSideScroll(page)).toBe(true);

    // Through the day: each step shown as saved, and only the next ones offered.
    const take = async (label: string, statusLabel: string, next: string[]) => {
      await steps(page).getByRole('button', { name: label, exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Saved: ${label}.` }).waitFor();
      await expect.poll(() => status(page).textContent()).toBe(statusLabel);
      await expect.poll(() => steps(page).getByRole('button').allTextContents().catch(() => [])).toEqual(next);
    };
    await take('Accept', 'Accepted by the driver', ['On my way']);
    await take('On my way', 'Driver on the way', ['Arrived']);
    await take('Arrived', 'Driver at the pickup', ['Passenger on board']);
    // The free waiting has not passed: the page says from when No-show can be tapped.
    await page.getByText(/^No-show can be tapped from \d\d:\d\d, when the passenger's free waiting time ends/).waitFor();
    await take('Passenger on board', 'Passenger on board', ['Completed']);
    await steps(page).getByRole('button', { name: 'Completed', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Complete this job?' });
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain(`Collect £${booking.total_booking_amount} first.`);
    expect(await violations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Yes, completed' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved: Completed.' }).waitFor();
    await expect.poll(() => status(page).textContent()).toBe('Completed');
    expect(await steps(page).count()).toBe(0);

    // The passenger's texts: on the way (with a link to follow the car), at the pickup, and the receipt.
    const passengerTexts = () => texts().filter((t) => t.to === PASSENGER_PHONE && t.text.includes(ref)).map((t) => t.text);
    await expect.poll(passengerTexts, { timeout: 30_000 }).toEqual(expect.arrayContaining([
      expect.stringMatching(/Daniel Price is on the way to .* Follow the car: http/),
      expect.stringMatching(/your driver Daniel Price is at the pickup point/),
      expect.stringMatching(/thank you for travelling with us\. Your receipt for BK-[A-Z0-9]{8}: http/),
    ]));
    // In the order they were sent: on the way, at the pickup, the receipt.
    const order = passengerTexts().map((t) => (/on the way/.test(t) ? 1 : /at the pickup/.test(t) ? 2 : /receipt/.test(t) ? 3 : 0)).filter(Boolean);
    expect(order).toEqual([1, 2, 3]);

    // Another driver's job, typed in the address: not found.
    await page.goto(`${shared.url}/driver/jobs/${other.booking_number}`);
    await page.getByRole('heading', { name: 'Job not found' }).waitFor();
    expect(await page.locator('main').textContent()).toContain(`There is no job ${other.booking_number} of yours.`);
    expect(await violations(page)).toEqual([]);

    // At 320 px: one column, nothing wider than the screen.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${shared.url}/driver/jobs/${ref}`);
    await page.getByRole('heading', { name: `Job ${ref}` }).waitFor();
    await page.getByText('Eleanor Whitfield').first().waitFor();
    expect(await noSideScroll(page)).toBe(true);
    await page.goto(`${shared.url}/driver`);
    await page.getByRole('link', { name: new RegExp(ref) }).waitFor();
    expect(await noSideScroll(page)).toBe(true);
    const small = await Promise.all((await page.getByRole('button').all()).map(async (b) => (await b.boundingBox())?.height ?? 48));
    expect(Math.min(...small), 'every button is at least 48 px tall').toBeGreaterThanOrEqual(48);

    // Signed out: the sign-in again, and the manifest goes with the driver's page.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Driver sign-in' }).waitFor();
    await page.evaluate(() => { window.history.pushState(null, '', '/contactus'); window.dispatchEvent(new PopStateEvent('popstate')); });
    await page.getByRole('heading', { name: 'Contact Us' }).waitFor();
    expect(await page.locator('link[rel="manifest"]').count()).toBe(0);
    await context.close();
  });

  it('shows No-show by itself, without a reload, once the free waiting after Arrived has passed', async () => {
    // One minute of free waiting at airports, kept by the booking made now; the setting goes back to empty (45) at once.
    await shared.admin('set-setting', 'FREE_WAITING_AIRPORT_MINUTES', '1');
    let booking: Awaited<ReturnType<typeof book>>;
    try {
      booking = await book('Albion Executive Cars');
    } finally {
      await shared.admin('set-setting', 'FREE_WAITING_AIRPORT_MINUTES', '');
    }
    const ref = booking.booking_number;
    await dispatch(ref, DANIEL.name, 'LB19 XKE');
    const context: BrowserContext = await suite.browser.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const before = texts().filter((t) => t.to === DANIEL.e164 && /driver code/.test(t.text)).length;
    await page.goto(`${shared.url}/driver/jobs/${ref}`);
    await page.getByLabel('Mobile number').fill(DANIEL.mobile);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await expect.poll(() => texts().filter((t) => t.to === DANIEL.e164 && /driver code/.test(t.text)).length, { timeout: 30_000 }).toBeGreaterThan(before);
    await page.getByLabel('Code').fill(newestCode(DANIEL.e164)!);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: `Job ${ref}` }).waitFor();
    for (const label of ['Accept', 'On my way', 'Arrived']) {
      await steps(page).getByRole('button', { name: label, exact: true }).click();
      await page.getByRole('status').filter({ hasText: `Saved: ${label}.` }).waitFor();
    }
    // At the pickup: on board only, until the minute of free waiting has passed ...
    expect(await steps(page).getByRole('button').allTextContents()).toEqual(['Passenger on board']);
    // ... then No-show comes by itself, the page not reloaded (a mark left on it is still there).
    await page.evaluate(() => { (window as unknown as { stillHere: boolean }).stillHere = true; });
    await steps(page).getByRole('button', { name: 'No-show', exact: true }).waitFor({ timeout: 100_000 });
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(await steps(page).getByRole('button').allTextContents()).toEqual(['Passenger on board', 'No-show']);
    await context.close();
  }, 180_000);
});
